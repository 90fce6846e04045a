/**
 * Releases in the history: the `v<MAJOR.MINOR.PATCH>` tags reachable from a commit, and the changelog's entries
 * grouped by the release that shipped them (the oldest tag whose commit holds the entry's commit), newest first,
 * with the entries no tag holds yet as "Unreleased" on top.
 */
import { spawnSync } from "node:child_process";
import type { Entry } from "./entries.js";
import { git, hasCommit } from "./history.js";

export const TAG_PREFIX = "v";
const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

export interface Release {
  tag: string;
  version: string;
  sha: string;
  /** ISO 8601 committer date of the tagged commit. */
  date: string;
}

export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => (SEMVER.exec(v) ?? [0, 0, 0, 0]).slice(1).map(Number);
  const [x, y] = [parse(a), parse(b)];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
}

/** The release tags reachable from `rev`, newest version first. */
export function releasesOf(cwd: string, rev = "HEAD"): Release[] {
  if (!hasCommit(cwd, rev)) return [];
  const out = git(cwd, ["tag", "--merged", rev, "--list", `${TAG_PREFIX}*`, "--format=%(refname:strip=2)"]);
  return out
    .split("\n")
    .map((t) => t.trim())
    .filter((t) => SEMVER.test(t.slice(TAG_PREFIX.length)))
    .map((tag) => {
      const [sha = "", date = ""] = git(cwd, ["log", "-1", "--format=%H%x00%cI", `refs/tags/${tag}^{commit}`])
        .trim()
        .split("\0");
      return { tag, version: tag.slice(TAG_PREFIX.length), sha, date };
    })
    .sort((a, b) => compareVersions(b.version, a.version));
}

export interface ReleaseGroup {
  /** The release's version, or undefined for "Unreleased". */
  version?: string;
  date?: string;
  /** The first release: it holds the whole history before it, shown as one block. */
  first: boolean;
  /** For "Unreleased": the next release and why, when known. */
  next?: string;
  /** Newest first. */
  entries: Entry[];
}

const isAncestor = (cwd: string, a: string, b: string) =>
  spawnSync("git", ["merge-base", "--is-ancestor", a, b], { cwd }).status === 0;

/**
 * Sets each entry's `release` and groups the entries (oldest first in, newest first out). "Unreleased" is always
 * there (empty when everything is released), then one group per release, the first release last.
 */
export function groupByRelease(cwd: string, entries: Entry[], releases: Release[], next?: string): ReleaseGroup[] {
  const oldestFirst = [...releases].reverse();
  for (const entry of entries) {
    const shipped = entry.sha ? oldestFirst.find((r) => isAncestor(cwd, entry.sha!, r.sha)) : undefined;
    if (shipped) entry.release = shipped.version;
  }
  const newestFirst = [...entries].reverse();
  const groups: ReleaseGroup[] = [
    { first: false, ...(next ? { next } : {}), entries: newestFirst.filter((e) => e.release === undefined) },
  ];
  releases.forEach((r, i) =>
    groups.push({
      version: r.version,
      date: r.date,
      first: i === releases.length - 1,
      entries: newestFirst.filter((e) => e.release === r.version),
    }),
  );
  return groups;
}

/** `release-1.2.0` / `release-unreleased`: a group's anchor on the page. */
export const releaseAnchor = (g: Pick<ReleaseGroup, "version">): string => `release-${g.version ?? "unreleased"}`;

/** "2.0.0 · 2026-12-01", "1.0.0 · 2026-11-30 · the first release: the history before it", "Unreleased". */
export function releaseHeading(g: ReleaseGroup): string {
  if (g.version === undefined) return g.next ? `Unreleased · next release ${g.next}` : "Unreleased";
  const date = g.date ? ` · ${g.date.slice(0, 10)}` : "";
  return g.first ? `${g.version}${date} · the first release, with the history before it` : `${g.version}${date}`;
}
