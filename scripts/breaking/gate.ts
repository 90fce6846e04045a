/**
 * The pull-request contract gate.
 *
 *   npm run gate -- [--base <git-ref>] [--only lint,drift,breaking,typecheck,tests] [--all] [--no-optic]
 *
 * Checks: lint, the drift check, breaking changes of the working tree's spec against the spec at
 * <git-ref>, typecheck, tests. From the files changed since the base (committed, uncommitted and
 * untracked) it skips a check that no changed file can affect (STEP_INPUTS), and runs the tests
 * without the docs suite when nothing the published reference is built from changed; the summary
 * says what was skipped and why. When the changed files are unknown, or with --all, everything runs.
 * The tests run alongside the other checks, which run one at a time (two lanes on two cores); every
 * check runs even when another fails. One Markdown summary is printed to stdout at the end (and
 * appended to $GITHUB_STEP_SUMMARY when set); each check's own output goes to stderr in one piece.
 * Exit code 1 when any check failed, 0 otherwise, 2 on bad usage.
 *
 * Default base: the merge base with origin/main when that ref exists, else HEAD~1, else the
 * breaking check is skipped with a note. Intended breaking changes pass only through a reviewed
 * marker: a major bump of info.version, or an entry in spec/BREAKING.md (see that file's header).
 */
import { execFile, spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import {
  isMain,
  parseCommandLine,
  REPO_ROOT,
  usageError,
  UsageError,
  type CommandSpec,
} from "../../contract-core/index.js";
import { type Change, type Report, InputError, compareSpecFiles, markdownTable, operationKey } from "./breaking.js";
import type { TypedLintOutcome } from "../lint/typed-lint.js";
import { selectTests } from "./test-selection.js";
import { TS_VISIBLE, sameForTypeScript } from "./type-identity.js";

const run = promisify(execFile);

export const STEPS = ["lint", "drift", "breaking", "typecheck", "tests"] as const;
export type StepName = (typeof STEPS)[number];
type CommandStep = Exclude<StepName, "breaking">;

const TITLES: Record<StepName, string> = {
  lint: "Lint",
  drift: "Drift (generated files up to date)",
  breaking: "Breaking changes",
  typecheck: "Typecheck",
  tests: "Tests",
};

export const DEFAULT_COMMANDS: Record<CommandStep, string[]> = {
  lint: ["npm", "run", "--silent", "lint"],
  drift: ["npm", "run", "--silent", "check:generated"],
  typecheck: ["npm", "run", "--silent", "typecheck"],
  tests: ["npx", "vitest", "run"],
};

/**
 * Set for the tests when this run's typecheck covers the whole project (run, or skipped because no input
 * changed): vitest.config.ts then leaves out its own tsc pass over the *.test-d.ts files, which tsc checks too.
 */
export const TYPECHECK_SHARED_ENV = "TG_TYPECHECK_SHARED";

/**
 * Test files the tests leave out, one glob per line, read by vitest.config.ts into every project's exclude
 * (vitest's own --exclude reaches only the root configuration, not the projects that hold the tests).
 */
export const TEST_EXCLUDE_ENV = "TG_TEST_EXCLUDE";

/**
 * Node's on-disk cache of compiled code, shared by every Node process the checks start (npm scripts,
 * vitest's workers and the processes the tests start): the same files are compiled again in each process
 * otherwise. Node checks each entry against the file's contents, so a stale entry is never used. It lives in
 * this project's node_modules, never in the repository a gate runs on (a test's scratch repository stays clean).
 */
export const COMPILE_CACHE_DIR = join(REPO_ROOT, "node_modules", ".cache", "node-compile");

export interface StepResult {
  name: StepName;
  status: "pass" | "fail" | "skip";
  ms: number;
  /** One line shown in the result column. */
  note?: string;
  /** Tail of the check's output, shown for failed command checks. */
  output?: string;
}

/**
 * What each check reads: `dir/` (everything under it), `*.ext` (any file with that extension), `*` (any
 * file) or an exact path. A change outside a check's inputs cannot change its verdict, so the check is
 * skipped. ALWAYS_AFFECTED files (toolchain, configuration, CI) count as inputs of every check.
 */
export const STEP_INPUTS: Record<StepName, readonly string[]> = {
  // Redocly and Spectral on the spec and the workflows, then Prettier and ESLint over the whole tree: any file
  // can break the formatting check.
  lint: ["*"],
  // Everything `npm run generate` reads or writes.
  drift: [
    "spec/",
    "generated/",
    "scripts/generate.ts",
    "scripts/check-generated.ts",
    "scripts/examples-list.ts",
    "scripts/breaking/",
    "contract-core/",
    "mocks/prism/EXAMPLES.md",
    "redocly.yaml",
  ],
  // The spec at the base and at the head, the marker file (under spec/) and the detector itself.
  breaking: ["spec/", "scripts/breaking/", "contract-core/"],
  // TypeScript sources and declarations, and JSON modules they may import.
  typecheck: ["*.ts", "*.mts", "*.cts", "*.tsx", "*.json"],
  // Tests read code, fixtures, READMEs and the spec: any change can affect them.
  tests: ["*"],
};

/** The docs suite (a browser on the built reference) runs only when what the reference is built from changed. */
export const DOCS_SUITE = {
  glob: "scripts/docs/**",
  inputs: ["spec/", "generated/", "scripts/docs/", "client/", "contract-core/", "examples/"] as readonly string[],
};

export const ALWAYS_AFFECTED: readonly string[] = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "vitest.config.ts",
  "eslint.config.js",
  ".prettierrc.json",
  ".prettierignore",
  ".github/",
  ".ci/",
];

