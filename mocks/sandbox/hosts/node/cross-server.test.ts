/**
 * The mock and the sandbox answer the same invalid requests the same way: for each kind of violation
 * (type, range, enum, required, pattern, a rule tying parameters together, unknown path, bad JSON, missing
 * key, bad Prefer, a repeated single-value parameter, a body nested beyond the bound, no key with a body over
 * the limit or a query the mock checks before Prism, an empty JSON body, a path that is not UTF-8) both servers, started
 * on free loopback ports, give the same status, error type and message. And both accept each value the spec
 * relaxed to what the reference accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { call, type CallOptions } from "../../../prism/testing.js";
import { startSandbox, type RunningSandbox } from "./server.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { KEYS } from "../../contract/auth.js";

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
  ["length after trimming (a pattern)", { method: "POST", path: "/lists", body: { name: ` ${"n".repeat(81)} ` } }],
  ["parameter dependency (x-requires)", { path: "/people?min_role_months=3" }],
  ["parameter dependency before a range", { path: "/people?min_role_months=3&limit=500" }],
  ["unknown path", { path: "/peoples" }],
  ["path outside the base path", { path: "/../nowhere" }],
  ["bad JSON", { method: "POST", path: TARGET, body: '{"status":' }],
  ["missing key", { path: "/people", auth: false }],
  ["bad Prefer value", { path: "/people", headers: { prefer: "code=abc" } }],
  ["repeated single-value parameter", { path: "/people?skills=a&skills=b" }],
  ["repeated integer parameter", { path: "/people?limit=1&limit=2" }],
  ["nested body", { method: "POST", path: TARGET, body: `{"status":${"[".repeat(40)}${"]".repeat(40)}}` }],
  ["missing key with an integer the mock checks itself", { path: "/people?limit=1e2", auth: false }],
  ["missing key with a broken parameter dependency", { path: "/people?min_role_months=3", auth: false }],
  ["missing key with a body over 1 MiB", { method: "POST", path: "/lists", body: "x".repeat(2 << 20), auth: false }],
  ["empty JSON body", { method: "POST", path: "/lists", body: "" }],
  ["invalid UTF-8 in the path", { path: "/people/%ff%fe" }],
  [
    "a body that is not JSON to POST /targets/{id}/retry",
    { method: "POST", path: "/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/retry", body: "{not json" },
  ],
  ["blank Target input", { method: "POST", path: "/targets", body: { input: "   ", kind: "people" } }],
  [
    "a name of 81 emoji (code points, as the pattern counts)",
    { method: "POST", path: "/lists", body: { name: "😀".repeat(81) } },
  ],
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

/** Each server's own valid key: the mock takes any Bearer token, the sandbox its test keys. */
async function both(request: CallOptions): Promise<[number, number]> {
  const withKey = (key: string): CallOptions => ({
    ...request,
    headers: { authorization: `Bearer ${key}`, ...request.headers },
    auth: false,
  });
  const [m, s] = await Promise.all([call(mock.baseUrl, withKey("test")), call(sandbox.baseUrl, withKey(KEYS[0]!.key))]);
  return [m.status, s.status];
}

