/**
 * Wall time of `npm run gate` and `npm test` on this machine, in alternating rounds (gate, test, gate, ...),
 * against the goals of issue 17 (gate <= 45 s, test <= 90 s). Slow (several minutes a round) and it needs
 * the machine to itself, so `npm run bench` runs it only when asked: `npm run bench -- suite`.
 *   npx tsx scripts/bench/suite.ts [--rounds 3]
 */
import { spawn } from "node:child_process";
import { ROOT, alternate, goalLine, machineLine, roundsOption, runBench, summarize } from "./harness.js";

export const SUITE_GOALS = { gate: 45, test: 90 } as const;

/** Runs `npm run <script>` with its output discarded; resolves with the wall time in seconds and the exit code. */
function timeScript(script: string): Promise<{ seconds: number; exitCode: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", script], {
      cwd: ROOT,
      stdio: "ignore",
      env: { ...process.env, NO_COLOR: "1" },
    });
    child.once("error", reject);
    child.once("exit", (code) => resolve({ seconds: (performance.now() - t0) / 1000, exitCode: code ?? 1 }));
  });
}

runBench(async () => {
  const rounds = roundsOption(process.argv);
  console.log(`Suite wall time: ${rounds} alternating rounds of npm run gate and npm test\n${machineLine()}\n`);
  const runs = await alternate(rounds, { gate: () => timeScript("gate"), test: () => timeScript("test") }, (round) =>
    process.stderr.write(`round ${round + 1}/${rounds}\n`),
  );
  for (const script of ["gate", "test"] as const) {
    const failed = runs[script].exitCode.filter((code) => code !== 0).length;
    console.log(
      goalLine({
        name: `npm ${script === "gate" ? "run gate" : "test"} <= ${SUITE_GOALS[script]} s wall`,
        value: summarize(runs[script].seconds),
        unit: "s",
        digits: 1,
        compare: "<=",
        target: SUITE_GOALS[script],
        details: failed ? [`${failed} of ${rounds} runs failed`] : [],
      }),
    );
  }
});