/**
 * Files, wherever they are, that configure how Prettier, ESLint or TypeScript read other files (a nested
 * package.json sets the module kind; Prettier also honours .gitignore): a change to one lints and typechecks
 * the whole tree.
 */
const TOOL_CONFIG =
  /(?:^|\/)(?:\.prettierrc[^/]*|prettier\.config\.[^/]+|\.editorconfig|\.gitignore|eslint\.config\.[^/]+|\.eslintrc[^/]*|tsconfig[^/]*\.json|package\.json)$/;

export function matchesInput(file: string, input: string): boolean {
  if (input === "*") return true;
  if (input.startsWith("*.")) return file.endsWith(input.slice(1));
  return input.endsWith("/") ? file.startsWith(input) : file === input;
}

export interface StepPlan {
  /** Checks to run, in STEPS order. */
  run: StepName[];
  /** Checks skipped, with the reason shown in the summary. */
  skipped: Partial<Record<StepName, string>>;
  /** Why the tests run without the docs suite; undefined when they run whole. */
  docsSkipped?: string;
  /**
   * Lint only these files with Prettier and ESLint (the spec is linted whole), ESLint on the whole tree when
   * `eslintAll`; undefined when the code linters run on the whole tree.
   */
  lint?: { files: string[]; eslintAll: boolean; note: string };
}

/**
 * Which checks `changed` (paths relative to the repository root, `/`-separated) can affect. Without the
 * list (unknown changes) every check runs whole.
 */
export function planSteps(changed: readonly string[] | undefined, sameTypes?: ReadonlySet<string>): StepPlan {
  const plan: StepPlan = { run: [], skipped: {} };
  if (changed === undefined || changed.some((f) => ALWAYS_AFFECTED.some((a) => matchesInput(f, a))))
    return { ...plan, run: [...STEPS] };
  const count = `${changed.length} changed file${changed.length === 1 ? "" : "s"}`;
  for (const name of STEPS) {
    if (changed.some((f) => STEP_INPUTS[name].some((i) => matchesInput(f, i)))) plan.run.push(name);
    else
      plan.skipped[name] =
        changed.length === 0
          ? "no file changed since the base"
          : `none of the ${count} is an input (${STEP_INPUTS[name].join(", ")})`;
  }
  if (plan.run.includes("tests") && !changed.some((f) => DOCS_SUITE.inputs.some((i) => matchesInput(f, i)))) {
    plan.docsSkipped = `docs suite (${DOCS_SUITE.glob}) not run: no change under ${DOCS_SUITE.inputs.join(", ")}`;
  }
  if (sameTypes === undefined || changed.some((f) => TOOL_CONFIG.test(f))) return plan;
  // What TypeScript sees of the changed files; proven the same at the base and here, it cannot change a verdict
  // of tsc or of ESLint's type-aware rules on any other file.
  const typed = changed.filter((f) => TS_VISIBLE.test(f));
  const retyped = typed.filter((f) => !sameTypes.has(f));
  if (plan.run.includes("typecheck") && retyped.length === 0) {
    plan.run = plan.run.filter((n) => n !== "typecheck");
    plan.skipped.typecheck = `the ${typed.length} changed file${typed.length === 1 ? "" : "s"} it reads differ only in comments or string values: the same types (${typed.join(", ")})`;
  }
  if (plan.run.includes("lint")) {
    const eslintAll = retyped.length > 0;
    plan.lint = {
      files: [...changed],
      eslintAll,
      note: `Prettier${eslintAll ? "" : " and ESLint"} on the ${count} only${eslintAll ? `; ESLint on the whole tree (types changed in ${retyped.length} file${retyped.length === 1 ? "" : "s"})` : ""}`,
    };
  }
  return plan;
}

