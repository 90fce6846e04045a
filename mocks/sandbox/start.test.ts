/** `npm run sandbox` end to end over real HTTP (child process on a free port, killed with its group). */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchangeFromFetch } from "../../contract-core/index.js";
import { KEYS } from "./contract/auth.js";
import { parseCommandLine } from "../../contract-core/index.js";
import { parseCli, SANDBOX_COMMAND } from "./hosts/node/cli.js";
import { requestLogOption } from "./hosts/node/launch.js";
import { spawnSandbox } from "./testing/child.js";
import { assertContract, testKey } from "./testing/harness.js";

let child: ChildProcess;
let stdout = "";
let output: () => string = () => "";
let baseUrl = "";

beforeAll(async () => {
  const started = await spawnSandbox(["--people", "300", "--companies", "40", "--rate-limit", "1000"], {
    detached: true,
  });
  ({ child, baseUrl } = started);
  stdout = started.output();
  output = started.output;
});

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid, "SIGTERM");
    await exited;
  }
});

describe("npm run sandbox", () => {
  it("prints the base URL (ending in /v1) and every test key", () => {
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    for (const k of KEYS) expect(stdout).toContain(k.key);
    expect(stdout).toMatch(/300 people, 40 companies/);
  });

  it("answers over HTTP within the contract, with rate-limit headers", async () => {
    const url = `${baseUrl}/people?limit=2&view=compact`;
    const headers = { authorization: `Bearer ${testKey("acme")}` };
    const res = await fetch(url, { headers });
    const exchange = await exchangeFromFetch({ url, headers }, res);
    expect(assertContract(exchange).valid).toBe(true);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("answers a missing key with 401 over HTTP", async () => {
    const url = `${baseUrl}/me`;
    const res = await fetch(url);
    const exchange = await exchangeFromFetch({ url }, res);
    assertContract(exchange, { invalidRequest: true });
    expect(res.status).toBe(401);
  });

  it("logs one line per request by default, with the error of a 4xx and never the key", async () => {
    await (
      await fetch(`${baseUrl}/people?limit=101`, { headers: { authorization: `Bearer ${testKey("acme")}` } })
    ).text();
    await new Promise((done) => setTimeout(done, 200));
    const log = output();
    expect(log).toMatch(/^GET \/v1\/people\?limit=2&view=compact 200 \d+\.\d ms$/m);
    expect(log).toMatch(/^GET \/v1\/me 401 \d+\.\d ms unauthorized: /m);
    expect(log).toMatch(/^GET \/v1\/people\?limit=101 400 \d+\.\d ms invalid_request: .*limit/m);
    expect(log.split("Requests (one line each")[1]).not.toContain(testKey("acme"));
  });
});

describe("the request log option", () => {
  it("is on by default and off with --quiet or with Fastify's log (--log)", () => {
    expect(requestLogOption(false, false).requestLog).toBeTypeOf("function");
    expect(requestLogOption(true, false)).toEqual({});
    expect(requestLogOption(false, true)).toEqual({});
    expect(parseCommandLine(SANDBOX_COMMAND, ["--quiet"], {})?.values.quiet).toBe(true);
  });
});

describe("parseCli", () => {
  it("parses the options", () => {
    expect(
      parseCli(
        ["--people", "100", "--latency", "250", "--no-rate-limit", "--job-speed", "0", "--state-file", "/tmp/s.json"],
        {},
      ),
    ).toEqual({
      people: 100,
      latencyMs: 250,
      rateLimit: false,
      jobSpeed: 0,
      stateFile: "/tmp/s.json",
    });
    expect(parseCli(["--rate-limit", "60"], { PORT: "5000", HOST: "0.0.0.0" })).toEqual({
      port: 5000,
      host: "0.0.0.0",
      rateLimit: { max: 60, windowMs: 60_000 },
    });
  });

  it.each([
    [["--people", "many"]],
    [["--people", "0"]],
    [["--latency", "-1"]],
    [["--port", "70000"]],
    [["--unknown"]],
    [["--job-failure-rate", "2"]],
  ])("rejects %j", (argv) => {
    expect(() => parseCli(argv, {})).toThrow();
  });

  it("takes --allowed-host as comma-separated names for the Host step; the mock's command line takes the same", () => {
    expect(parseCli(["--allowed-host", "sandbox.test, api.internal,"], {})).toEqual({
      allowedHosts: ["sandbox.test", "api.internal"],
    });
    expect(parseCli([], {})).toEqual({});
  });

  it("takes up to 500,000 people, the largest supported size the README names", () => {
    expect(parseCli(["--people", "500000"], {})).toEqual({ people: 500_000 });
    expect(() => parseCli(["--people", "500001"], {})).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining("between 1 and 500000") }),
    );
  });

  it("has no start-up snapshots: --snapshot is an unknown option (exit 2) named in the message", () => {
    expect(() => parseCli(["--snapshot"], {})).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining("--snapshot") }),
    );
  });
});
