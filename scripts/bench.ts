/**
 * npm run bench: runs each part's standalone benchmark in turn (one child process each, so one part's heap
 * does not weigh on the next) and prints their figures. `npm run bench -- contract mock` runs a subset.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./generate.js";

const BENCHES: Record<string, string> = {
  contract: "contract-tests/bench.ts",
  mock: "mocks/prism/bench.ts",
  client: "client/bench.ts",
  sandbox: "mocks/sandbox/bench.ts",
  msw: "mocks/sandbox/hosts/bench.ts",
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((w) => !(w in BENCHES));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; choose from ${Object.keys(BENCHES).join(", ")}`);
  process.exit(2);
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
process.exit(failed ? 1 : 0);