/**
 * The changed files TypeScript can see (sources, declarations, JSON) whose base and working-tree versions
 * give it the same types (see type-identity.ts). A file git cannot show counts as changed.
 */
export async function sameTypedFiles(cwd: string, base: string, changed: readonly string[]): Promise<Set<string>> {
  const same = new Set<string>();
  for (const file of changed.filter((f) => TS_VISIBLE.test(f))) {
    const before = await gitShow(cwd, base, file);
    if (before === null) continue;
    const after = await readFile(join(cwd, file), "utf8").catch(() => undefined);
    if (sameForTypeScript(file, before, after)) same.add(file);
  }
  return same;
}

/** The test files vitest runs (every `*.test.ts` outside node_modules/ and dist/) that exist in the working tree. */
async function testFilesOf(cwd: string): Promise<string[]> {
  const listed = await git(cwd, "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.test.ts");
  const files = (listed ?? "").split("\n").filter((f) => f && !/^(?:node_modules|dist)\//.test(f));
  const present = await Promise.all(files.map((f) => exists(join(cwd, f))));
  return files.filter((_, i) => present[i]);
}

/** Files changed between `base` and the working tree (committed, staged, unstaged, untracked); undefined when git cannot tell. */
export async function changedFiles(cwd: string, base: string): Promise<string[] | undefined> {
  const diff = await git(cwd, "diff", "--name-only", "--no-renames", base, "--");
  const untracked = await git(cwd, "ls-files", "--others", "--exclude-standard");
  if (diff === undefined || untracked === undefined) return undefined;
  return [...new Set([...diff.split("\n"), ...untracked.split("\n")].filter(Boolean))].sort();
}

export interface GateOptions {
  /** Repository root (default: process.cwd()). */
  cwd?: string;
  /** Git ref of the base spec (default: merge base with origin/main, else HEAD~1). */
  base?: string;
  /** Run only these checks (the others are reported as not run); they run whole, whatever changed. */
  only?: StepName[];
  /** Run every check whole, whatever changed. */
  all?: boolean;
  /** Run Optic as a cross-check in the breaking step (default true). */
  optic?: boolean;
  specRoot?: string;
  markerFile?: string;
  /** Override the command of a command check (argv, run without a shell). */
  commands?: Partial<Record<CommandStep, string[]>>;
  /** Sink for the checks' own output (default: stderr). */
  log?: (text: string) => void;
}

export interface GateResult {
  ok: boolean;
  steps: StepResult[];
  breaking?: BreakingOutcome;
  markdown: string;
}

// ---------------------------------------------------------------------------
// Markers: spec/BREAKING.md entries and major version bumps
// ---------------------------------------------------------------------------

export interface MarkerEntry {
  line: number;
  rule: string;
  operation: string;
  location: string;
  reason: string;
}

const PLACEHOLDER = "<why this is intended";
const ENTRY_FORMAT = "- `<rule>` `<operationId | METHOD /path | *>` `<location | #/components/... pointer>` <reason>";

/**
 * Parses the list items under the "## Entries" heading of spec/BREAKING.md. Each item holds three
 * code spans (rule, operation, location) followed by a non-empty reason. Malformed items are errors,
 * so that a typo never silently fails to mark (or silently marks) a change.
 */
export function parseMarkers(text: string): { entries: MarkerEntry[]; errors: string[] } {
  const entries: MarkerEntry[] = [];
  const errors: string[] = [];
  let inEntries = false;
  let inFence = false;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) return;
    if (/^##\s/.test(line)) inEntries = /^##\s+Entries\s*$/i.test(line);
    if (!inEntries || !/^\s*[-*]\s/.test(line)) return;
    const spans = [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
    const last = line.lastIndexOf("`");
    const reason = line
      .slice(last + 1)
      .replace(/^[\s—–:-]+/, "")
      .trim();
    const [rule, operation, location] = spans;
    if (
      spans.length !== 3 ||
      !rule ||
      !operation ||
      location === undefined ||
      !(location.startsWith("/") || location.startsWith("#/") || location === "(operation)")
    ) {
      errors.push(`line ${i + 1}: expected ${ENTRY_FORMAT}`);
    } else if (reason === "" || reason.startsWith(PLACEHOLDER)) {
      errors.push(`line ${i + 1}: the entry needs a reason after the location (replace the placeholder)`);
    } else {
      entries.push({ line: i + 1, rule, operation, location: location === "(operation)" ? "" : location, reason });
    }
  });
  return { entries, errors };
}

