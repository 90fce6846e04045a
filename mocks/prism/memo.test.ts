// The memo (memo.ts) against the real spec: for every operation, documented examples and the error
// cases, the memoized answer is the one Prism gives when it answers every call itself; a header Prism
// reads, the query, or a preference gives another answer; dynamic answers and bodies are never memoized.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, OPERATIONS, loadSpec, parsePrefer } from "../../contract-core/index.js";
import { listOperations, type OpenApiDoc } from "../../scripts/docs/openapi.js";
import { requestUrl, sampleRequest } from "../../scripts/docs/code-samples.js";
import { concreteStatus, responsesOf } from "../../scripts/examples-list.js";
import { createEngine, type Engine, type EngineRequest } from "./engine.js";
import type { MockReply } from "./errors.js";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createMemo, headersPrismReads } from "./memo.js";
import { MOCK_PREFERENCES, startMock, type RunningMock } from "./server.js";

const doc = loadSpec(DEFAULT_SPEC_PATH) as OpenApiDoc;
const AUTH = { authorization: "Bearer test" };

interface Case {
  name: string;
  method: string;
  /** Path under /v1, with query. */
  url: string;
  headers: Record<string, string>;
}

/**
 * The cases meet each distinct path through the memo's key once rather than every combination: each
 * operation's sample request (as the docs show it: every route, with and without a body), and on the first
 * GET and the first POST operation every variant the key must tell apart (credentials, Accept, a header
 * parameter, Prefer code and example), plus every documented Prefer of the first operation.
 */
const operations = listOperations(doc);
const firstGet = operations.find((op) => op.method === "get")!;
const firstPost = operations.find((op) => op.method === "post")!;
const cases: Case[] = operations.flatMap((op): Case[] => {
  const method = op.method.toUpperCase();
  const url = requestUrl({ ...sampleRequest(doc, op, []), baseUrl: "" });
  const label = `${method} ${url}`;
  const sample = { name: label, method, url, headers: AUTH };
  if (op !== firstGet && op !== firstPost) return [sample];
  const prefers =
    op !== firstGet
      ? []
      : responsesOf(doc as never, op.operation as never).flatMap((entry) =>
          entry.rows.map((row) =>
            [`code=${concreteStatus(row.status)}`, ...(row.name ? [`example=${row.name}`] : [])].join(", "),
          ),
        );
  return [
    sample,
    { name: `${label} without credentials`, method, url, headers: {} },
    { name: `${label} with X-Api-Key`, method, url, headers: { "x-api-key": "k" } },
    { name: `${label} with Basic credentials`, method, url, headers: { authorization: "Basic dTpw" } },
    { name: `${label} accepting only XML`, method, url, headers: { ...AUTH, accept: "application/xml" } },
    { name: `${label} with a non-UUID org header`, method, url, headers: { ...AUTH, "x-service-org-id": "nope" } },
    { name: `${label} Prefer code=418`, method, url, headers: { ...AUTH, prefer: "code=418" } },
    { name: `${label} Prefer example=nope`, method, url, headers: { ...AUTH, prefer: "example=nope" } },
    ...prefers.map((prefer) => ({ name: `${label} Prefer ${prefer}`, method, url, headers: { ...AUTH, prefer } })),
  ];
});
cases.push(
  ...[
    "/people?limit=101",
    "/people?limit=1e2",
    "/people?keywords=",
    "/people?view=nope",
    "/people?view=compact",
    "/people?limit=2&offset=2",
    "/people?limit=25&offset=25",
    "/people?__example=compact_page",
    "/targets/not-a-uuid",
  ].map((url) => ({ name: `GET ${url}`, method: "GET", url, headers: AUTH })),
);

function engineRequest(c: Case): { request: EngineRequest; preferences: Parameters<Engine["handle"]>[1] } {
  const url = new URL(c.url, "http://mock.invalid");
  const parsed = parsePrefer(c.headers.prefer, MOCK_PREFERENCES, url.searchParams);
  if (!parsed.ok) throw new Error(parsed.message);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return {
    request: {
      method: c.method,
      path: url.pathname,
      label: `${c.method} /v1${url.pathname}`,
      query,
      headers: { host: "mock.invalid", ...c.headers },
      body: undefined,
      bodyBytes: 0,
    },
    preferences: parsed.preferences,
  };
}

let memoized: Engine;
let prism: Engine;
beforeAll(async () => {
  [memoized, prism] = await Promise.all([
    createEngine({ spec: DEFAULT_SPEC_PATH, mode: { kind: "mock" }, validateResponses: false }),
    createEngine({ spec: DEFAULT_SPEC_PATH, mode: { kind: "mock" }, validateResponses: false, memoize: false }),
  ]);
});

async function ask(engine: Engine, c: Case): Promise<MockReply> {
  const { request, preferences } = engineRequest(c);
  return engine.handle(request, preferences);
}

describe("a memoized answer is Prism's own", () => {
  it("covers every operation, the documented examples of one and the error cases", () => {
    expect(new Set(cases.map((c) => `${c.method} ${c.url.split("?")[0]}`)).size).toBeGreaterThanOrEqual(
      OPERATIONS.length,
    );
    expect(cases.some((c) => c.headers.prefer?.startsWith("example="))).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const first = await ask(memoized, c);
    const again = await ask(memoized, c);
    const fresh = await ask(prism, c);
    expect(again).toBe(first); // served from the memo, not recomputed
    expect(again).toEqual(fresh);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(fresh.body)); // same key order, same bytes
  });

  it("without the memo every call is answered anew", async () => {
    const c = cases[0]!;
    expect(await ask(prism, c)).not.toBe(await ask(prism, c));
  });
});

