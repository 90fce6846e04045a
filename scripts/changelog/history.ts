/**
 * The spec's history from git: the first-parent commits that touched `spec/`, each revision's files read from git
 * objects (a `git ls-tree` each, then one `git cat-file --batch` for them all) and bundled in-process from those
 * files (contract-core's bundleFile, which gives the CLI's bundle). Git's output is read in a form commit text
 * cannot forge (NUL-terminated fields, each checked), and a revision reaches git only after `--end-of-options`,
 * checked by `revisionArg`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type Obj, controlCharacters, isObj } from "../../contract-core/index.js";
import { bundleFile } from "../../contract-core/redocly.js";
import { parseConsumerContract, type ConsumerContract } from "../../contract-core/consumer-contract.js";

export const SPEC_DIR = "spec";
export const SPEC_ROOT = "spec/openapi.yaml";
export const MARKER_FILE = "spec/BREAKING.md";
/** Where the recordings live; a change lists the recordings of the operations it touches. */
export const RECORDINGS_DIR = "contract-tests/recordings";
/** Where the registered consumer contracts live; a change lists the interactions of theirs it touches. */
export const CONSUMERS_DIR = "consumers";

export interface Commit {
  sha: string;
  /** ISO 8601, the committer date (when it landed on the branch). */
  date: string;
  subject: string;
}

/** One revision of the contract: its bundle and the files of `spec/` it was bundled from. */
export interface Revision {
  /** The commit, or undefined for the working tree. */
  commit?: Commit;
  /** The bundle, or undefined when the revision has no spec (before the first one). */
  doc?: Obj;
  /** `spec/` files by repository path (text). */
  files: Map<string, string>;
  /** The files of `files` its bundle was made from (those Redocly read), when it has one. */
  bundledFrom?: string[];
  /** Recording files under RECORDINGS_DIR (repository paths). */
  recordings: string[];
  /** The consumer contracts under CONSUMERS_DIR (none when absent). */
  consumers?: ConsumerContract[];
}

/** The consumer contracts among `files` (repository path -> text); one that does not parse throws naming it. */
const contractsOf = (files: Map<string, string>): ConsumerContract[] =>
  [...files]
    .filter(([file]) => file.endsWith(".json"))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([file, text]) => parseConsumerContract(text, file));

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, input });
}

const isRevisionText = (rev: string): boolean =>
  rev !== "" && !rev.startsWith("-") && controlCharacters(rev).length === 0;

/**
 * `rev` as a git argument, or an error: a revision is never empty, never starts with `-` (an option) and holds no
 * control character. Callers also put it after `--end-of-options`, so git reads it as a revision whatever it is.
 */
export function revisionArg(rev: string): string {
  if (!isRevisionText(rev)) throw new Error(`not a git revision: ${JSON.stringify(rev)}`);
  return rev;
}