/** The precise matching rule: same rule id, same operation, same location (or same component pointer). */
export function markerMatches(entry: MarkerEntry, change: Change): boolean {
  const operation =
    entry.operation === "*" ||
    entry.operation === change.operationId ||
    operationKey(entry.operation) === operationKey(change.operation);
  const location = entry.location.startsWith("#/")
    ? entry.location === change.component
    : entry.location === change.location;
  return entry.rule === change.rule && operation && location;
}

export function markerLine(change: Change): string {
  const operation = change.operationId ?? change.operation;
  return `- \`${change.rule}\` \`${operation}\` \`${change.location || "(operation)"}\` — ${PLACEHOLDER}, PR link>`;
}

/** Ready-to-paste entries: one per change, or one `*` component entry when a component change shows up in several places. */
export function markerLines(changes: Change[]): string[] {
  const byComponent = new Map<string, Change[]>();
  for (const c of changes)
    if (c.component)
      byComponent.set(`${c.rule} ${c.component}`, [...(byComponent.get(`${c.rule} ${c.component}`) ?? []), c]);
  const lines: string[] = [];
  for (const c of changes) {
    const group = c.component ? (byComponent.get(`${c.rule} ${c.component}`) ?? []) : [];
    if (group.length < 2) lines.push(markerLine(c));
    else if (group[0] === c) lines.push(`- \`${c.rule}\` \`*\` \`${c.component}\` — ${PLACEHOLDER}, PR link>`);
  }
  return lines;
}

/** Splits breaking changes into those a marker accepts (a BREAKING.md entry first, else a major bump) and the blocking rest. */
export function applyMarkers(
  breaking: Change[],
  entries: MarkerEntry[],
  majorBump: boolean,
  markerFile = "spec/BREAKING.md",
) {
  const accepted: { change: Change; by: string }[] = [];
  const blocking: Change[] = [];
  const used = new Set<MarkerEntry>();
  for (const change of breaking) {
    const entry = entries.find((e) => markerMatches(e, change));
    if (entry) used.add(entry);
    if (entry) accepted.push({ change, by: `${markerFile} line ${entry.line}` });
    else if (majorBump) accepted.push({ change, by: "major version bump" });
    else blocking.push(change);
  }
  return { accepted, blocking, unused: entries.filter((e) => !used.has(e)) };
}

const major = (version: unknown): number | undefined => {
  const m = typeof version === "string" ? /^v?(\d+)(\.|$)/.exec(version.trim()) : null;
  return m ? Number(m[1]) : undefined;
};

export function isMajorBump(baseVersion: unknown, headVersion: unknown): boolean {
  const b = major(baseVersion);
  const h = major(headVersion);
  return b !== undefined && h !== undefined && h > b;
}

// ---------------------------------------------------------------------------
// Git helpers
// ---------------------------------------------------------------------------