describe("what the memo tells apart", () => {
  const people: Case = { name: "search", method: "GET", url: "/people?limit=2", headers: AUTH };
  const variant = (changes: Partial<Case>): Case => ({ ...people, ...changes });

  it.each([
    ["no credentials", variant({ headers: {} }), 401],
    ["Basic credentials", variant({ headers: { authorization: "Basic dTpw" } }), 401],
    ["an empty Authorization", variant({ headers: { authorization: "" } }), 401],
    ["a query that breaks the spec", variant({ url: "/people?limit=101" }), 400],
    ["an Accept the operation cannot answer", variant({ headers: { ...AUTH, accept: "text/csv" } }), 400],
    ["Prefer code=402", variant({ headers: { ...AUTH, prefer: "code=402" } }), 402],
  ] as const)("after a memoized 200, %s gets Prism's other answer", async (_, c, status) => {
    expect((await ask(memoized, people)).status).toBe(200);
    expect((await ask(memoized, people)).status).toBe(200);
    const reply = await ask(memoized, c);
    expect(reply.status).toBe(status);
    expect(reply).toEqual(await ask(prism, c));
  });

  it("another example or page is another answer", async () => {
    const full = await ask(memoized, variant({ url: "/people?limit=25" }));
    const compact = await ask(memoized, variant({ url: "/people?limit=25&view=compact" }));
    const named = await ask(
      memoized,
      variant({ url: "/people?limit=25", headers: { ...AUTH, prefer: "example=last_page" } }),
    );
    expect(compact.body).not.toEqual(full.body);
    expect(named.body).not.toEqual(full.body);
    expect(named).toEqual(
      await ask(prism, variant({ url: "/people?limit=25", headers: { ...AUTH, prefer: "example=last_page" } })),
    );
  });

  it("never memoizes a dynamic answer", async () => {
    const dynamic = variant({ url: "/people/priya-raman", headers: { ...AUTH, prefer: "dynamic=true" } });
    const a = await ask(memoized, dynamic);
    const b = await ask(memoized, dynamic);
    expect(a.status).toBe(200);
    expect(b).not.toBe(a);
    expect(b.body).not.toEqual(a.body);
  });

  it("never memoizes a request with a body", async () => {
    const { request, preferences } = engineRequest(
      variant({ method: "POST", url: "/targets", headers: { ...AUTH, "content-type": "application/json" } }),
    );
    const withBody = { ...request, body: { input: "Northwind Labs" }, bodyBytes: 26 };
    const a = await memoized.handle(withBody, preferences);
    const b = await memoized.handle({ ...withBody, body: { input: 5 } }, preferences);
    expect(a.status).toBe(200);
    expect(b.status).toBe(400);
  });
});

describe("the memo key", () => {
  it("lists the headers Prism reads: negotiation, body checks, both security schemes, header parameters", async () => {
    const names = headersPrismReads(await getHttpOperationsFromSpec(DEFAULT_SPEC_PATH));
    expect(names).toEqual(
      expect.arrayContaining([
        "accept",
        "authorization",
        "content-type",
        "content-length",
        "x-api-key",
        "x-service-org-id",
      ]),
    );
    expect(names).not.toContain("host");
  });

  it("tells a missing header from an empty one, and has no key for a dynamic answer", async () => {
    const memo = createMemo<number>(await getHttpOperationsFromSpec(DEFAULT_SPEC_PATH));
    const request = { method: "GET", path: "/people", label: "GET /v1/people", query: {}, headers: {} };
    const bare = memo.keyOf(request, {});
    expect(bare).toBeDefined();
    expect(memo.keyOf({ ...request, headers: { authorization: "" } }, {})).not.toBe(bare);
    expect(memo.keyOf({ ...request, headers: { "user-agent": "curl" } }, {})).toBe(bare);
    expect(memo.keyOf({ ...request, query: { limit: "2" } }, {})).not.toBe(bare);
    expect(memo.keyOf(request, { code: 404 })).not.toBe(bare);
    expect(memo.keyOf(request, { dynamic: true })).toBeUndefined();
    expect(memo.keyOf({ ...request, query: { q: "x".repeat(5000) } }, {})).toBeUndefined();
  });
});

describe("over HTTP", () => {
  let fast: RunningMock;
  let plain: RunningMock;
  beforeAll(async () => {
    [fast, plain] = await Promise.all([
      startMock({ port: 0, quiet: true }),
      startMock({ port: 0, quiet: true, memoize: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([fast?.close(), plain?.close()]);
  });

  it.each(["/people?limit=25&view=full", "/people/priya-raman", "/people?limit=101", "/nope"])(
    "%s: the same status, headers and bytes as Prism answering every call",
    async (path) => {
      const get = async (base: string) => {
        const res = await fetch(base + path, { headers: AUTH });
        const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "date"));
        return { status: res.status, headers, body: await res.text() };
      };
      const first = await get(fast.baseUrl);
      expect(await get(fast.baseUrl)).toEqual(first);
      expect(first).toEqual(await get(plain.baseUrl));
      expect(first.body.length).toBeGreaterThan(0);
    },
  );
});
