/**
 * `npm run changelog`: the API changelog from the spec's git history. Each first-parent commit of the current
 * branch that changed the bundled contract gives one entry (see README.md); writes `dist/docs/changelog.html` and
 * the Atom feed `dist/docs/changelog.xml`. `npm run docs` builds both beside the reference.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type CommandSpec,
  COMMON_OPTIONS,
  REPO_ROOT,
  isMain,
  isObj,
  runCommand,
  usageError,
} from "../../contract-core/index.js";
import { type Entry, entriesOf } from "./entries.js";
import {
  type Commit,
  MARKER_FILE,
  type Revision,
  filesAt,
  hasCommit,
  isShallow,
  revisionAt,
  revisionsAt,
  specCommits,
} from "./history.js";
import { detectChanges } from "../breaking/breaking.js";
import { nextRelease } from "../release/version.js";
import { type ReleaseGroup, groupByRelease, releasesOf } from "./releases.js";
import { FEED_FILE, PAGE_FILE, renderFeed, renderPage } from "./render.js";

export { type Entry, type EntryChange, entriesOf, entryOf } from "./entries.js";
export { renderEntry, renderFeed, renderPage } from "./render.js";

export const DEFAULT_OUT_DIR = path.join(REPO_ROOT, "dist", "docs");

export interface History {
  entries: Entry[];
  /** The newest revision's bundle (operations and their reference links come from it). */
  latest?: Revision;
  /** One line when the clone is shallow: the history is cut, and how to fetch the rest. */
  shallow?: string;
  /** The entries by release, newest first, "Unreleased" on top (readHistory only). */
  groups?: ReleaseGroup[];
}

/** The next release of the history's newest contract, as the gate words it (undefined when it cannot say). */
async function nextSentence(cwd: string, history: History, rev: string): Promise<string | undefined> {
  const doc = history.latest?.doc;
  const stated = isObj(doc?.info) && typeof doc.info.version === "string" ? doc.info.version : undefined;
  if (!doc || stated === undefined) return undefined;
  const last = releasesOf(cwd, rev)[0];
  try {
    const base = last ? (await revisionAt(cwd, { sha: last.sha, date: last.date, subject: "" })).doc : undefined;
    return nextRelease(last?.version, stated, base ? detectChanges(base, doc) : []).sentence;
  } catch {
    return undefined;
  }
}

/** The revisions of `commits` (oldest first), bundled one after the other (memory stays at two bundles' worth). */
async function entriesFrom(
  cwd: string,
  base: Revision | undefined,
  commits: Commit[],
  reviewed: string,
): Promise<History> {
  const entries: Entry[] = [];
  let previous = base;
  for await (const revision of revisionsAt(cwd, commits, previous)) {
    entries.push(...entriesOf(previous, [revision], reviewed));
    if (revision.doc) previous = revision;
  }
  return { entries, ...(previous ? { latest: previous } : {}) };
}

/** The revision just before `commit` on its first-parent line, when this clone has it. */
async function parentRevision(cwd: string, commit: Commit | undefined): Promise<Revision | undefined> {
  if (!commit || !hasCommit(cwd, `${commit.sha}^`)) return undefined;
  const parent = `${commit.sha}^`;
  return revisionAt(cwd, { sha: parent, date: "", subject: "" });
}

/** The changelog entries of `rev`'s first-parent history (all of it that this clone holds). */
export async function readHistory(cwd: string, rev = "HEAD"): Promise<History> {
  if (!hasCommit(cwd, rev))
    throw new Error(`${rev} is not a commit of a git repository at ${cwd}: the changelog reads the spec's git history`);
  const commits = specCommits(cwd, rev);
  const first = commits[0];
  const shallow = isShallow(cwd);
  // In a shallow clone the oldest commit's parent is missing: it is the baseline, not an entry.
  const base = shallow && first && !hasCommit(cwd, `${first.sha}^`) ? await revisionAt(cwd, first) : undefined;
  const reviewed = filesAt(cwd, rev, [MARKER_FILE]).get(MARKER_FILE) ?? "";
  const history = await entriesFrom(
    cwd,
    base ?? (await parentRevision(cwd, first)),
    base ? commits.slice(1) : commits,
    reviewed,
  );
  history.groups = groupByRelease(cwd, history.entries, releasesOf(cwd, rev), await nextSentence(cwd, history, rev));
  if (shallow)
    history.shallow =
      `changelog: this clone is shallow, so the changelog starts at ${first?.sha.slice(0, 7) ?? "its oldest commit"};` +
      " fetch the whole history with `git fetch --unshallow` (in GitHub Actions: actions/checkout with fetch-depth: 0).";
  return history;
}

/** The entries `base..head` adds (first-parent), compared with the contract at `base`. */
export async function entriesBetween(cwd: string, base: string, head = "HEAD"): Promise<History> {
  const baseRevision = await revisionAt(cwd, { sha: base, date: "", subject: "" });
  const reviewed = filesAt(cwd, head, [MARKER_FILE]).get(MARKER_FILE) ?? "";
  return entriesFrom(cwd, baseRevision, specCommits(cwd, `${base}..${head}`), reviewed);
}

export interface BuildResult {
  page: string;
  feed: string;
  entries: number;
  shallow?: string;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
}

/** Builds the page and the feed into `outDir` from the history of `cwd`. */
export async function buildChangelog(
  options: { cwd?: string; outDir?: string; rev?: string } = {},
): Promise<BuildResult> {
  const cwd = options.cwd ?? REPO_ROOT;
  const outDir = path.resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const history = await readHistory(cwd, options.rev);
  const page = path.join(outDir, PAGE_FILE);
  const feed = path.join(outDir, FEED_FILE);
  await mkdir(outDir, { recursive: true });
  await writeAtomically(page, renderPage(history.entries, history.latest?.doc, history.shallow, history.groups));
  await writeAtomically(feed, renderFeed(history.entries, history.latest?.doc, undefined, history.groups));
  return { page, feed, entries: history.entries.length, ...(history.shallow ? { shallow: history.shallow } : {}) };
}

export const CHANGELOG_COMMAND: CommandSpec = {
  name: "npm run changelog",
  summary:
    "Writes the API changelog (changelog.html and the Atom feed changelog.xml) from the spec's git history: one entry per commit that changed the bundled contract.",
  options: {
    out: COMMON_OPTIONS.out("dist/docs", "the folder to write changelog.html and changelog.xml into"),
    rev: { type: "string", value: "<git ref>", default: "HEAD", description: "the history up to this commit" },
  },
};

if (isMain(import.meta.url))
  await runCommand(CHANGELOG_COMMAND, async ({ values }) => {
    const rev = String(values.rev);
    if (!hasCommit(REPO_ROOT, rev)) throw usageError(CHANGELOG_COMMAND, `--rev ${rev} does not name a commit`);
    const result = await buildChangelog({ outDir: path.resolve(String(values.out)), rev });
    if (result.shallow) console.warn(result.shallow);
    console.log(`Changelog: ${path.relative(process.cwd(), result.page)} and ${FEED_FILE} (${result.entries} entries)`);
  });
