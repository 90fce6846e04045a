/**
 * What the next release is: the last release (the newest `v<MAJOR.MINOR.PATCH>` tag reachable from HEAD), the
 * changes of the working tree's contract since it (the breaking-change differ on the two bundles), the version
 * they call for, and whether the version the spec and package.json state agrees with them. The gate's release
 * check and `npm run release` both read it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Obj, isObj } from "../../contract-core/index.js";
import { type Change, detectChanges } from "../breaking/breaking.js";
import { markerMatches, parseMarkers } from "../gate/breaking-markers.js";
import { MARKER_FILE, type Revision, canonical, git, revisionAt, workingRevision } from "../changelog/history.js";
import { type Release, releasesOf } from "../changelog/releases.js";
import { type NextRelease, isMajorChange, nextRelease } from "./version.js";

export { type Release, releasesOf } from "../changelog/releases.js";

export const versionOf = (doc: Obj | undefined): string | undefined =>
  isObj(doc?.info) && typeof doc.info.version === "string" ? doc.info.version : undefined;

export interface ReleasePlan {
  last?: Release;
  next: NextRelease;
  /** The spec's info.version in the working tree, and package.json's version. */
  stated: { spec?: string; packageJson?: string };
  changes: Change[];
  /** The breaking changes without a spec/BREAKING.md entry carrying a migration line. */
  withoutMigration: Change[];
  /** The working tree's revision (its spec files and bundle) and the last release's. */
  head: Revision;
  base?: Revision;
}

const packageVersion = (cwd: string): string | undefined => {
  try {
    const pkg = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : undefined;
  } catch {
    return undefined;
  }
};

/** The plan of the working tree at `cwd`. */
export async function planRelease(cwd: string): Promise<ReleasePlan> {
  const head = await workingRevision(cwd);
  if (!head.doc) throw new Error("spec/openapi.yaml is missing from the working tree: there is no contract to release");
  const last = releasesOf(cwd)[0];
  const base = last ? await revisionAt(cwd, { sha: last.sha, date: last.date, subject: "" }) : undefined;
  const changes = base?.doc ? detectChanges(base.doc, head.doc) : [];
  const bundleChanged = base?.doc !== undefined && canonical(base.doc) !== canonical(head.doc);
  // The package's code changed although the contract did not: a patch (one version for both).
  const codeChanged = last !== undefined && git(cwd, ["rev-list", "--count", `${last.sha}..HEAD`]).trim() !== "0";
  const stated = { spec: versionOf(head.doc), packageJson: packageVersion(cwd) };
  const next = nextRelease(last?.version, stated.spec ?? "", changes, bundleChanged || codeChanged);
  const markers = parseMarkers(head.files.get(MARKER_FILE) ?? "").entries;
  const withoutMigration = changes
    .filter(isMajorChange)
    .filter((c) => !markers.some((e) => e.migration && markerMatches(e, c)));
  return { ...(last ? { last } : {}), next, stated, changes, withoutMigration, head, ...(base ? { base } : {}) };
}

/**
 * What is wrong with the versions a pull request states, one sentence each: the spec's and package.json's differ,
 * or the pull request sets a version (other than `baseVersion`, the one at its base) that is not the next release;
 * a major release whose breaking changes lack a migration line.
 */
export function versionProblems(plan: ReleasePlan, baseVersion: string | undefined): string[] {
  const problems: string[] = [];
  const { spec, packageJson } = plan.stated;
  if (spec !== packageJson)
    problems.push(
      `info.version ${spec ?? "(none)"} and package.json's version ${packageJson ?? "(none)"} differ: the contract and its package have one version`,
    );
  if (spec !== undefined && spec !== baseVersion && spec !== plan.next.version) {
    const since = plan.last ? `the changes since ${plan.last.tag}` : "the first release";
    problems.push(`info.version ${spec} is inconsistent with ${since}: the next release is ${plan.next.sentence}`);
  }
  if (plan.next.level === "major")
    for (const c of plan.withoutMigration)
      problems.push(
        `\`${c.rule}\` on ${c.operationId ?? c.operation} (${c.component ?? c.location}) has no migration line: a major release needs a spec/BREAKING.md entry ending with "Migration: <what a client must do>"`,
      );
  return problems;
}
