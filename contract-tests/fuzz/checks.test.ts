// The fuzzer's checks against a scripted server: each kind of broken answer must be reported under its
// check, a server that keeps the contract must give none, and a failure's curl must replay the request.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { hasErrorShape, type CheckName } from "./checks.js";
import { KEY_VARIABLE } from "./curl.js";
import { FAKE_KEY, startFakeApi, type Behaviour, type FakeApi } from "./fake-api.js";
import { runFuzz, type FuzzOptions, type FuzzReport } from "./runner.js";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A run restricted to getAccount against the fake API (started by `fuzz`, or already running). */
function runAgainstApi(overrides: Partial<FuzzOptions> = {}): Promise<FuzzReport> {
  return runFuzz({
    baseUrl: api!.baseUrl,
    key: FAKE_KEY,
    seed: 42,
    requests: 60,
    concurrency: 4,
    timeLimitMs: 30_000,
    operations: ["getAccount"],
    discover: false,
    ...overrides,
  });
}

async function fuzz(behaviour: Behaviour, overrides: Partial<FuzzOptions> = {}): Promise<FuzzReport> {
  api = await startFakeApi(behaviour);
  return runAgainstApi(overrides);
}

/** The report has a failure of `check` with that status and a message containing `text`. */
function expectFailure(report: FuzzReport, check: CheckName, status: number, text: string): void {
  expect(report.failures.find((f) => f.check === check)).toMatchObject({
    status,
    message: expect.stringContaining(text),
  });
}

const failed = (report: FuzzReport) =>
  Object.fromEntries(Object.entries(report.checks).map(([name, c]) => [name, c.failed]));

describe("checks on a scripted server", () => {
  test("a server that keeps the contract: no failure, valid and invalid requests both sent", async () => {
    const report = await fuzz("correct");
    expect(report.failures).toEqual([]);
    expect(report.operations.getAccount!.valid).toBeGreaterThan(10);
    expect(report.operations.getAccount!.invalid).toBeGreaterThan(10);
    expect(report.operations.getAccount!.statuses).toEqual({ 200: expect.any(Number), 401: expect.any(Number) });
  });

  test("a 500 is a server error", async () => {
    const report = await fuzz("server-error");
    expect(failed(report).not_a_server_error).toBe(60);
    expect(report.failures.map((f) => f.check)).toContain("not_a_server_error");
  });

  test("an undocumented status is reported", async () => {
    const report = await fuzz("undocumented-status");
    expect(failed(report).status_code_conformance).toBeGreaterThan(0);
    expectFailure(report, "status_code_conformance", 418, "status 418 is not documented for getAccount");
  });

  test("a body that breaks the response schema is reported", async () => {
    const report = await fuzz("schema-violation");
    expectFailure(report, "response_schema_conformance", 200, "/body/data");
  });

  test("a 200 to a request without a key, with a malformed key or with the revoked key is reported", async () => {
    const report = await fuzz("accepts-anything", { revokedKey: "revoked-key-000000", seed: 7, requests: 80 });
    const rejected = report.failures.filter((f) => f.check === "negative_data_rejection");
    expect(new Set(rejected.map((f) => f.request.mutation?.split(" ")[0]))).toEqual(
      new Set(["missing_key", "malformed_key", "revoked_key"]),
    );
    expect(rejected.every((f) => f.status === 200 && f.request.intent === "invalid")).toBe(true);
  });

  test("a 4xx without the reference's error shape is reported", async () => {
    const report = await fuzz("bare-4xx");
    expectFailure(report, "error_shape", 401, '{"message":"no key"}');
  });

  test("the curl of a failure replays the request with the key from the environment, and the key is never printed", async () => {
    const report = await fuzz("server-error", { requests: 20 });
    const withKey = report.failures.find((f) => f.request.auth === "bearer" || f.request.auth === "x-api-key")!;
    expect(withKey.curl).toContain(`$${KEY_VARIABLE}`);
    expect(JSON.stringify(report)).not.toContain(FAKE_KEY);
    const before = api!.received.length;
    // Asynchronously: the fake server runs in this process.
    await promisify(execFile)("bash", ["-c", `${withKey.curl} -o /dev/null --max-time 10`], {
      env: { ...process.env, [KEY_VARIABLE]: FAKE_KEY },
    });
    const replayed = api!.received[before]!;
    const original = api!.received.find(
      (r, i) =>
        i < before &&
        r.url === replayed.url &&
        r.authorization === replayed.authorization &&
        r.apiKey === replayed.apiKey,
    );
    expect(replayed.url).toBe(`/v1${withKey.request.path}`);
    expect(replayed.authorization ?? replayed.apiKey).toContain(FAKE_KEY);
    expect(original).toBeDefined();
  });
});

test("the same seed sends the same requests in the same order (one at a time), another seed others", async () => {
  api = await startFakeApi("correct");
  const sent = async (seed: number) => {
    const from = api!.received.length;
    await runAgainstApi({ seed, requests: 30, concurrency: 1 });
    return api!.received.slice(from).map((r) => `${r.method} ${r.url} ${r.authorization ?? ""} ${r.apiKey ?? ""}`);
  };
  const first = await sent(3);
  expect(first).toHaveLength(30);
  expect(await sent(3)).toEqual(first);
  expect(await sent(4)).not.toEqual(first);
});

describe("hasErrorShape", () => {
  test("accepts the application shape on any 4xx and the framework shape on 400 and 429 only", () => {
    expect(hasErrorShape(404, { error: { type: "not_found", message: "gone" } })).toBe(true);
    expect(hasErrorShape(429, { statusCode: 429, error: "Too Many Requests", message: "slow down" })).toBe(true);
    expect(hasErrorShape(400, { statusCode: 400, error: "Bad Request", message: "bad" })).toBe(true);
  });

  test.each([
    ["empty body", 401, null],
    ["text body", 400, "Bad Request"],
    ["message only", 401, { message: "no key" }],
    ["type missing", 404, { error: { message: "gone" } }],
    ["message not a string", 402, { error: { type: "payment_required", message: 3 } }],
    ["framework shape outside 400 and 429", 404, { statusCode: 404, error: "Not Found", message: "gone" }],
    ["framework shape without statusCode", 429, { error: "Too Many Requests", message: "slow down" }],
  ])("rejects %s", (_, status, body) => {
    expect(hasErrorShape(status, body)).toBe(false);
  });
});