describe("the mock and the sandbox accept each relaxed value (spec/DECISIONS.md 10, 20, 21, 23, 29, 34)", () => {
  const padded = `  ${"n".repeat(80)}  `;
  const relaxed: [kind: string, request: CallOptions | ((target: string) => CallOptions)][] = [
    ["non-UUID X-Service-Org-Id with a customer key", { path: "/me", headers: { "x-service-org-id": "acme" } }],
    ["offset above int32", { path: "/people?offset=3000000000" }],
    ["min_company_months above int32", { path: "/people?company=northwind&min_company_months=3000000000" }],
    ["min_role_months above int32", { path: "/people?role_family=engineering&min_role_months=3000000000" }],
    [
      "saved-query name of 80 characters plus spaces",
      { method: "POST", path: "/queries", body: { name: padded, query: {} } },
    ],
    ["List name of 80 characters plus spaces", { method: "POST", path: "/lists", body: { name: padded } }],
    [
      "a name of 80 emoji (code points, as the pattern counts)",
      { method: "POST", path: "/queries", body: { name: "😀".repeat(80), query: {} } },
    ],
    [
      "a Target title of 80 emoji",
      (t) => ({ method: "PATCH", path: `/targets/${t}`, body: { title: "😀".repeat(80) } }),
    ],
    [
      "member location list above 20 places of 121 characters (not framework-validated)",
      (t) => ({
        path: `/targets/${t}/members?location=${Array.from({ length: 21 }, (_, i) => `P${i}${"x".repeat(119)}`).join(";")}`,
      }),
    ],
    [
      "Slack channel values longer than stored",
      {
        method: "PUT",
        path: "/signals/preferences",
        body: { slack_channel_id: "C".repeat(70), slack_channel_name: "n".repeat(90) },
      },
    ],
    ["member status outside the documented set", (t) => ({ path: `/targets/${t}/members?status=pending` })],
    [
      "member stint and depth outside the documented set",
      (t) => ({ path: `/targets/${t}/members?stint=former&depth=deep` }),
    ],
    [
      "first_seen_after without an offset",
      (t) => ({ path: `/targets/${t}/members?first_seen_after=2026-01-01T00:00:00` }),
    ],
    [
      "member limit and offset above int32",
      (t) => ({ path: `/targets/${t}/members?limit=3000000000&offset=3000000000` }),
    ],
    [
      "a JSON body to POST /targets/{id}/retry, which takes none: ignored",
      (t) => ({ method: "POST", path: `/targets/${t}/retry`, body: { force: true } }),
    ],
    ["since as a reduced-precision date", { path: "/events?since=2026-11" }],
    ["since at 24:00 with a basic offset", { path: "/events?since=2026-11-18T24:00%2B0100" }],
  ];
  let target = "";
  beforeAll(async () => {
    const created = await call(sandbox.baseUrl, {
      method: "POST",
      path: "/targets",
      body: { input: "Northwind Labs" },
      headers: { authorization: `Bearer ${KEYS[0]!.key}` },
      auth: false,
    });
    target = (created.body as { data: { id: string } }).data.id;
  });

  it.each(relaxed)("%s", async (_kind, request) => {
    const [fromMock, fromSandbox] = await both(typeof request === "function" ? request(target) : request);
    expect(fromMock, "mock").toBeLessThan(300);
    expect(fromSandbox, "sandbox").toBe(fromMock);
  });
});

describe("Preference-Applied names only what the answer honoured, on both servers", () => {
  const cases: [kind: string, request: CallOptions, status: number, applied: string | null][] = [
    [
      "a keyless request: refused before Prefer is read",
      { path: "/people", headers: { prefer: "code=429" }, auth: false },
      401,
      null,
    ],
    ["an unknown path", { path: "/peoples", headers: { prefer: "code=200" } }, 404, null],
    ["a documented status, honoured", { path: "/people", headers: { prefer: "code=429" } }, 429, "code=429"],
  ];
  it.each(cases)("%s", async (_kind, request, status, applied) => {
    const withKey = (key: string): CallOptions => ({
      ...request,
      headers: { ...(request.auth === false ? {} : { authorization: `Bearer ${key}` }), ...request.headers },
      auth: false,
    });
    const [fromMock, fromSandbox] = await Promise.all([
      call(mock.baseUrl, withKey("test")),
      call(sandbox.baseUrl, withKey(KEYS[0]!.key)),
    ]);
    for (const answer of [fromMock, fromSandbox]) {
      expect(answer.status).toBe(status);
      expect(answer.headers.get("preference-applied")).toBe(applied);
    }
  });
});

describe("HEAD on a GET route answers as GET without a body, on both servers", () => {
  it.each(["/people?limit=1", "/lists", "/me", "/people/priya-raman"])("HEAD %s", async (path) => {
    for (const [base, key] of [
      [mock.baseUrl, "test"],
      [sandbox.baseUrl, KEYS[0]!.key],
    ] as const) {
      const headers = { authorization: `Bearer ${key}` };
      const get = await fetch(`${base}${path}`, { headers });
      const head = await fetch(`${base}${path}`, { method: "HEAD", headers });
      expect({ base, status: head.status }).toEqual({ base, status: get.status });
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(await head.text()).toBe("");
      await get.text();
    }
  });
});
