import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The workers and every Node process the tests start share Node's compiled-code cache (as under the gate, which
// sets the same directory): about a tenth of each process's start-up CPU otherwise goes to compiling again.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("node_modules/.cache/node-compile", import.meta.url));

/** The sandbox's behaviour tests, run a second time against its MSW host (testing/harness.ts reads SANDBOX_HOST). */
const SANDBOX_BEHAVIOUR = [
  "mocks/sandbox/reads.test.ts",
  "mocks/sandbox/search.test.ts",
  "mocks/sandbox/generated.test.ts",
  "mocks/sandbox/stateful/*.test.ts",
  "mocks/sandbox/data/example-queries.test.ts",
];
/**
 * The gate leaves out test files a change cannot affect (and the docs suite) through TG_TEST_EXCLUDE, one glob
 * per line: vitest's --exclude would reach only the root configuration, not these projects.
 */
const EXCLUDE = ["node_modules/**", "dist/**", ...(process.env.TG_TEST_EXCLUDE ?? "").split("\n").filter(Boolean)];
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 };
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
    execArgv: ["--import", new URL("scripts/typescript-hooks.ts", import.meta.url).href],
    experimental: { viteModuleRunner: false, nodeLoader: false },
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core runner, idle while the
    // slow files wait on their browser, servers and child processes. A worker per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: "default",
          include: ["**/*.test.ts"],
          exclude: EXCLUDE,
          ...TIMEOUTS,
          ...SHARED_MODULES,
          typecheck: {
            // The type tests (*.test-d.ts) are part of the project tsc checks; when the gate or `npm test` runs
            // that tsc in the same run it sets TG_TYPECHECK_SHARED, and vitest does not type-check them again.
            enabled: process.env.TG_TYPECHECK_SHARED !== "1",
            include: ["**/*.test-d.ts"],
            tsconfig: "./tsconfig.json",
          },
        },
      },
      {
        test: {
          name: "sandbox-msw",
          include: SANDBOX_BEHAVIOUR,
          // poll.test.ts drives a listening server through the client's poller, durable-state.test.ts the
          // Node host's journal files and a killed child process: Fastify only.
          exclude: [...EXCLUDE, "mocks/sandbox/stateful/poll.test.ts", "mocks/sandbox/stateful/durable-state.test.ts"],
          ...TIMEOUTS,
          ...SHARED_MODULES,
          env: { SANDBOX_HOST: "msw" },
        },
      },
    ],
  },
});
