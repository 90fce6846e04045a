/**
 * npm run bench: runs each part's standalone benchmark in turn (one child process each, so one part's heap
 * does not weigh on the next) and prints their figures. `npm run bench -- contract mock` runs a subset.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCommand, usageError, type CommandSpec } from "../contract-core/index.js";
import { repoRoot } from "./generate.js";

const BENCHES: Record<string, string> = {
  contract: "contract-tests/bench.ts",
  mock: "mocks/prism/bench.ts",
  client: "client/bench.ts",
  sandbox: "mocks/sandbox/bench.ts",
  msw: "mocks/sandbox/hosts/bench.ts",
};

export const BENCH_COMMAND: CommandSpec = {
  name: "npm run bench",
  summary: `Runs the benchmarks (all, or the ones named: ${Object.keys(BENCHES).join(", ")}) and prints their figures for this machine.`,
  positionals: "[names...]",
};

await runCommand(BENCH_COMMAND, ({ positionals }) => {
  const wanted = positionals;
  const unknown = wanted.filter((w) => !(w in BENCHES));
  if (unknown.length) {
    throw usageError(BENCH_COMMAND, `unknown benchmark(s): ${unknown.join(", ")}; choose from ${Object.keys(BENCHES).join(", ")}`);
  }
  let failed = 0;
  for (const [name, file] of Object.entries(BENCHES)) {
    if (wanted.length && !wanted.includes(name)) continue;
    if (!existsSync(join(repoRoot, file))) {
      console.log(`\n## ${name}: ${file} not present, skipped`);
      continue;
    }
    console.log(`\n## ${name} (${file})\n`);
    const run = spawnSync(join(repoRoot, "node_modules/.bin/tsx"), [file], { cwd: repoRoot, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (run.status !== 0) {
      failed++;
      console.log(`✘ ${name} benchmark exited with ${run.status ?? run.signal}`);
    }
  }
  return failed ? 1 : 0;
});
