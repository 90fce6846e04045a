import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactHeaders, runRecorder, scrub } from "./record.js";

const KEY = "tg_live_0123456789abcdef-test-only";
const ENV = "CONTRACT_RECORD_TEST_KEY";
const tmp = mkdtempSync(join(tmpdir(), "contract-record-"));
let server: Server;
let baseUrl = "";

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method === "DELETE") return void res.writeHead(204).end();
      if (req.url?.includes("slow")) return; // never answers: the recorder's timeout ends it
      // Echoes the request, credentials included, to prove the recorder scrubs them.
      res.writeHead(req.url?.includes("missing") ? 404 : 200, {
        "content-type": "application/json",
        "x-ratelimit-limit": "300",
      });
      res.end(
        JSON.stringify({
          data: { url: req.url, headers: req.headers, body: body ? (JSON.parse(body) as unknown) : null },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  process.env[ENV] = KEY;
});

afterAll(async () => {
  delete process.env[ENV];
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

async function record(args: string[], requests: unknown) {
  const file = join(tmp, `requests-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(requests));
  let out = "";
  let err = "";
  const code = await runRecorder([...args, file], { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

const readJson = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, name), "utf8")) as {
    request: Record<string, unknown>;
    response: Record<string, unknown>;
  };

describe("recorder", () => {
  it("writes one recording per request in the recording format, credentials redacted", async () => {
    const out = join(tmp, "bearer");
    const requests = [
      { name: "echo-search", method: "GET", url: "/echo?limit=2" },
      { method: "POST", url: "echo", body: { name: "Shortlist" } },
      { name: "anonymous", method: "GET", url: "/missing", auth: false },
      { name: "gone", method: "DELETE", url: "/lists/1" },
    ];
    const {
      code,
      out: log,
      err,
    } = await record(["--base-url", `${baseUrl}/`, "--key-env", ENV, "--out", out, "--verbose"], requests);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      "POST-v1-echo-200.json",
      "anonymous.json",
      "echo-search.json",
      "gone.json",
    ]);

    const search = readJson(out, "echo-search.json");
    expect(search.request).toEqual({
      method: "GET",
      url: "/v1/echo?limit=2",
      headers: { accept: "application/json", authorization: "Bearer [redacted]" },
      body: null,
    });
    expect(search.response.status).toBe(200);
    expect(search.response.headers).toMatchObject({ "content-type": "application/json", "x-ratelimit-limit": "300" });
    expect(search.response.headers).not.toHaveProperty("date");
    expect(JSON.stringify(search.response.body)).toContain("[redacted]"); // the echoed key was scrubbed

    expect(readJson(out, "POST-v1-echo-200.json").request).toMatchObject({
      body: { name: "Shortlist" },
      headers: { "content-type": "application/json" },
    });
    expect(readJson(out, "anonymous.json").request.headers).not.toHaveProperty("authorization");
    expect(readJson(out, "anonymous.json").response.status).toBe(404);
    expect(readJson(out, "gone.json").response).toEqual({ status: 204, headers: {}, body: null });

    const everything =
      readdirSync(out)
        .map((f) => readFileSync(join(out, f), "utf8"))
        .join("\n") + log;
    expect(everything).not.toContain(KEY);
    expect(log).toContain("GET /echo?limit=2 -> 200");
  });
  it("can send the key as X-Api-Key", async () => {
    const out = join(tmp, "apikey");
    const { code } = await record(
      ["--base-url", baseUrl, "--key-env", ENV, "--auth", "x-api-key", "--out", out],
      [{ name: "k", method: "GET", url: "/echo" }],
    );
    expect(code).toBe(0);
    const recorded = readJson(out, "k.json");
    expect(recorded.request.headers).toMatchObject({ "x-api-key": "[redacted]" });
    expect((recorded.response.body as { data: { headers: Record<string, string> } }).data.headers["x-api-key"]).toBe(
      "[redacted]",
    );
  });
  it("numbers files that would collide", async () => {
    const out = join(tmp, "dupes");
    await record(
      ["--base-url", baseUrl, "--no-key", "--out", out],
      [
        { name: "same", method: "GET", url: "/echo" },
        { name: "same", method: "GET", url: "/echo" },
      ],
    );
    expect(readdirSync(out).sort()).toEqual(["same-2.json", "same.json"]);
  });
  it("exits 3 when the server cannot be reached, without leaking the key", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, err } = await record(
      ["--base-url", `http://127.0.0.1:${port}/v1`, "--key-env", ENV, "--out", join(tmp, "down")],
      [
        { method: "GET", url: "/people" },
        { method: "GET", url: "/companies" },
      ],
    );
    expect(code).toBe(3);
    // One line for the whole run, not one per request.
    expect(err).toBe(`npm run record: cannot reach http://127.0.0.1:${port}/v1 (ECONNREFUSED); nothing recorded\n`);
    expect(err).not.toContain(KEY);
    expect(readdirSync(tmp)).not.toContain("down");
  });
  it("writes nothing and exits 3 when every answer is a 401 or 403, unless --allow-refused", async () => {
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "unauthorized", message: "invalid key" } }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1`;
    try {
      const requests = [
        { name: "a", method: "GET", url: "/people" },
        { name: "b", method: "GET", url: "/companies" },
      ];
      const refused = await record(["--base-url", url, "--key-env", ENV, "--out", join(tmp, "refused")], requests);
      expect(refused.code).toBe(3);
      expect(refused.err).toContain("every answer was a 401 or 403 (the server refused the key); nothing written");
      expect(readdirSync(tmp)).not.toContain("refused");
      const allowed = await record(
        ["--base-url", url, "--key-env", ENV, "--allow-refused", "--out", join(tmp, "allowed")],
        requests,
      );
      expect(allowed.code).toBe(0);
      expect(readdirSync(join(tmp, "allowed")).sort()).toEqual(["a.json", "b.json"]);
    } finally {
      refusing.close();
    }
  });
  it("prints a total, and one line per exchange only with --verbose", async () => {
    const quiet = await record(
      ["--base-url", baseUrl, "--key-env", ENV, "--out", join(tmp, "quiet")],
      [{ name: "q", method: "GET", url: "/echo" }],
    );
    expect(quiet.out).toBe(`1 of 1 exchanges recorded in ${join(tmp, "quiet")}\n`);
  });
  it("exits 1 when some requests failed and others were recorded", async () => {
    const out = join(tmp, "partial");
    const {
      code,
      out: log,
      err,
    } = await record(
      ["--base-url", baseUrl, "--no-key", "--out", out, "--timeout-ms", "200"],
      [
        { name: "echo", method: "GET", url: "/echo" },
        { name: "slow", method: "GET", url: "/slow" },
      ],
    );
    expect(code).toBe(1);
    expect(log).toContain("1 of 2 exchanges recorded");
    expect(err).toMatch(/✘ GET \/slow: /);
    expect(readdirSync(out)).toEqual(["echo.json"]);
  });

  it("exits 2 on bad arguments, a missing key variable or an unreadable requests file", async () => {
    expect((await record([], [])).code).toBe(2);
    expect((await record(["--base-url", baseUrl, "--auth", "basic"], [])).err).toMatch(
      "--auth must be bearer or x-api-key",
    );
    expect((await record(["--base-url", baseUrl, "--timeout-ms", "soon"], [])).err).toMatch(
      "--timeout-ms must be a positive integer",
    );
    const missingEnv = await record(["--base-url", baseUrl, "--key-env", "CONTRACT_RECORD_UNSET_VAR"], []);
    expect(missingEnv).toMatchObject({
      code: 2,
      err: "npm run record: the environment variable CONTRACT_RECORD_UNSET_VAR (named by --key-env) is not set: set it to the server's key, or record without credentials on purpose with --no-key.\n",
    });
    // The default variable too: without a key every answer would be a 401 (the README promises 2).
    const saved = process.env.TALENT_GRAPH_API_KEY;
    delete process.env.TALENT_GRAPH_API_KEY;
    try {
      const noKey = await record(
        ["--base-url", baseUrl, "--out", join(tmp, "keyless")],
        [{ method: "GET", url: "/echo" }],
      );
      expect(noKey.code).toBe(2);
      expect(noKey.err).toContain("TALENT_GRAPH_API_KEY is not set");
      expect(readdirSync(tmp)).not.toContain("keyless");
    } finally {
      if (saved !== undefined) process.env.TALENT_GRAPH_API_KEY = saved;
    }
    const keyFlag = await record(["--base-url", baseUrl, "--key", "tgsb_secret_on_command_line"], []);
    expect(keyFlag.code).toBe(2);
    expect(keyFlag.err).toContain("--key is refused, because a key on the command line");
    expect(keyFlag.err).not.toContain("tgsb_secret_on_command_line");
    const notArray = await record(["--base-url", baseUrl, "--no-key"], { method: "GET" });
    expect(notArray.code).toBe(2);
    expect(notArray.err).toMatch("expected a JSON array of requests");
  });
  it("scrubs an echoed key from data but never corrupts data with a short test key", () => {
    expect(scrub('{"token":"tg_live_0123456789"}', "tg_live_0123456789")).toBe('{"token":"[redacted]"}');
    expect(scrub('{"kind":"company"}', "any")).toBe('{"kind":"company"}');
    expect(redactHeaders({ Authorization: "Bearer any", "X-Api-Key": "any", accept: "application/json" })).toEqual({
      Authorization: "Bearer [redacted]",
      "X-Api-Key": "[redacted]",
      accept: "application/json",
    });
  });
});
