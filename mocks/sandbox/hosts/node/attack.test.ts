/**
 * Both servers (the sandbox and the mock) against a page on another site and a hostile client, over real
 * HTTP: DNS rebinding (a foreign Host) is refused on every route and the canary List kept; the preflight
 * allows the control header only to the sandbox's own origin; a request without Host gets a 400 with a
 * body; the request log cannot be forged (one request, one line, no control bytes); a 5xx from a storage
 * failure logs its reason without --log, and reads still answer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { controlCharacters, sendRaw } from "../../../../contract-core/index.js";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { KEYS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { startSandbox, type RunningSandbox } from "./server.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;
const sandboxLog: string[] = [];
const mockLog: string[] = [];
let sandbox: RunningSandbox;
let mock: RunningMock;

beforeAll(async () => {
  [sandbox, mock] = await Promise.all([
    startSandbox({
      graph: fixtureGraphInput(),
      host: "127.0.0.1",
      port: 0,
      rateLimit: false,
      jobSpeed: 0,
      allowedHosts: ["sandbox.test"],
      requestLog: (line) => sandboxLog.push(line),
    }),
    startMock({ port: 0, quiet: true, requestLog: (line) => mockLog.push(line) }),
  ]);
});
afterAll(async () => Promise.all([sandbox?.close(), mock?.close()]));

const portOf = (url: string) => Number(new URL(url).port);
const servers = () =>
  [
    ["sandbox", portOf(sandbox.origin), `Bearer ${ACME}`],
    ["mock", portOf(mock.baseUrl), "Bearer test"],
  ] as const;

function raw(port: number, lines: string[], body = ""): Promise<{ status: number; body: string }> {
  const head = [...lines, "Connection: close", `Content-Length: ${Buffer.byteLength(body)}`].join("\r\n");
  return sendRaw(port, `${head}\r\n\r\n${body}`);
}

async function acmeLists(): Promise<string[]> {
  const res = await fetch(`${sandbox.baseUrl}/lists`, { headers: { authorization: `Bearer ${ACME}` } });
  return ((await res.json()) as { data: { name: string }[] }).data.map((l) => l.name);
}

describe("DNS rebinding: a foreign Host is refused on every route", () => {
  it("POST /__sandbox/reset from evil.example is a 403 in the reference's shape; the canary List is kept", async () => {
    const created = await fetch(`${sandbox.baseUrl}/lists`, {
      method: "POST",
      headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Canary" }),
    });
    expect(created.status).toBe(201);
    const port = portOf(sandbox.origin);
    const res = await raw(port, [
      "POST /__sandbox/reset HTTP/1.1",
      `Host: evil.example:${port}`,
      `Origin: http://evil.example:${port}`,
      "Content-Type: application/json",
    ]);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toEqual({
      type: "invalid_request",
      message: expect.stringMatching(/not Host "evil\.example:\d+"/),
    });
    expect(await acmeLists()).toContain("Canary");
  });

  it.each(["/v1/me", "/v1/lists", "/__sandbox/state"])(
    "GET %s with a foreign Host is a 403 on both servers",
    async (path) => {
      for (const [name, port, auth] of servers()) {
        if (name === "mock" && path.startsWith("/__")) continue;
        const res = await raw(port, [
          `GET ${path} HTTP/1.1`,
          "Host: rebound.attacker.example",
          `Authorization: ${auth}`,
        ]);
        expect(res.status, name).toBe(403);
        expect(JSON.parse(res.body).error.type, name).toBe("invalid_request");
      }
    },
  );

  it("answers loopback names, IP addresses, --host and --allowed-host names (negative of the above)", async () => {
    const port = portOf(sandbox.origin);
    for (const host of [
      "localhost",
      "app.localhost",
      "127.0.0.1",
      "[::1]",
      "10.1.2.3",
      "sandbox.test",
      "SANDBOX.TEST.",
    ]) {
      const res = await raw(port, ["GET /v1/me HTTP/1.1", `Host: ${host}:${port}`, `Authorization: Bearer ${ACME}`]);
      expect(res.status, host).toBe(200);
    }
  });
});

describe("the CORS preflight", () => {
  const preflight = (origin: string) =>
    fetch(`${sandbox.origin}/__sandbox/reset`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-sandbox-control, content-type",
      },
    });

  it("does not allow the control header, or anything, to a foreign origin", async () => {
    const res = await preflight("https://evil.example");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-headers")).toBeNull();
  });

  it("allows it to the sandbox's own origin (negative)", async () => {
    const res = await preflight(sandbox.origin);
    expect(res.headers.get("access-control-allow-headers")).toBe("x-sandbox-control, content-type");
  });
});

describe("a request without a Host header", () => {
  it("gets a 400 with a body in the reference's shape from both servers", async () => {
    for (const [name, port] of servers()) {
      const res = await raw(port, ["GET /v1/me HTTP/1.1"]);
      expect(res.status, name).toBe(400);
      expect(JSON.parse(res.body).error, name).toEqual({
        type: "invalid_request",
        message: "A request needs a Host header",
      });
    }
  });
});

describe("the request log", () => {
  it("cannot be forged: control bytes in a path are escaped, one request is one line (both servers)", async () => {
    for (const [name, port, auth] of servers()) {
      const log = name === "sandbox" ? sandboxLog : mockLog;
      const before = log.length;
      const paths = [
        "/v1/lists/x%0d%0aGET%20%2Fv1%2Fme%20200%201.0%20ms",
        "/v1/people/%1b%5b31mred",
        // Not UTF-8: refused before the core, and still one line.
        "/v1/people/%ff%0a",
      ];
      for (const path of paths) await raw(port, [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", `Authorization: ${auth}`]);
      await vi.waitFor(() => expect(log.length, name).toBe(before + paths.length));
      for (const line of log.slice(before)) {
        expect(controlCharacters(line), name).toEqual([]);
        expect(line.split("\n"), name).toHaveLength(1);
      }
      expect(log.slice(before).join("\n"), name).not.toMatch(/\nGET \/v1\/me 200/);
    }
  });
});

describe("a storage failure (the disk full)", () => {
  it("answers 500, logs the reason without --log, and reads still answer 200", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-full-"));
    const lines: string[] = [];
    const sb = await startSandbox({
      graph: fixtureGraphInput(),
      host: "127.0.0.1",
      port: 0,
      rateLimit: false,
      jobSpeed: 0,
      stateFile: join(dir, "state.db"),
      requestLog: (line) => lines.push(line),
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const read = async (path: string) =>
      (await fetch(`${sb.baseUrl}${path}`, { headers: { authorization: `Bearer ${ACME}` } })).status;
    try {
      expect(await read("/lists")).toBe(200); // creates (and stores) Acme's default List
      const storage = sb.ctx.storage!;
      storage.write = () => {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      };
      const post = await fetch(`${sb.baseUrl}/lists`, {
        method: "POST",
        headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Not stored" }),
      });
      expect(post.status).toBe(500);
      const said = errors.mock.calls.flat().join("\n");
      expect(said).toMatch(/sandbox: sandbox state could not be saved: ENOSPC: no space left on device/);
      await vi.waitFor(() => expect(lines.join("\n")).toMatch(/POST \/v1\/lists 500 .* ms server_error: /));
      for (const path of ["/me", "/lists", "/people?limit=1"]) expect(await read(path), path).toBe(200);
    } finally {
      errors.mockRestore();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
