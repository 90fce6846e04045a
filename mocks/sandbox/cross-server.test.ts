/**
 * The mock and the sandbox answer the same invalid requests the same way: for each kind of violation
 * (type, range, enum, required, pattern, unknown path, bad JSON, missing key, bad Prefer, a repeated
 * single-value parameter, a body nested beyond the bound) both servers,
 * started on free loopback ports, give the same status, error type and message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../prism/server.js";
import { call, type CallOptions } from "../prism/testing.js";
import { startSandbox, type RunningSandbox } from "./server.js";
import { fixtureGraphInput } from "./data/fixture.js";
import { KEYS } from "./auth.js";

let mock: RunningMock;
let sandbox: RunningSandbox;

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ port: 0, quiet: true }),
    startSandbox({ graph: fixtureGraphInput(), host: "127.0.0.1", port: 0, rateLimit: false, jobSpeed: 0 }),
  ]);
});

afterAll(async () => {
  await Promise.all([mock?.close(), sandbox?.close()]);
});

const TARGET = "/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/members";
const CASES: [kind: string, request: CallOptions][] = [
  ["type", { path: "/people?limit=many" }],
  ["range", { path: "/people?limit=101" }],
  ["enum", { path: "/people?view=tiny" }],
  ["required (body)", { method: "POST", path: TARGET, body: {} }],
  ["pattern", { path: "/targets/not-a-uuid" }],
  ["unknown path", { path: "/peoples" }],
  ["path outside the base path", { path: "/../nowhere" }],
  ["bad JSON", { method: "POST", path: TARGET, body: '{"status":' }],
  ["missing key", { path: "/people", auth: false }],
  ["bad Prefer value", { path: "/people", headers: { prefer: "code=abc" } }],
  ["repeated single-value parameter", { path: "/people?skills=a&skills=b" }],
  ["repeated integer parameter", { path: "/people?limit=1&limit=2" }],
  ["nested body", { method: "POST", path: TARGET, body: `{"status":${"[".repeat(40)}${"]".repeat(40)}}` }],
];

function asError(body: unknown): { type?: unknown; message?: unknown } {
  return (body as { error?: { type?: unknown; message?: unknown } } | null)?.error ?? {};
}

describe("the mock and the sandbox describe invalid requests in the same words", () => {
  it.each(CASES)("%s", async (_kind, request) => {
    // Each server's own valid key: the mock takes any Bearer token, the sandbox its test keys.
    const withKey = (key: string): CallOptions => ({
      ...request,
      headers: { ...(request.auth === false ? {} : { authorization: `Bearer ${key}` }), ...request.headers },
      auth: false,
    });
    const fromMock = await call(mock.baseUrl, withKey("test"));
    const fromSandbox = await call(sandbox.baseUrl, withKey(KEYS[0]!.key));
    expect(fromSandbox.status, "status").toBe(fromMock.status);
    expect(fromSandbox.status).toBeGreaterThanOrEqual(400);
    const [m, s] = [asError(fromMock.body), asError(fromSandbox.body)];
    expect(typeof m.message, JSON.stringify(fromMock.body)).toBe("string");
    expect({ type: s.type, message: s.message }).toEqual({ type: m.type, message: m.message });
  });
});
