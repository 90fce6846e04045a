/**
 * The gate's breaking-change check: the working tree's spec against the spec at a base commit (its files read
 * from git objects, both bundled in-process), with the reviewed markers of breaking-markers.ts applied.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { SpecLoadError, openApiDocument } from "../../contract-core/index.js";
import { BundleError, bundleFile } from "../../contract-core/redocly.js";
import { type Change, type Report, compareSpecs, needsReview } from "../breaking/breaking.js";
import { filesAt } from "../changelog/history.js";
import { applyMarkers, isMajorBump, parseMarkers } from "./breaking-markers.js";

const run = promisify(execFile);
const specRoot = "spec/openapi.yaml";
const markerFile = "spec/BREAKING.md";

async function git(cwd: string, ...args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run("git", args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** The files of commit `sha` (all, or those under `paths`) written into `into`, through `git archive`. */
export async function extractCommit(cwd: string, sha: string, into: string, paths: string[] = []): Promise<void> {
  // Only a full sha reaches git archive (which has no --end-of-options): it cannot be read as an option.
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`not a commit sha: ${JSON.stringify(sha)}`);
  const tar = join(into, ".base.tar");
  await run("git", ["archive", "--format=tar", "-o", tar, sha, ...(paths.length ? ["--", ...paths] : [])], { cwd });
  await run("tar", ["-xf", tar, "-C", into]);
  await rm(tar);
}

/** The sha of `ref`'s commit; a ref that git could read as an option (`-...`) names none. */
const commitOf = async (cwd: string, ref: string) =>
  ref.startsWith("-") ? undefined : git(cwd, "rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`);

export interface BaseRef {
  label: string;
  sha: string;
}
export type ResolvedBase = BaseRef | { skip: string } | { error: string };

/** The base commit: the given ref, else the merge base with origin/main, else HEAD~1, else a skip note. */
export async function resolveBase(cwd: string, ref?: string): Promise<ResolvedBase> {
  if ((await git(cwd, "rev-parse", "--is-inside-work-tree")) !== "true") return { skip: "not a git repository" };
  if (ref !== undefined) {
    const sha = await commitOf(cwd, ref);
    return sha
      ? { label: ref, sha }
      : { error: `base ref ${ref} does not resolve to a commit (is the history fetched? use fetch-depth: 0)` };
  }
  if (await commitOf(cwd, "origin/main")) {
    const sha = await git(cwd, "merge-base", "HEAD", "origin/main");
    if (sha) return { label: "merge base with origin/main", sha };
  }
  const parent = await commitOf(cwd, "HEAD~1");
  if (parent) return { label: "HEAD~1", sha: parent };
  return { skip: "no base to compare with: no origin/main and no parent commit" };
}

export interface BreakingOutcome {
  status: "pass" | "fail" | "skip";
  /** One line: what the check found. */
  note: string;
  report?: Report;
  /** Breaking changes not covered by a marker: they fail the gate. */
  blocking: Change[];
  /** Breaking changes covered by a marker, with the marker that covers them. */
  accepted: { change: Change; by: string }[];
  notes: string[];
}

/** The check of the working tree at `cwd` against `base`. */
export async function breakingCheck(args: { cwd: string; base: ResolvedBase }): Promise<BreakingOutcome> {
  const { cwd, base } = args;
  const outcome: BreakingOutcome = { status: "pass", note: "", blocking: [], accepted: [], notes: [] };
  const done = (status: BreakingOutcome["status"], note: string) => Object.assign(outcome, { status, note });
  if ("skip" in base) return done("skip", base.skip);
  if ("error" in base) return done("fail", base.error);
  const short = base.sha.slice(0, 7);
  const baseFiles = filesAt(cwd, base.sha, [dirname(specRoot)]);
  if (!baseFiles.has(specRoot))
    return done("skip", `${specRoot} does not exist at ${base.label} (${short}): nothing to compare`);
  const headRoot = join(cwd, specRoot);
  if (!existsSync(headRoot)) return done("fail", `${specRoot} is missing from the working tree`);

  let report: Report;
  try {
    const [baseDoc, headDoc] = await Promise.all([
      bundleFile(join(cwd, specRoot), {
        files: { dir: cwd, files: baseFiles },
        configDir: cwd,
        label: `${specRoot} at ${base.label}`,
      }),
      bundleFile(headRoot, { configDir: cwd, label: specRoot }),
    ]);
    report = compareSpecs(
      openApiDocument(baseDoc.doc, `${specRoot} at ${base.label}`),
      openApiDocument(headDoc.doc, specRoot),
    );
  } catch (e) {
    if (e instanceof BundleError || e instanceof SpecLoadError) return done("fail", e.message);
    throw e;
  }
  outcome.report = report;
  outcome.notes.push(...report.notes);
  const markerPath = join(cwd, markerFile);
  const markers = existsSync(markerPath)
    ? parseMarkers(await readFile(markerPath, "utf8"))
    : { entries: [], errors: [] };
  if (markers.errors.length > 0) {
    outcome.notes.push(...markers.errors.map((e) => `${markerFile} ${e}`));
    outcome.blocking = report.breaking;
    return done("fail", `${markerFile} has malformed entries`);
  }
  const version = (doc: Record<string, unknown>) => (doc.info as { version?: unknown } | undefined)?.version;
  const bump = isMajorBump(version(report.base), version(report.head));
  Object.assign(outcome, applyMarkers(report.breaking, markers.entries, bump));
  // An unclassified change is breaking until a reviewer marks it: it blocks like one, and the note says so.
  const review = report.breaking.filter(needsReview).length;
  const counts = `${report.breaking.length} breaking${review > 0 ? ` (${review} need review)` : ""}, ${report.nonBreaking.length} non-breaking change(s) vs ${base.label} (${short})`;
  if (outcome.blocking.length > 0)
    return done("fail", `${outcome.blocking.length} unmarked breaking change(s); ${counts}`);
  const accepted = outcome.accepted.length;
  return done("pass", accepted > 0 ? `${counts}; ${accepted} accepted by a reviewed marker` : counts);
}
