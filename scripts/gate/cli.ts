/**
 * `npm run gate`: runs every check of the pull-request gate (README.md) and prints one Markdown summary of what
 * each found, also appended to $GITHUB_STEP_SUMMARY when set. Exit code 1 when a check failed.
 */
import { randomUUID } from "node:crypto";
import { appendFile } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type CliValues,
  type CommandSpec,
  isMain,
  parseCommandLine,
  runCommand,
  usageError,
} from "../../contract-core/index.js";
import { type BreakingOutcome, breakingCheck, resolveBase } from "./breaking-check.js";
import { changelogSection } from "./changelog-entry.js";
import { type CommandCheck, COMMANDS, runCheck } from "./checks.js";
import { consumersCheck } from "./consumers-check.js";
import { coverageCheck } from "./coverage-check.js";
import { releaseCheck } from "./release-check.js";
import { traceCheck } from "./trace-check.js";
import { type CheckName, type StepResult, CHECKS, TITLES, renderSummary } from "./summary.js";

export interface GateOptions {
  /** Repository root (default: process.cwd()). */
  cwd?: string;
  /** Git ref of the base spec (default: merge base with origin/main, else HEAD~1). */
  base?: string;
  /** Run only these checks (the others show as not selected). */
  only?: CheckName[];
  /** Replace the command of a command check (argv, run without a shell). */
  commands?: Partial<Record<CommandCheck, string[]>>;
  /** Check these consumer contract files instead of those in consumers/. */
  consumers?: string[];
  /** Where the checks' output goes (default: stderr). */
  log?: (text: string) => void;
}

export interface GateResult {
  ok: boolean;
  steps: StepResult[];
  /** The summary for the console. */
  markdown: string;
  /** The summary for the job's step summary: with the last lines of each failed check's output. */
  stepSummary: string;
}

/**
 * Text for the Actions log with workflow commands off (`::stop-commands::<token>` ... `::<token>::`): a line of a
 * check's output or of the summary that starts with `::` (a spec text, a commit subject) is printed, not obeyed.
 */
export function inert(text: string, token = randomUUID()): string {
  return `::stop-commands::${token}\n${text.endsWith("\n") ? text : `${text}\n`}::${token}::\n`;
}

export async function runGate(options: GateOptions = {}): Promise<GateResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const log = options.log ?? ((t: string) => void process.stderr.write(t));
  const grouped = process.env.GITHUB_ACTIONS === "true";
  const started = performance.now();
  const results = new Map<CheckName, StepResult>();
  let breaking: BreakingOutcome | undefined;

  const check = async (name: CheckName) => {
    const t0 = performance.now();
    let result: Omit<StepResult, "ms">;
    if (name === "breaking") {
      breaking = await breakingCheck({ cwd, base: await resolveBase(cwd, options.base) });
      result = { name, status: breaking.status, note: breaking.note };
    } else if (name === "release") {
      const { status, note, details } = await releaseCheck(cwd, await resolveBase(cwd, options.base));
      result = { name, status, note, details };
    } else if (name === "coverage") {
      const coverage = await coverageCheck(cwd, await resolveBase(cwd, options.base));
      const { status, note, output, details, markdown } = coverage;
      result = {
        name,
        status,
        note,
        output,
        ...(details ? { details } : {}),
        ...(markdown ? { section: markdown } : {}),
      };
    } else if (name === "consumers") {
      const { status, note, output, details, markdown } = await consumersCheck(cwd, { files: options.consumers });
      result = { name, status, note, output, details, ...(markdown ? { section: markdown } : {}) };
    } else if (name === "trace") {
      const trace = await traceCheck(cwd, await resolveBase(cwd, options.base));
      const section = trace.markdown
        ? `Statements of the reference to re-read:\n\n${trace.markdown.trimEnd()}`
        : undefined;
      result = { name, status: trace.status, note: trace.note, output: trace.output, ...(section ? { section } : {}) };
    } else {
      const { status, note, output, details } = await runCheck(name, options.commands?.[name] ?? COMMANDS[name], cwd);
      result = { name, status, note, output, details };
    }
    const body = `${result.output?.trimEnd() || result.note}\n`;
    log(grouped ? `::group::${TITLES[name]}\n${inert(body)}::endgroup::\n` : `\n── ${TITLES[name]} ──\n${body}`);
    results.set(name, { ...result, ms: performance.now() - t0 });
  };
  const inTurn = async (names: CheckName[]) => {
    for (const name of names) await check(name);
  };
  const selected = CHECKS.filter((name) => !options.only || options.only.includes(name));
  // Two lanes on two cores: the tests, the longest check, then coverage (which reads what the tests logged),
  // beside the others in turn.
  const testLane = (n: CheckName) => n === "tests" || n === "coverage";
  await Promise.all([inTurn(selected.filter(testLane)), inTurn(selected.filter((n) => !testLane(n)))]);

  const steps = CHECKS.map(
    (name): StepResult => results.get(name) ?? { name, status: "skip", ms: 0, note: "not selected (--only)" },
  );
  // The changelog entries the pull request adds, beside the breaking check that compares the same base.
  const changelog = selected.includes("breaking")
    ? await changelogSection(cwd, await resolveBase(cwd, options.base))
    : undefined;
  const withChangelog = (summary: string) => (changelog ? `${summary}\n\n${changelog}` : summary);
  const totalMs = performance.now() - started;
  return {
    ok: steps.every((s) => s.status !== "fail"),
    steps,
    markdown: withChangelog(renderSummary(steps, breaking, totalMs, false)),
    stepSummary: withChangelog(renderSummary(steps, breaking, totalMs, true)),
  };
}