async function git(cwd: string, ...args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run("git", args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** A file's text at `ref`; undefined when it does not exist there, null when git fails otherwise. */
async function gitShow(cwd: string, ref: string, file: string): Promise<string | undefined | null> {
  if ((await git(cwd, "cat-file", "-e", `${ref}:${file}`)) === undefined) return undefined;
  try {
    const { stdout } = await run("git", ["show", `${ref}:${file}`], { cwd, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

const commitOf = (cwd: string, ref: string) => git(cwd, "rev-parse", "--verify", "--quiet", `${ref}^{commit}`);

export interface BaseRef {
  label: string;
  sha: string;
}

/** The base commit: the given ref, else the merge base with origin/main, else HEAD~1, else a skip note. */
export async function resolveBase(cwd: string, ref?: string): Promise<BaseRef | { skip: string } | { error: string }> {
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

// ---------------------------------------------------------------------------
// The breaking step
// ---------------------------------------------------------------------------

export interface BreakingOutcome {
  base?: BaseRef;
  report?: Report;
  /** Breaking changes not covered by a marker: they fail the gate. */
  blocking: Change[];
  /** Breaking changes covered by a marker, with the marker that covers them. */
  accepted: { change: Change; by: string }[];
  notes: string[];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

type ResolvedOptions = GateOptions & { cwd: string; specRoot: string; markerFile: string };

type ResolvedBase = Awaited<ReturnType<typeof resolveBase>>;

async function breakingStep(
  opts: ResolvedOptions,
  base: ResolvedBase,
): Promise<{ result: Omit<StepResult, "ms">; outcome: BreakingOutcome }> {
  const outcome: BreakingOutcome = { blocking: [], accepted: [], notes: [] };
  const done = (status: StepResult["status"], note: string) => ({
    result: { name: "breaking" as const, status, note },
    outcome,
  });
  if ("skip" in base) return done("skip", base.skip);
  if ("error" in base) return done("fail", base.error);
  outcome.base = base;
  const short = base.sha.slice(0, 7);
  if ((await git(opts.cwd, "cat-file", "-e", `${base.sha}:${opts.specRoot}`)) === undefined) {
    return done("skip", `${opts.specRoot} does not exist at ${base.label} (${short}): nothing to compare`);
  }
  const headRoot = join(opts.cwd, opts.specRoot);
  if (!(await exists(headRoot))) return done("fail", `${opts.specRoot} is missing from the working tree`);

  const work = await mkdtemp(join(tmpdir(), "gate-base-"));
  try {
    const tar = join(work, "base.tar");
    await run("git", ["archive", "--format=tar", "-o", tar, base.sha, "--", dirname(opts.specRoot)], { cwd: opts.cwd });
    await run("tar", ["-xf", tar, "-C", work]);
    let report: Report;
    try {
      report = await compareSpecFiles(join(work, opts.specRoot), headRoot, { optic: opts.optic ?? true });
    } catch (e) {
      if (e instanceof InputError) return done("fail", e.message.replaceAll(work, `<${base.label}>`));
      throw e;
    }
    outcome.report = report;
    outcome.notes.push(...report.notes);

    const markerPath = join(opts.cwd, opts.markerFile);
    const markers = (await exists(markerPath))
      ? parseMarkers(await readFile(markerPath, "utf8"))
      : { entries: [], errors: [] };
    if (markers.errors.length > 0) {
      outcome.notes.push(...markers.errors.map((e) => `${opts.markerFile} ${e}`));
      outcome.blocking = report.breaking;
      return done("fail", `${opts.markerFile} has malformed entries`);
    }
    const version = (doc: Record<string, unknown>) => (doc.info as { version?: unknown } | undefined)?.version;
    const applied = applyMarkers(
      report.breaking,
      markers.entries,
      isMajorBump(version(report.base.doc), version(report.head.doc)),
      opts.markerFile,
    );
    Object.assign(outcome, { blocking: applied.blocking, accepted: applied.accepted });
    for (const e of applied.unused)
      outcome.notes.push(
        `${opts.markerFile} line ${e.line} matches no change in this comparison (remove it once released).`,
      );
    const counts = `${report.breaking.length} breaking, ${report.nonBreaking.length} non-breaking vs ${base.label} (${short})`;
    if (outcome.blocking.length > 0)
      return done("fail", `${outcome.blocking.length} unmarked breaking change(s); ${counts}`);
    return done(
      "pass",
      outcome.accepted.length > 0 ? `${counts}; ${outcome.accepted.length} accepted by a reviewed marker` : counts,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Command steps
// ---------------------------------------------------------------------------

function commandStep(
  name: CommandStep,
  argv: string[],
  cwd: string,
  log: (t: string) => void,
  env: NodeJS.ProcessEnv = {},
): Promise<Omit<StepResult, "ms">> {
  const [cmd = "", ...args] = argv;
  return new Promise((done) => {
    let tail = "";
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      log(text);
      tail = (tail + text).slice(-16_000);
    };
    const child = spawn(cmd, args, {
      cwd,
      env: { NODE_COMPILE_CACHE: COMPILE_CACHE_DIR, ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (e) => done({ name, status: "fail", note: `could not start ${cmd}: ${e.message}` }));
    child.on("close", (code, signal) => {
      const output = tail.split("\n").slice(-40).join("\n").trim();
      if (code === 0) done({ name, status: "pass" });
      else done({ name, status: "fail", note: signal ? `killed by ${signal}` : `exit code ${code}`, output });
    });
  });
}

// ---------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const ICON = { pass: "✔", fail: "✘", skip: "–" } as const;
const WORD = { pass: "passed", fail: "failed", skip: "skipped" } as const;

export function renderSummary(steps: StepResult[], breaking: BreakingOutcome | undefined, totalMs: number): string {
  const ok = steps.every((s) => s.status !== "fail");
  const out: string[] = [
    `## Contract gate: ${ok ? "✔ passed" : "✘ failed"}`,
    "",
    "| Check | Result | Time |",
    "|---|---|---|",
  ];
  for (const s of steps) {
    const note = s.note ? `: ${s.note.replaceAll("|", "\\|").replaceAll("\n", " ")}` : "";
    out.push(
      `| ${ICON[s.status]} ${TITLES[s.name]} | ${WORD[s.status]}${note} | ${s.status === "skip" && s.ms === 0 ? "—" : seconds(s.ms)} |`,
    );
  }
  if (breaking?.report) {
    const { blocking, accepted, report } = breaking;
    if (blocking.length > 0) {
      out.push("", `### ✘ Breaking changes (${blocking.length})`, "", markdownTable(blocking));
      out.push(
        "",
        "An intended breaking change passes only through a reviewed marker: bump the major of `info.version`, or add the matching line under `## Entries` in `spec/BREAKING.md`:",
        "",
        "```markdown",
        ...markerLines(blocking),
        "```",
      );
    }
    if (accepted.length > 0) {
      const by = new Map(accepted.map((a) => [a.change, a.by]));
      out.push(
        "",
        `### ✔ Accepted breaking changes (${accepted.length})`,
        "",
        markdownTable(
          accepted.map((a) => a.change),
          (c) => by.get(c) ?? "",
        ),
      );
    }
    if (report.nonBreaking.length > 0) {
      out.push(
        "",
        `<details><summary>Non-breaking changes (${report.nonBreaking.length})</summary>`,
        "",
        markdownTable(report.nonBreaking),
        "",
        "</details>",
      );
    }
  }
  if (breaking && breaking.notes.length > 0) out.push("", "### Notes", "", ...breaking.notes.map((n) => `- ${n}`));
  for (const s of steps.filter((x) => x.status === "fail" && x.output)) {
    out.push(
      "",
      `<details><summary>✘ ${TITLES[s.name]}: last lines of output</summary>`,
      "",
      "```text",
      s.output ?? "",
      "```",
      "",
      "</details>",
    );
  }
  out.push("", `Total ${seconds(totalMs)} · Node ${process.version}`);
  return out.join("\n");
}

// ---------------------------------------------------------------------------
// Running the gate
// ---------------------------------------------------------------------------

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the lint command's --typecheck-report holds (scripts/lint/lint.ts writes typedLint's outcome). */
type TypecheckReport = NonNullable<TypedLintOutcome["tsc"]>;

/**
 * The Typecheck check's result from the typecheck the Lint check ran (once it is done); undefined when the
 * lint command wrote no report (it failed before typechecking, or is not the project's): then tsc runs itself.
 */
async function typecheckFromLint(
  shared: { report: string; lintDone: { promise: Promise<void> } },
  log: (t: string) => void,
): Promise<StepResult | undefined> {
  await shared.lintDone.promise;
  let report: Partial<TypecheckReport> | undefined;
  try {
    report = JSON.parse(await readFile(shared.report, "utf8")) as Partial<TypecheckReport>;
  } catch {
    // No file, or one cut short: no report.
  }
  if (typeof report?.problems !== "number" || typeof report.ms !== "number") {
    log("The Lint check wrote no typecheck report: tsc runs on its own.\n");
    return undefined;
  }
  const summary = `tsc --noEmit: ${report.problems} error${report.problems === 1 ? "" : "s"} in the project's ${report.files} files`;
  log(`${report.text ? `${report.text}\n` : ""}${report.problems ? "✘" : "✔"} ${summary}\n`);
  return {
    name: "typecheck",
    status: report.problems ? "fail" : "pass",
    ms: report.ms,
    note: `${report.problems ? `${summary}; ` : ""}checked in the Lint check, on the one TypeScript program its ESLint then used (this time is part of Lint's)`,
    ...(report.problems ? { output: (report.text ?? "").split("\n").slice(-40).join("\n") } : {}),
  };
}

/** Runs `tasks` at most `limit` at a time, in order; resolves when all are done. */
async function inLanes(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

export async function runGate(options: GateOptions = {}): Promise<GateResult> {
  const opts: ResolvedOptions = {
    ...options,
    cwd: resolve(options.cwd ?? process.cwd()),
    specRoot: options.specRoot ?? "spec/openapi.yaml",
    markerFile: options.markerFile ?? "spec/BREAKING.md",
  };
  const log = options.log ?? ((t: string) => void process.stderr.write(t));
  const grouped = process.env.GITHUB_ACTIONS === "true";
  const started = performance.now();
  const base = await resolveBase(opts.cwd, opts.base);
  // --only and --all ask for checks by name: those run whole. Otherwise the changed files decide.
  const explicit = options.all === true || options.only !== undefined;
  const changed = explicit || !("sha" in base) ? undefined : await changedFiles(opts.cwd, base.sha);
  const sameTypes = changed && "sha" in base ? await sameTypedFiles(opts.cwd, base.sha, changed) : undefined;
  const plan: StepPlan = explicit ? { run: [...STEPS], skipped: {} } : planSteps(changed, sameTypes);
  if (!explicit && changed === undefined)
    log(
      `Changed files unknown (${"sha" in base ? "git diff failed" : "skip" in base ? base.skip : base.error}): every check runs.\n`,
    );
  else if (changed !== undefined)
    log(
      `${changed.length} file(s) changed since ${"sha" in base ? `${base.label} (${base.sha.slice(0, 7)})` : "the base"}.\n`,
    );

  const results = new Map<StepName, StepResult>();
  let breaking: BreakingOutcome | undefined;
  const toRun = STEPS.filter((name) => plan.run.includes(name) && (!options.only || options.only.includes(name)));
  // tsc and ESLint's type-aware rules each build the whole TypeScript program: when both checks run, the lint
  // command typechecks too, on the program its ESLint then uses, and writes the outcome the Typecheck check
  // reports (scripts/lint/typed-lint.ts). Lint runs first in its lane; Typecheck waits for it.
  const shared =
    toRun.includes("lint") && toRun.includes("typecheck")
      ? { report: join(await mkdtemp(join(tmpdir(), "gate-typecheck-")), "typecheck.json"), lintDone: deferred() }
      : undefined;
  const step = (name: StepName) => async () => {
    const t0 = performance.now();
    // Each check's output is held and written in one piece, so checks running side by side do not interleave.
    let output = grouped ? `::group::${TITLES[name]}\n` : `\n── ${TITLES[name]} ──\n`;
    const hold = (text: string) => void (output += text);
    // A check that ran inside another one brings its own time.
    let result: Omit<StepResult, "ms"> & { ms?: number };
    if (name === "breaking") {
      const outcome = await breakingStep(opts, base);
      breaking = outcome.outcome;
      result = outcome.result;
      if (outcome.outcome.report)
        hold(
          `${outcome.outcome.report.breaking.length} breaking, ${outcome.outcome.report.nonBreaking.length} non-breaking change(s)\n`,
        );
    } else {
      const argv = [...(options.commands?.[name] ?? DEFAULT_COMMANDS[name])];
      const excluded = name === "tests" && plan.docsSkipped ? [DOCS_SUITE.glob] : [];
      let closedNote: string | undefined;
      if (name === "tests" && !explicit && changed !== undefined) {
        const { skip } = await selectTests(opts.cwd, await testFilesOf(opts.cwd), changed);
        if (skip.length > 0) {
          excluded.push(...skip);
          closedNote = `${skip.length} test file${skip.length === 1 ? "" : "s"} not run: each imports only its own sources and packages that read no file, and none of those changed`;
          hold(`${closedNote}:\n${skip.map((f) => `  ${f}`).join("\n")}\n`);
        }
      }
      // Everything a change can reach may be left out; then there is nothing to run, and that passes.
      if (excluded.length > 0) argv.push("--passWithNoTests");
      const lintArgs =
        name !== "lint"
          ? []
          : [
              ...(shared ? ["--typecheck", "--typecheck-report", shared.report] : []),
              ...(plan.lint ? [...(plan.lint.eslintAll ? ["--eslint-all"] : []), "--", ...plan.lint.files] : []),
            ];
      // npm passes what follows its own `--` to the script; the script's `--` ends its options.
      if (lintArgs.length > 0 && argv[0] === "npm") argv.push("--");
      argv.push(...lintArgs);
      const typesCovered = name === "tests" && (!options.only || options.only.includes("typecheck"));
      const fromLint = name === "typecheck" && shared ? await typecheckFromLint(shared, hold) : undefined;
      result =
        fromLint ??
        (await commandStep(name, argv, opts.cwd, hold, {
          [TYPECHECK_SHARED_ENV]: typesCovered ? "1" : undefined,
          [TEST_EXCLUDE_ENV]: excluded.length > 0 ? excluded.join("\n") : undefined,
        }));
      if (name === "tests" && (plan.docsSkipped || closedNote))
        result = { ...result, note: [result.note, plan.docsSkipped, closedNote].filter(Boolean).join("; ") };
      if (name === "lint" && plan.lint)
        result = { ...result, note: [result.note, plan.lint.note].filter(Boolean).join("; ") };
    }
    if (grouped) output += "::endgroup::\n";
    log(output);
    results.set(name, { ...result, ms: result.ms ?? performance.now() - t0 });
  };
  // The tests take longest and are the critical path: they start first, the other checks share the second lane.
  const order = [...toRun.filter((n) => n === "tests"), ...toRun.filter((n) => n !== "tests")];
  try {
    // Whatever becomes of the Lint check, a Typecheck waiting on it goes on (to run tsc itself, without a report).
    const tasks = order.map((name) => async () => {
      try {
        await step(name)();
      } finally {
        if (name === "lint") shared?.lintDone.resolve();
      }
    });
    await inLanes(tasks, 2);
  } finally {
    if (shared) await rm(dirname(shared.report), { recursive: true, force: true });
  }

  const steps: StepResult[] = STEPS.map((name) => {
    const done = results.get(name);
    if (done) return done;
    if (options.only && !options.only.includes(name))
      return { name, status: "skip", ms: 0, note: "not selected (--only)" };
    return { name, status: "skip", ms: 0, note: plan.skipped[name] ?? "not run" };
  });
  const markdown = renderSummary(steps, breaking, performance.now() - started);
  return { ok: steps.every((s) => s.status !== "fail"), steps, breaking, markdown };
}

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

export const GATE_COMMAND: CommandSpec = {
  name: "npm run gate",
  summary:
    "The PR gate: lint, drift check, breaking changes against a base, typecheck and tests (those the changed files can affect), with a Markdown summary.",
  options: {
    base: {
      type: "string",
      value: "<git ref>",
      description: "compare the spec with this ref (default: merge base with origin/main, else HEAD~1)",
    },
    only: {
      type: "string",
      value: `<${STEPS.join(",")}>`,
      description: "run only these checks (comma list), whatever changed",
    },
    all: { type: "boolean", description: "run every check whole, even those no changed file can affect" },
    "no-optic": { type: "boolean", description: "skip the Optic cross-check in the breaking step" },
  },
};

/** The gate's options; undefined after --help (usage printed); the problem as text on bad usage. */
export function parseArgs(argv: string[]): GateOptions | string | undefined {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(GATE_COMMAND, argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  if (!parsed) return undefined;
  const opts: GateOptions = {};
  const { base, only } = parsed.values;
  if (typeof base === "string") {
    if (!base) return usageError(GATE_COMMAND, "--base needs a git ref").message;
    opts.base = base;
  }
  if (typeof only === "string") {
    const list = only.split(",").filter(Boolean);
    const bad = list.filter((s) => !(STEPS as readonly string[]).includes(s));
    if (list.length === 0 || bad.length > 0)
      return usageError(GATE_COMMAND, `--only takes a comma list of ${STEPS.join(", ")}`).message;
    opts.only = list as StepName[];
  }
  if (parsed.values.all === true) opts.all = true;
  if (parsed.values["no-optic"] === true) opts.optic = false;
  return opts;
}

export async function main(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (opts === undefined) return 0;
  if (typeof opts === "string") {
    console.error(opts);
    return 2;
  }
  const result = await runGate(opts);
  process.stdout.write(`${result.markdown}\n`);
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, `${result.markdown}\n`);
  return result.ok ? 0 : 1;
}

if (isMain(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
