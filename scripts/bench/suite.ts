/**
 * Wall time of the pull-request gate and of `npm test`, against the goals of issue 17 (gate <= 45 s on a
 * one-line spec change, npm test <= 90 s), in alternating rounds. Every run happens in a scratch checkout of
 * HEAD (a detached git worktree sharing this checkout's node_modules), so the scenarios are fixed and this
 * tree is never edited; and every run starts with the tools' caches empty (Prettier's, tsc's build info,
 * vitest's timings), as they are after `npm ci` on a pull request's runner:
 *   - `npm test`, on HEAD as committed;
 *   - `npm run gate -- --base HEAD` after a one-line spec change: a description reworded and `npm run
 *     generate` run, as a pull request would carry it (the goal's case: the whole test suite, lint, drift and
 *     breaking; the typecheck and ESLint only if the gate cannot prove the types unchanged);
 *   - `npm run gate -- --base HEAD` after a one-line change to code (not a comment) in the sandbox (drift,
 *     breaking and the docs suite are skipped; lint, typecheck and the other tests run).
 *   npm run ts -- scripts/bench/suite.ts [--rounds 3]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCENARIO_EDITS, editLine } from "./suite-scenarios.js";
import {
  ROOT,
  alternate,
  formatSummary,
  goalLine,
  machineLine,
  ownChildrenCpuSeconds,
  roundsOption,
  runBench,
  summarize,
} from "./harness.js";

const SUITE_GOALS = { gate: 45, test: 90 } as const;

// A type, not an interface: the rounds harness takes records of numbers, which an interface is not.
type Run = { seconds: number; exitCode: number; cpuSeconds: number };

/** The end of a failed run's output, kept for the report (a run's output is otherwise discarded). */
const OUTPUT_KEPT = 16_000;
const failedOutputs: string[] = [];

/**
 * Runs `command args` in `cwd`; resolves with the wall time, the CPU time of its whole process tree (the runs
 * happen one at a time, so the difference of this process's children's CPU is this run's) and the exit code.
 * A failed run counts as infinitely slow, so a gate that fails fast never meets its goal; the end of its output
 * is kept for the report.
 */
function timed(cwd: string, command: string, args: string[]): Promise<Run> {
  const t0 = performance.now();
  const cpu0 = ownChildrenCpuSeconds();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    // "close", not "exit": the child has then been waited for, and its CPU counted among this process's children.
    child.once("close", (code) => {
      if (code !== 0)
        failedOutputs.push(`${command} ${args.join(" ")} (exit ${code}), last lines:\n${lastLines(output, 40)}`);
      resolve({
        seconds: code === 0 ? (performance.now() - t0) / 1000 : Infinity,
        exitCode: code ?? 1,
        cpuSeconds: ownChildrenCpuSeconds() - cpu0,
      });
    });
  });
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

/** "CPU 123.4 s median (min-max)" of a scenario's runs: steadier than wall time on a machine others share. */
function cpuLine(run: { cpuSeconds: number[] }): string {
  return run.cpuSeconds.every(Number.isFinite)
    ? `CPU (user + system, every process) ${formatSummary(summarize(run.cpuSeconds), "s", 1)}`
    : "CPU not measured (no /proc)";
}

async function must(cwd: string, command: string, args: string[]): Promise<void> {
  const { exitCode } = await timed(cwd, command, args);
  if (exitCode !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${exitCode} in ${cwd}`);
}

/** The caches a run may leave in node_modules; `npm ci` removes them, so a pull request's gate starts without. */
const CACHES = ["node_modules/.cache", "node_modules/.vite"];

function emptyCaches(): void {
  for (const dir of CACHES) rmSync(join(ROOT, dir), { recursive: true, force: true });
}

runBench(async () => {
  const rounds = roundsOption(process.argv);
  const dir = join(mkdtempSync(join(tmpdir(), "bench-suite-")), "checkout");
  await must(ROOT, "git", ["worktree", "add", "--detach", "--quiet", dir, "HEAD"]);
  const restore = () => must(dir, "git", ["checkout", "--quiet", "--", "."]);
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    console.log(
      `Suite wall time: ${rounds} alternating rounds of npm test and npm run gate (spec change, code change), ` +
        `in a scratch checkout of HEAD, caches emptied before each run\n${machineLine()}\n`,
    );
    const gateAfter = async (edit: (typeof SCENARIO_EDITS)[keyof typeof SCENARIO_EDITS], regenerate: boolean) => {
      editLine(dir, edit);
      try {
        if (regenerate) await must(dir, "npm", ["run", "--silent", "generate"]);
        emptyCaches();
        return await timed(dir, "npm", ["run", "--silent", "gate", "--", "--base", "HEAD"]);
      } finally {
        await restore();
      }
    };
    const runs = await alternate(
      rounds,
      {
        test: () => {
          emptyCaches();
          return timed(dir, "npm", ["test"]);
        },
        gateSpec: () => gateAfter(SCENARIO_EDITS.spec, true),
        gateCode: () => gateAfter(SCENARIO_EDITS.code, false),
      },
      (round) => process.stderr.write(`round ${round + 1}/${rounds}\n`),
    );
    const failures = (run: { exitCode: number[] }) => {
      const failed = run.exitCode.filter((code) => code !== 0).length;
      return failed ? [`${failed} of ${rounds} runs failed`] : [];
    };
    console.log(
      `npm run gate, one-line code change (${SCENARIO_EDITS.code.file}): ` +
        `${formatSummary(summarize(runs.gateCode.seconds), "s", 1)}${[
          cpuLine(runs.gateCode),
          ...failures(runs.gateCode),
        ]
          .map((f) => ` · ${f}`)
          .join("")}`,
    );
    console.log(
      goalLine({
        name: `npm run gate <= ${SUITE_GOALS.gate} s wall, one-line spec change`,
        value: summarize(runs.gateSpec.seconds),
        unit: "s",
        digits: 1,
        compare: "<=",
        target: SUITE_GOALS.gate,
        details: [
          `${SCENARIO_EDITS.spec.file} reworded and regenerated`,
          cpuLine(runs.gateSpec),
          ...failures(runs.gateSpec),
        ],
      }),
    );
    console.log(
      goalLine({
        name: `npm test <= ${SUITE_GOALS.test} s wall`,
        value: summarize(runs.test.seconds),
        unit: "s",
        digits: 1,
        compare: "<=",
        target: SUITE_GOALS.test,
        details: [cpuLine(runs.test), ...failures(runs.test)],
      }),
    );
    // After the goal lines (the parent collects those): why each failed run failed.
    for (const output of failedOutputs) console.log(`\nFailed run: ${output}`);
  } finally {
    await must(ROOT, "git", ["worktree", "remove", "--force", dir]).catch((e: Error) => console.error(e.message));
    rmSync(join(dir, ".."), { recursive: true, force: true });
  }
});
