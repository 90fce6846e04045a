// The fuzzer against the sandbox started in this process (rate limit off, a small graph): about 2,000 seeded
// requests with the Acme key and the revoked key, no failure outside known-failures.json.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "../../mocks/sandbox/server.js";
import { testKey } from "../../mocks/sandbox/testing/harness.js";
import { compareWithKnown, loadKnownFailures } from "./known-failures.js";
import { formatReport, runFuzz } from "./runner.js";
import { IN_SUITE_RUN } from "./suite-run.js";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimit: false, people: 1000, companies: 80, jobSpeed: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

test("2,000 fuzzed requests to the sandbox: no failure outside the allowlist", async () => {
  const report = await runFuzz({ ...IN_SUITE_RUN, baseUrl: sandbox.baseUrl, key: testKey("acme"), revokedKey: testKey("revoked") });
  const { unexpected, stale } = compareWithKnown(report, "sandbox", loadKnownFailures());
  if (stale.length > 0) console.info(`known-failures.json: ${stale.length} sandbox entries matched nothing (fixed? remove them):\n${stale.map((s) => `  ${s.check} ${s.operationId} ${s.mutation ?? "(valid)"}`).join("\n")}`);
  expect(report.sent).toBe(IN_SUITE_RUN.requests);
  expect(unexpected, formatReport({ ...report, failures: unexpected })).toEqual([]);
});
