import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The workers and every Node process the tests start share Node's compiled-code cache: about a tenth of each
// process's start-up CPU otherwise goes to compiling again.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("node_modules/.cache/node-compile", import.meta.url));

/** The sandbox's behaviour tests, run a second time against its MSW host (testing/harness.ts reads SANDBOX_HOST). */
const SANDBOX_BEHAVIOUR = ["mocks/sandbox/areas/*.test.ts", "mocks/sandbox/data/example-queries.test.ts"];
const EXCLUDE = ["node_modules/**", "dist/**", "scratch/**"];
/**
 * The hang budget, the suite's only wall-clock limit: a test, a hook or an `expect.poll` that takes longer has
 * hung. It is not a speed check (speed is measured in benchmarks): on a shared 2-core runner under load a file
 * that takes a minute calm can take several, so the budget is minutes, far above any test's calm time. Tests do
 * not set budgets of their own below it unless a comment says what that budget catches
 * (scripts/test-budgets.test.ts reads every test file); browser waits pass `timeout: 0` and wait for the state.
 */
const HANG_BUDGET_MS = 10 * 60_000;
const TIMEOUTS = {
  testTimeout: HANG_BUDGET_MS,
  hookTimeout: HANG_BUDGET_MS,
  expect: { poll: { timeout: HANG_BUDGET_MS } },
};
/**
 * The test files of a worker share one module cache instead of each re-importing Prism, Ajv's compiled spec,
 * Fastify, the generated graph and the rest: about a quarter of the suite's CPU. Each test file still runs its
 * own top level and hooks; what this asks of shared helpers (testing/, test kits) is that they keep no
 * per-file state at module level (a per-file count is keyed by the test file, as testing/harness.ts does).
 */
const SHARED_MODULES = { isolate: false };

export default defineConfig({
  test: {
    // The workers import the sources as every script and child process does: Node strips the types and
    // scripts/typescript-hooks.ts resolves the `.js` specifiers, instead of Vite's module runner transforming
    // each file. The tests then load modules exactly as production does (CommonJS export names included), for
    // less CPU. No test uses vi.mock or import.meta.vitest, which would need the module runner.
    // Web Storage off: Node's localStorage without a file only warns (MSW looks for it); no test uses it.
    execArgv: [
      "--import",
      new URL("scripts/typescript-hooks.ts", import.meta.url).href,
      "--no-experimental-webstorage",
    ],
    experimental: { viteModuleRunner: false, nodeLoader: false },
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core runner, idle while the
    // slow files wait on their browser, servers and child processes. A worker per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    // The sandbox harness logs the coverage marks of every exchange it validates; each run starts a fresh log.
    globalSetup: ["contract-core/suite-log-setup.ts"],
    projects: [
      {
        test: {
          name: "default",
          include: ["**/*.test.ts"],
          exclude: EXCLUDE,
          ...TIMEOUTS,
          ...SHARED_MODULES,
          // The type tests (*.test-d.ts) are checked once, by the project's tsc (`npm run typecheck`, which
          // `npm test` and the gate run): vitest's typecheck mode would run tsc over the project a second time.
        },
      },
      {
        test: {
          name: "sandbox-msw",
          include: SANDBOX_BEHAVIOUR,
          // poll.test.ts drives a listening server through the client's poller, durable-state.test.ts the
          // Node host's SQLite state file and a killed child process: Fastify only.
          exclude: [...EXCLUDE, "mocks/sandbox/areas/poll.test.ts", "mocks/sandbox/areas/durable-state.test.ts"],
          ...TIMEOUTS,
          ...SHARED_MODULES,
          env: { SANDBOX_HOST: "msw" },
        },
      },
    ],
  },
});
