// The fuzzer against the Prism mock started in this process: 2,000 seeded requests, no failure outside known-failures.json.
import { afterAll, beforeAll, test } from "vitest";
import { startMock, type RunningMock } from "../../mocks/prism/server.js";
import { runFuzz } from "./runner.js";
import { expectOnlyKnownFailures, IN_SUITE_RUN } from "./suite-run.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, host: "127.0.0.1", quiet: true });
});
afterAll(async () => {
  await mock?.close();
});

test("2,000 fuzzed requests to the mock: no failure outside the allowlist", async () => {
  expectOnlyKnownFailures(await runFuzz({ ...IN_SUITE_RUN, baseUrl: mock.baseUrl, key: "test" }), "mock");
});