/** True when `rev` names a commit in this clone. */
export function hasCommit(cwd: string, rev: string): boolean {
  if (!isRevisionText(rev)) return false;
  const args = ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`];
  return spawnSync("git", args, { cwd }).status === 0;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;
/** `git log -z` with this format gives sha, date and subject, each ended by a NUL (a subject holds none). */
const LOG_FORMAT = "--format=%H%x00%cI%x00%s";

/** The commits of `git log -z LOG_FORMAT` output; throws when a record is not a sha, a date and a subject. */
export function parseLog(out: string): Commit[] {
  const fields = out.split("\0");
  if (fields.pop() !== "" || fields.length % 3 !== 0) throw new Error("git log printed an unexpected record");
  const commits: Commit[] = [];
  for (let i = 0; i < fields.length; i += 3) {
    const [sha = "", date = "", subject = ""] = fields.slice(i, i + 3);
    if (!SHA.test(sha) || !ISO_DATE.test(date))
      throw new Error(`git log printed an unexpected record: ${JSON.stringify(`${sha} ${date}`.slice(0, 120))}`);
    commits.push({ sha, date, subject });
  }
  return commits;
}

export function isShallow(cwd: string): boolean {
  return git(cwd, ["rev-parse", "--is-shallow-repository"]).trim() === "true";
}

/**
 * The first-parent commits of `range` (a ref, or `base..head`) whose tree differs from their first parent's
 * under `spec/`, oldest first. Only they can change the bundle: it is made from `spec/` alone.
 */
export function specCommits(cwd: string, range = "HEAD"): Commit[] {
  const [base, head, ...rest] = range.split("..");
  if (rest.length > 0) throw new Error(`not a git range: ${JSON.stringify(range)}`);
  const checked = head === undefined ? revisionArg(range) : `${revisionArg(base!)}..${revisionArg(head)}`;
  const args = ["log", "-z", "--first-parent", "--reverse", LOG_FORMAT, "--end-of-options", checked, "--", SPEC_DIR];
  return parseLog(git(cwd, args));
}

/** The commit of `rev` (sha, date, subject). */
export function commitOf(cwd: string, rev: string): Commit {
  const [commit] = parseLog(git(cwd, ["log", "-z", "-1", LOG_FORMAT, "--end-of-options", revisionArg(rev)]));
  if (!commit) throw new Error(`${rev} names no commit`);
  return commit;
}

interface TreeEntry {
  type: string;
  id: string;
  file: string;
}

/** The entries (blobs, and any other kind) under `dirs` at `rev`, from one `git ls-tree`. */
function treeAt(cwd: string, rev: string, dirs: string[]): TreeEntry[] {
  const listing = git(cwd, ["ls-tree", "-r", "-z", "--end-of-options", revisionArg(rev), "--", ...dirs]);
  const entries: TreeEntry[] = [];
  for (const line of listing.split("\0")) {
    const m = /^\d+ (\w+) ([0-9a-f]+)\t(.+)$/s.exec(line);
    if (m?.[1] && m[2] && m[3]) entries.push({ type: m[1], id: m[2], file: m[3] });
  }
  return entries;
}

/** Text files under `dirs` at `rev`, read from git objects in one `git cat-file --batch`. */
export function filesAt(cwd: string, rev: string, dirs: string[]): Map<string, string> {
  return blobTexts(cwd, rev, treeAt(cwd, rev, dirs));
}

/** The text of each blob of `entries` (of `rev`), by repository path, from one `git cat-file --batch`. */
function blobTexts(cwd: string, rev: string, entries: TreeEntry[]): Map<string, string> {
  const blobs = entries.filter((e) => e.type === "blob");
  const texts = blobsById(
    cwd,
    blobs.map((b) => b.id),
    rev,
  );
  return new Map(blobs.map((b) => [b.file, texts.get(b.id)!]));
}

/** The text of each blob id (each read once), from one `git cat-file --batch`; `label` names where they are from. */
function blobsById(cwd: string, ids: string[], label: string): Map<string, string> {
  const unique = [...new Set(ids)];
  const texts = new Map<string, string>();
  if (unique.length === 0) return texts;
  const run = spawnSync("git", ["cat-file", "--batch"], {
    cwd,
    input: unique.join("\n") + "\n",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`git cat-file failed at ${label}: ${run.stderr.toString()}`);
  const out = run.stdout;
  let at = 0;
  for (const id of unique) {
    const eol = out.indexOf(0x0a, at);
    const [, type, size] = out.toString("latin1", at, eol).split(" ");
    if (type !== "blob") throw new Error(`git cat-file found no blob ${id} at ${label}`);
    texts.set(id, out.toString("utf8", eol + 1, eol + 1 + Number(size)));
    at = eol + 1 + Number(size) + 1;
  }
  return texts;
}

/** Repository paths of the files under `dir` in the working tree. */
function listOnDisk(cwd: string, dir: string): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    if (!existsSync(path.join(cwd, rel))) return;
    for (const name of readdirSync(path.join(cwd, rel))) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(cwd, child)).isDirectory()) walk(child);
      else files.push(child);
    }
  };
  walk(dir);
  return files;
}

/** Bundles `spec/openapi.yaml` of a revision's files in-process; throws naming the revision when it cannot. */
export async function bundleFiles(cwd: string, files: Map<string, string>, label: string): Promise<Obj> {
  return (await bundleWithSources(cwd, files, label)).doc;
}

/** bundleFiles, and the files (repository paths) the bundle was made from. */
async function bundleWithSources(
  cwd: string,
  files: Map<string, string>,
  label: string,
): Promise<{ doc: Obj; read: string[] }> {
  const root = path.resolve(cwd);
  const { doc, read } = await bundleFile(path.join(root, SPEC_ROOT), {
    files: { dir: root, files },
    configDir: root,
    label: `${SPEC_ROOT} at ${label}`,
  });
  return { doc, read: read.map((file) => path.relative(root, file).split(path.sep).join("/")) };
}

/** What a revision is read from: its spec files, its recordings and its consumer contracts. */
const REVISION_DIRS = [SPEC_DIR, RECORDINGS_DIR, CONSUMERS_DIR];
const isRead = (e: TreeEntry) =>
  e.type === "blob" && (e.file.startsWith(`${SPEC_DIR}/`) || e.file.startsWith(`${CONSUMERS_DIR}/`));

/**
 * A revision of a commit: its spec files, bundle (none when it has no spec root), recordings and consumers, from
 * one `git ls-tree` and one `git cat-file --batch`. When every file the bundle of `previous` (an earlier revision
 * of the same repository) was made from is the same here, its bundle is this one's too: it is not made again.
 */
export async function revisionAt(cwd: string, commit: Commit, previous?: Revision): Promise<Revision> {
  const entries = treeAt(cwd, commit.sha, REVISION_DIRS);
  const texts = blobsById(
    cwd,
    entries.filter(isRead).map((e) => e.id),
    commit.sha,
  );
  return revisionOf(cwd, commit, entries, texts, previous);
}

/**
 * The revisions of `commits` in turn, each as revisionAt gives it (the first after `previous`): their trees are
 * listed first, then every blob they hold is read in one `git cat-file --batch` (a file most commits leave alone
 * is read once), and each is bundled only when its turn comes.
 */
export async function* revisionsAt(cwd: string, commits: Commit[], previous?: Revision): AsyncGenerator<Revision> {
  const trees = commits.map((c) => treeAt(cwd, c.sha, REVISION_DIRS));
  const label = commits.length === 1 ? commits[0]!.sha : `${commits.length} commits`;
  const texts = blobsById(
    cwd,
    trees.flatMap((t) => t.filter(isRead).map((e) => e.id)),
    label,
  );
  let last = previous;
  for (const [i, commit] of commits.entries()) {
    const revision = await revisionOf(cwd, commit, trees[i]!, texts, last);
    if (revision.doc) last = revision;
    yield revision;
  }
}

async function revisionOf(
  cwd: string,
  commit: Commit,
  entries: TreeEntry[],
  texts: Map<string, string>,
  previous: Revision | undefined,
): Promise<Revision> {
  const under = (dir: string) => entries.filter((e) => e.file.startsWith(`${dir}/`));
  const textsUnder = (dir: string) =>
    new Map(under(dir).flatMap((e) => (e.type === "blob" ? [[e.file, texts.get(e.id)!] as const] : [])));
  const files = textsUnder(SPEC_DIR);
  const recordings = under(RECORDINGS_DIR).map((e) => e.file);
  const consumers = contractsOf(textsUnder(CONSUMERS_DIR));
  const revision: Revision = { commit, files, recordings, consumers };
  if (!files.has(SPEC_ROOT)) return { ...revision, doc: undefined };
  const from = previous?.bundledFrom;
  if (previous?.doc && from?.every((f) => files.get(f) === previous.files.get(f)))
    return { ...revision, doc: previous.doc, bundledFrom: from };
  const { doc, read } = await bundleWithSources(cwd, files, commit.sha.slice(0, 7));
  return { ...revision, doc, bundledFrom: read };
}

/** The working tree as a revision (uncommitted changes included). */
export async function workingRevision(cwd: string): Promise<Revision> {
  const files = new Map(listOnDisk(cwd, SPEC_DIR).map((f) => [f, readFileSync(path.join(cwd, f), "utf8")]));
  const recordings = listOnDisk(cwd, RECORDINGS_DIR);
  const doc = files.has(SPEC_ROOT) ? await bundleFiles(cwd, files, "the working tree") : undefined;
  const consumers = contractsOf(
    new Map(listOnDisk(cwd, CONSUMERS_DIR).map((f) => [f, readFileSync(path.join(cwd, f), "utf8")])),
  );
  return { doc, files, recordings, consumers };
}

/** JSON with object keys sorted: two bundles are the same contract when these are equal (key order is noise). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObj(v) && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}
