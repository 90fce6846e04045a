// npm run fuzz: usage, argument errors (exit 2), exit 1 on a failing check and 0 on a clean run, the JSON report, no key in any output.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { runCli, USAGE } from "./cli.js";
import { FAKE_KEY, startFakeApi, type FakeApi } from "./fake-api.js";

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { out: (t) => void (out += t), err: (t) => void (err += t) }, env);
  return { code, out, err };
}

describe("arguments", () => {
  test("--help prints the usage and exits 0", async () => {
    expect(await cli(["--help"])).toEqual({ code: 0, out: USAGE, err: "" });
  });

  test.each([
    [["http://127.0.0.1:1/v1", "--bogus"], "unknown argument --bogus"],
    [[], "no base URL given"],
    [["not a url"], "not a URL: not a url"],
    [["ftp://example.com/v1"], "the base URL must be http(s)"],
    [["http://127.0.0.1:1/v1", "--requests", "0"], "--requests must be an integer from 1 to"],
    [["http://127.0.0.1:1/v1", "--seed", "1.5"], "--seed must be an integer from -2147483648 to 2147483647, got 1.5"],
    [["http://127.0.0.1:1/v1", "--key", "tgsb_secret"], "--key is refused, because a key on the command line"],
    [["http://127.0.0.1:1/v1", "--revoked-key=tgsb_secret"], "TALENT_GRAPH_REVOKED_KEY (or name another variable"],
    [["http://127.0.0.1:1/v1", "--key-env", "NO_SUCH_VARIABLE"], "NO_SUCH_VARIABLE (named by --key-env) is not set"],
    [["http://127.0.0.1:1/v1", "--operations", "getAccount,noSuchOperation"], "unknown operation noSuchOperation"],
    [["http://127.0.0.1:1/v1", "--spec", "/nonexistent/openapi.json"], "cannot load the spec"],
  ])("%j exits 2: %s", async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).toContain("usage: npm run fuzz -- [options] <base-url> (--help lists the options)");
    expect(result.err).not.toContain("tgsb_secret");
  });

  test("an unreachable base URL is one line and exit 3", async () => {
    const result = await cli(["http://127.0.0.1:1/v1", "--requests", "5"]);
    expect(result).toMatchObject({ code: 3, out: "" });
    expect(result.err).toMatch(/^npm run fuzz: http:\/\/127\.0\.0\.1:1\/v1 is not reachable \(.*\)[^\n]*\.\n$/);
  });
});

describe("runs", () => {
  let api: FakeApi;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "fuzz-cli-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await api?.close();
  });

  test("a clean run exits 0, prints the summary and writes the report; the key comes from the environment and is never printed", async () => {
    api = await startFakeApi("correct");
    const report = join(dir, "clean.json");
    const result = await cli(
      [api.baseUrl, "--seed", "5", "--requests", "40", "--operations", "getAccount", "--report", report],
      { TALENT_GRAPH_API_KEY: FAKE_KEY },
    );
    expect(result.code, result.out + result.err).toBe(0);
    expect(result.out).toMatch(/seed 5 {2}40\/40 requests in/);
    expect(result.out).toContain("0 failures");
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect(json).toMatchObject({ seed: 5, sent: 40, failures: [] });
    expect(api.received.some((r) => r.authorization === `Bearer ${FAKE_KEY}` || r.apiKey === FAKE_KEY)).toBe(true);
    expect(result.out + readFileSync(report, "utf8")).not.toContain(FAKE_KEY);
  });

  test("a failing check exits 1 and prints each distinct failure with its curl", async () => {
    api = await startFakeApi("server-error");
    const result = await cli(
      [api.baseUrl, "--key-env", "MY_KEY", "--seed", "5", "--requests", "30", "--operations", "getAccount"],
      { MY_KEY: FAKE_KEY },
    );
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/FAIL not_a_server_error +30 failed/);
    expect(result.out).toMatch(/✘ not_a_server_error {2}getAccount → 500/);
    expect(result.out).toContain("curl -sS -i -g --path-as-is -X GET");
    expect(result.out).not.toContain(FAKE_KEY);
  });

  test("a refused key stops the run with one line naming the 401 and the key's variable, not the key", async () => {
    api = await startFakeApi("correct");
    const result = await cli([api.baseUrl, "--requests", "30"], { TALENT_GRAPH_API_KEY: "tgsb_revoked_0000" });
    expect(result.code).toBe(3);
    expect(result.err).toBe(
      `npm run fuzz: ${api.baseUrl} answered GET /me with 401 Unauthorized (unauthorized: Missing or invalid API key): ` +
        "the key in TALENT_GRAPH_API_KEY is missing, wrong, revoked or for another deployment.\n",
    );
    expect(api.received).toHaveLength(1);
  });

  test("a rate-limited deployment is paced by Retry-After: no 429 is judged, and the run says it waited", async () => {
    api = await startFakeApi("correct", { max: 6, retryAfterSeconds: 1 });
    const args = [api.baseUrl, "--seed", "5", "--requests", "8", "--operations", "getAccount", "--concurrency", "2"];
    const result = await cli(args, { TALENT_GRAPH_API_KEY: FAKE_KEY });
    expect(result.code, result.out + result.err).toBe(0);
    expect(result.out).toMatch(
      /rate limit: \d+ answers were 429; the run waited \d+\.\d s in all as Retry-After asked/,
    );
    expect(result.out).not.toMatch(/429×/);
    expect(result.out).toContain("0 failures");
  });

  test("a run the rate limit kept from testing exits 3 with one line naming --no-rate-limit", async () => {
    api = await startFakeApi("correct", { max: 3, retryAfterSeconds: 60 });
    const args = [api.baseUrl, "--seed", "5", "--requests", "30", "--operations", "getAccount", "--time-limit", "5"];
    const result = await cli(args, { TALENT_GRAPH_API_KEY: FAKE_KEY });
    expect(result.code).toBe(3);
    expect(result.out).toMatch(/getAccount .*429×\d+/);
    expect(result.err).toMatch(
      /^npm run fuzz: \S+ rate-limited \d+ of 30 requests \(429\) .* --no-rate-limit \(npm run sandbox -- --no-rate-limit\)[^\n]*\n$/,
    );
  });

  test("a base URL without /v1 gets a hint", async () => {
    api = await startFakeApi("correct");
    const origin = api.baseUrl.replace(/\/v1$/, "");
    const result = await cli([origin, "--requests", "30"], { TALENT_GRAPH_API_KEY: FAKE_KEY });
    expect(result.code).toBe(3);
    expect(result.err).toContain(`did you mean ${origin}/v1?`);
  });
});
