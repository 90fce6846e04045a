/**
 * The pull-request contract gate.
 *
 *   npm run gate -- [--base <git-ref>] [--only lint,drift,breaking,typecheck,tests,coverage] [--no-optic]
 *
 * Runs every check: lint, the drift check of generated/, breaking changes of the working tree's spec against
 * the spec at the base, typecheck, tests, and contract coverage against the base's (after the tests, whose
 * sandbox suite logs its evidence). The tests and coverage run alongside the other checks, which run one after
 * another; each check's output goes to stderr in one piece when it ends. One Markdown summary, saying what
 * each check found, goes to stdout at the end (and, with the last lines of each failed check's output, to
 * $GITHUB_STEP_SUMMARY when set). Exit code 1 when a check failed, 0 otherwise, 2 on bad usage.
 */
import { appendFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isMain, parseCommandLine, usageError, UsageError, type CommandSpec } from "../../contract-core/index.js";
import { type BreakingOutcome, breakingCheck, resolveBase } from "./breaking-check.js";
import { type CommandCheck, COMMANDS, runCheck } from "./checks.js";
import { type CoverageOutcome, coverageCheck } from "./coverage-check.js";
import { type CheckName, type StepResult, CHECKS, TITLES, renderSummary } from "./summary.js";

export interface GateOptions {
  /** Repository root (default: process.cwd()). */
  cwd?: string;
  /** Git ref of the base spec (default: merge base with origin/main, else HEAD~1). */
  base?: string;
  /** Run only these checks (the others show as not selected). */
  only?: CheckName[];
  /** Run Optic as a cross-check in the breaking check (default true). */
  optic?: boolean;
  /** Replace the command of a command check (argv, run without a shell). */
  commands?: Partial<Record<CommandCheck, string[]>>;
  /** Where the checks' output goes (default: stderr). */
  log?: (text: string) => void;
}

export interface GateResult {
  ok: boolean;
  steps: StepResult[];
  breaking?: BreakingOutcome;
  coverage?: CoverageOutcome;
  /** The summary for the console. */
  markdown: string;
  /** The summary for the job's step summary: with the last lines of each failed check's output. */
  stepSummary: string;
}

export async function runGate(options: GateOptions = {}): Promise<GateResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const log = options.log ?? ((t: string) => void process.stderr.write(t));
  const grouped = process.env.GITHUB_ACTIONS === "true";
  const started = performance.now();
  const results = new Map<CheckName, StepResult>();
  let breaking: BreakingOutcome | undefined;
  let coverage: CoverageOutcome | undefined;

  const check = async (name: CheckName) => {
    const t0 = performance.now();
    let result: Omit<StepResult, "ms">;
    if (name === "breaking") {
      breaking = await breakingCheck({ cwd, base: await resolveBase(cwd, options.base), optic: options.optic });
      result = { name, status: breaking.status, note: breaking.note };
    } else if (name === "coverage") {
      coverage = await coverageCheck(cwd, await resolveBase(cwd, options.base));
      result = { name, status: coverage.status, note: coverage.note, output: coverage.output };
    } else {
      const { status, note, output } = await runCheck(name, options.commands?.[name] ?? COMMANDS[name], cwd);
      result = { name, status, note, output };
    }
    const body = `${result.output?.trimEnd() || result.note}\n`;
    log(grouped ? `::group::${TITLES[name]}\n${body}::endgroup::\n` : `\n── ${TITLES[name]} ──\n${body}`);
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
  const totalMs = performance.now() - started;
  return {
    ok: steps.every((s) => s.status !== "fail"),
    steps,
    breaking,
    coverage,
    markdown: renderSummary(steps, breaking, totalMs, false, coverage),
    stepSummary: renderSummary(steps, breaking, totalMs, true, coverage),
  };
}

export const GATE_COMMAND: CommandSpec = {
  name: "npm run gate",
  summary:
    "The PR gate: lint, drift check, breaking changes against a base, typecheck, tests and contract coverage, with a Markdown summary of what each found.",
  options: {
    base: {
      type: "string",
      value: "<git ref>",
      description: "compare the spec with this ref (default: merge base with origin/main, else HEAD~1)",
    },
    only: { type: "string", value: `<${CHECKS.join(",")}>`, description: "run only these checks (comma list)" },
    "no-optic": { type: "boolean", description: "skip the Optic cross-check in the breaking check" },
  },
};

/** The gate's options; undefined after --help (usage printed); throws UsageError on bad usage. */
export function parseArgs(argv: string[], out?: (text: string) => void): GateOptions | undefined {
  const parsed = parseCommandLine(GATE_COMMAND, argv, process.env, out);
  if (!parsed) return undefined;
  const opts: GateOptions = {};
  const { base, only } = parsed.values;
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
  if (parsed.values["no-optic"] === true) opts.optic = false;
  return opts;
}

export async function main(argv: string[]): Promise<number> {
  let opts: GateOptions | undefined;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(e.message);
    return 2;
  }
  if (opts === undefined) return 0;
  const result = await runGate(opts);
  process.stdout.write(`${result.markdown}\n`);
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, `${result.stepSummary}\n`);
  return result.ok ? 0 : 1;
}

if (isMain(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
