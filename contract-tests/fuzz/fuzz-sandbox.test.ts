// The fuzzer against the sandbox started in this process (rate limit off, a small graph, jobs advanced only on
// request): 2,000 seeded requests with the Acme key and the revoked key, no failure outside known-failures.json.
import { afterAll, beforeAll, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../mocks/sandbox/hosts/node/server.js";
import { testKey } from "../../mocks/sandbox/testing/harness.js";
import { runFuzz } from "./runner.js";
import { expectOnlyKnownFailures, IN_SUITE_RUN } from "./suite-run.js";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    rateLimit: false,
    people: 1000,
    companies: 80,
    jobSpeed: 0,
  });
});
afterAll(async () => {
  await sandbox?.close();
});

test("2,000 fuzzed requests to the sandbox: no failure outside the allowlist", async () => {
  const report = await runFuzz({
    ...IN_SUITE_RUN,
    baseUrl: sandbox.baseUrl,
    key: testKey("acme"),
    revokedKey: testKey("revoked"),
  });
  expectOnlyKnownFailures(report, "sandbox");
});
