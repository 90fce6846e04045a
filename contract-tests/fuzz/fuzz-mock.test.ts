// The fuzzer against the Prism mock started in this process: about 2,000 seeded requests, no failure outside known-failures.json.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mocks/prism/server.js";
import { compareWithKnown, loadKnownFailures } from "./known-failures.js";
import { formatReport, runFuzz } from "./runner.js";
import { IN_SUITE_RUN } from "./suite-run.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, host: "127.0.0.1", quiet: true });
});
afterAll(async () => {
  await mock?.close();
});

test("2,000 fuzzed requests to the mock: no failure outside the allowlist", async () => {
  const report = await runFuzz({ ...IN_SUITE_RUN, baseUrl: mock.baseUrl, key: "test" });
  const { unexpected, stale } = compareWithKnown(report, "mock", loadKnownFailures());
  if (stale.length > 0) console.info(`known-failures.json: ${stale.length} mock entries matched nothing (fixed? remove them):\n${stale.map((s) => `  ${s.check} ${s.operationId} ${s.mutation ?? "(valid)"}`).join("\n")}`);
  expect(report.sent).toBe(IN_SUITE_RUN.requests);
  expect(unexpected, formatReport({ ...report, failures: unexpected })).toEqual([]);
});