export const GATE_COMMAND: CommandSpec = {
  name: "npm run gate",
  summary:
    "The PR gate: lint, drift check, breaking changes against a base, typecheck, tests, contract coverage and the trace of the reference, with a Markdown summary of what each found.",
  options: {
    base: {
      type: "string",
      value: "<git ref>",
      description: "compare the spec with this ref (default: merge base with origin/main, else HEAD~1)",
    },
    only: { type: "string", value: `<${CHECKS.join(",")}>`, description: "run only these checks (comma list)" },
    consumers: {
      type: "string",
      value: "<file>",
      description: "check this consumer contract against the spec instead of consumers/ (alone unless --only)",
    },
  },
};

/** The gate's options; undefined after --help (usage printed); throws UsageError on bad usage. */
export function parseArgs(argv: string[], out?: (text: string) => void): GateOptions | undefined {
  const parsed = parseCommandLine(GATE_COMMAND, argv, process.env, out);
  return parsed && gateOptions(parsed.values);
}

function gateOptions({ base, only, consumers }: CliValues): GateOptions {
  const opts: GateOptions = {};
  if (typeof base === "string") {
    if (!base) throw usageError(GATE_COMMAND, "--base needs a git ref");
    opts.base = base;
  }
  if (typeof only === "string") {
    const list = only.split(",").filter(Boolean);
    if (list.length === 0 || list.some((s) => !(CHECKS as readonly string[]).includes(s)))
      throw usageError(GATE_COMMAND, `--only takes a comma list of ${CHECKS.join(", ")}`);
    opts.only = list as CheckName[];
  }
  if (typeof consumers === "string") {
    if (!consumers) throw usageError(GATE_COMMAND, "--consumers needs a consumer contract file");
    opts.consumers = [consumers];
    // A consumer's own check of its contract against this spec: the other checks only when --only asks.
    opts.only ??= ["consumers"];
  }
  return opts;
}

if (isMain(import.meta.url))
  await runCommand(GATE_COMMAND, async ({ values }) => {
    const result = await runGate(gateOptions(values));
    const summary = `${result.markdown}\n`;
    process.stdout.write(process.env.GITHUB_ACTIONS === "true" ? inert(summary) : summary);
    const stepSummary = process.env.GITHUB_STEP_SUMMARY;
    if (stepSummary) await appendFile(stepSummary, `${result.stepSummary}\n`);
    return result.ok ? 0 : 1;
  });
