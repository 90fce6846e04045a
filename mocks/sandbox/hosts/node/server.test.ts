/** Server behaviour: keys and organizations, errors, Prefer, rate limit. Every response is contract-validated. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../../../contract-core/index.js";
import { ORGS } from "../../contract/auth.js";
import type { Area } from "../../contract/context.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { peopleArea } from "../../areas/people.js";
import {
  openFastifySandbox as openSandbox,
  testKey,
  type FastifyTestSandbox as TestSandbox,
} from "../../testing/harness.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await openSandbox({ graph: fixtureGraphInput() });
});
afterAll(async () => {
  await sb?.close();
});

const UNLIMITED_INCLUDED = 1000;

describe("authentication", () => {
  it("accepts a customer key as Authorization: Bearer and as X-Api-Key", async () => {
    expect((await sb.get("/people?limit=1", { key: "acme" })).status).toBe(200);
    expect((await sb.get("/people?limit=1", { key: "acme", via: "x-api-key" })).status).toBe(200);
  });

  it.each([
    ["no key", null, {}],
    ["revoked key", "revoked", {}],
    ["unknown key", "tgsb_acme_0000000000000000", {}],
    ["Basic scheme", null, { authorization: `Basic ${testKey("acme")}` }],
    ["Bearer without a token", null, { authorization: "Bearer " }],
  ] as const)(
    "401 unauthorized for %s, asking for a valid key in the Authorization header",
    async (_name, key, headers) => {
      const res = await sb.request("GET", "/people", { key, headers: { ...headers }, invalidRequest: true });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: { type: "unauthorized", message: "A valid API key is required in the Authorization header" },
      });
    },
  );

  it("a non-empty X-Api-Key wins over Authorization", async () => {
    const revokedWins = await sb.request("GET", "/people", {
      key: "acme",
      headers: { "x-api-key": testKey("revoked") },
      invalidRequest: true,
    });
    expect(revokedWins.status).toBe(401);
    const globex = await sb.get("/me", { key: "revoked", headers: { "x-api-key": testKey("globex") } });
    expect(globex.status).toBe(200);
    expect(globex.body.data.quota.watch_slots.included).toBe(0); // Globex (Index plan), not a 401
  });

  it("an empty X-Api-Key falls back to Authorization", async () => {
    const res = await sb.get("/me", { key: "acme", headers: { "x-api-key": "" } });
    expect(res.status).toBe(200);
    expect(res.body.data.quota.watch_slots.included).toBe(UNLIMITED_INCLUDED);
  });

  it("X-Service-Org-Id is ignored for a customer key", async () => {
    const res = await sb.get("/me", { key: "acme", headers: { "x-service-org-id": ORGS.globex.id } });
    expect(res.body.data.quota.watch_slots.included).toBe(UNLIMITED_INCLUDED);
  });

  it.each([
    ["without X-Service-Org-Id", {}],
    ["with a non-UUID X-Service-Org-Id", { "x-service-org-id": "globex" }],
  ])("platform key %s: 400 invalid_request", async (_name, headers) => {
    const res = await sb.request("GET", "/people", { key: "platform", headers, invalidRequest: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      type: "invalid_request",
      message: "X-Service-Org-Id header must be an organization UUID",
    });
  });

  it("platform key acts for the organization named by X-Service-Org-Id", async () => {
    const acme = await sb.get("/me", { key: "platform", headers: { "x-service-org-id": ORGS.acme.id } });
    expect(acme.body.data.quota.watch_slots).toMatchObject({
      included: UNLIMITED_INCLUDED,
      max: ORGS.acme.watchSlotsMax,
    });
    const globex = await sb.get("/me", { key: "platform", headers: { "x-service-org-id": ORGS.globex.id } });
    expect(globex.body.data.quota.watch_slots).toMatchObject({ included: 0, max: ORGS.globex.watchSlotsMax });
    const locked = await sb.request("GET", "/people", {
      key: "platform",
      headers: { "x-service-org-id": ORGS.initech.id },
      invalidRequest: true,
    });
    expect(locked.status).toBe(402);
  });

  it("the two customer organizations (and a platform key) see the same graph", async () => {
    const urls = [
      "/people?limit=100&include_flagged=true",
      "/people/priya-raman?include=coworkers,similar",
      "/companies/northwind-labs",
      "/suggest?q=certified",
    ];
    for (const url of urls) {
      const acme = await sb.get(url, { key: "acme" });
      const globex = await sb.get(url, { key: "globex" });
      const platform = await sb.get(url, {
        key: "platform",
        headers: { "x-service-org-id": "7d0f3c52-1e4b-4c8a-9f26-3b5a8e1d7c40" },
      });
      expect(acme.status).toBe(200);
      expect(globex.body).toEqual(acme.body);
      expect(platform.body).toEqual(acme.body);
    }
  });
});

describe("organization locked after its trial", () => {
  it("GET /me answers with access.allowed false", async () => {
    const res = await sb.get("/me", { key: "initech" });
    expect(res.status).toBe(200);
    expect(res.body.data.access).toEqual({ allowed: false });
  });

  it("every other operation of the spec answers 402 payment_required", async () => {
    const ops = sb.ctx.spec.operations.filter((op) => op.operationId !== "getAccount");
    expect(ops.length).toBe(OPERATIONS.length - 1);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, "3f1c9e2a-7b4d-4e8f-a6c5-1d2e3f4a5b6c");
      const res = await sb.request(op.method, path, { key: "initech", invalidRequest: true });
      expect(res.status, `${op.method} ${path}`).toBe(402);
      expect(res.body.error.type).toBe("payment_required");
    }
  });
});

describe("errors", () => {
  it("an invalid JSON body is a 400 invalid_request", async () => {
    const res = await sb.request("POST", "/queries", { body: "{not json", invalidRequest: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ type: "invalid_request", message: expect.stringMatching(/^invalid JSON body: /) });
  });

  it("a body that is not JSON is a 400 invalid_request", async () => {
    const res = await sb.request("POST", "/queries", {
      body: "name=x",
      headers: { "content-type": "text/plain" },
      invalidRequest: true,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ type: "invalid_request", message: "Content-Type must be application/json" });
  });

  it("a malformed percent-encoding in the path is a 400 invalid_request", async () => {
    const res = await sb.request("GET", "/people/%E0%A4%A", { invalidRequest: true });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("invalid_request");
  });

  it("a path outside the spec is a 404 in the reference's shape (not contract-checked: no operation)", async () => {
    const res = await sb.app.inject({
      method: "GET",
      url: "/v1/nowhere",
      headers: { authorization: `Bearer ${testKey("acme")}` },
    });
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toEqual({
      error: { type: "not_found", message: "GET /v1/nowhere is not an operation of this API" },
    });
  });

  it("an operation without a handler answers 500 server_error, and a throwing handler never crashes", async () => {
    const boom: Area = {
      name: "boom",
      handlers: {
        suggest: () => {
          throw new TypeError("boom");
        },
      },
    };
    const partial = await openSandbox({ graph: fixtureGraphInput() }, [peopleArea, boom]);
    try {
      const missing = await partial.request("GET", "/me");
      expect(missing.status).toBe(500);
      expect(missing.body.error.type).toBe("server_error");
      const thrown = await partial.request("GET", "/suggest?q=x");
      expect(thrown.status).toBe(500);
      expect(thrown.body).toEqual({
        error: { type: "server_error", message: "The sandbox failed to answer this request" },
      });
      expect((await partial.get("/people?limit=1")).status).toBe(200);
    } finally {
      await partial.close();
    }
  });
});

describe("Prefer", () => {
  it("code=<status> answers the documented example for that status", async () => {
    const res = await sb.request("GET", "/people/priya-raman", { headers: { prefer: "code=404" } });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe("not_found");
  });

  it("code=429 carries Retry-After", async () => {
    const res = await sb.request("GET", "/people", { headers: { prefer: "code=429" } });
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("30");
    expect(res.body).toMatchObject({ statusCode: 429, error: "Too Many Requests" });
  });

  it("example=<name> picks a named example", async () => {
    const res = await sb.request("GET", "/people", { headers: { prefer: "code=400, example=framework_validation" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, error: "Bad Request", message: "querystring/limit must be <= 100" });
  });

  it.each([
    ["an undocumented status", "code=404", "/people", /^GET \/v1\/people documents no 404 response/],
    ["a non-status", "code=abc", "/people", /^Prefer code must be a 3-digit HTTP status/],
    ["an unknown example", "code=400, example=nope", "/people", /has no example named "nope" for status 400/],
    [
      "an unknown example of the default answer",
      "example=nope",
      "/people",
      /^GET \/v1\/people has no example named "nope" \(/,
    ],
    ["a bad code in the query stand-in", "", "/people?__code=abc", /^Prefer code/],
    ["a bad latency", "latency=soon", "/people", /Prefer latency/],
  ])("400 for %s", async (_name, prefer, path, message) => {
    const res = await sb.request("GET", path, { headers: { prefer }, invalidRequest: true });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it("example=<name> alone picks a named example of the default answer, and Preference-Applied lists it", async () => {
    const res = await sb.request("GET", "/people?view=compact", { headers: { prefer: "example=compact_page" } });
    expect(res.status).toBe(200);
    expect(res.headers["preference-applied"]).toBe("example=compact_page");
  });

  it("unsupported preferences (dynamic, seed, return=minimal) are ignored and not listed", async () => {
    const res = await sb.request("GET", "/people?limit=1", {
      headers: { prefer: "dynamic=true, seed=4, return=minimal" },
    });
    expect(res.status).toBe(200);
    expect(res.headers["preference-applied"]).toBeUndefined();
    const bad = await sb.request("GET", "/people?limit=1", { headers: { prefer: "dynamic=maybe" } });
    expect(bad.status).toBe(200);
  });

  it("?__code= stands in for the header and is not validated as a query parameter", async () => {
    const res = await sb.request("GET", "/people/priya-raman?__code=404", { invalidRequest: true });
    expect(res.status).toBe(404);
    expect(res.headers["preference-applied"]).toBe("code=404");
  });

  it("latency=<ms> delays the answer (lower bound only)", async () => {
    const t0 = Date.now();
    const res = await sb.request("GET", "/people?limit=1", { headers: { prefer: "latency=60" } });
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it("--latency delays every answer (lower bound only)", async () => {
    const slow = await openSandbox({ graph: fixtureGraphInput(), latencyMs: 40 });
    try {
      const t0 = Date.now();
      await slow.get("/people?limit=1");
      expect(Date.now() - t0).toBeGreaterThanOrEqual(35);
    } finally {
      await slow.close();
    }
  });
});

describe("rate limit", () => {
  it("counts per client IP, sends x-ratelimit-* headers and answers 429 in the framework shape", async () => {
    const limited = await openSandbox({ graph: fixtureGraphInput(), rateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const first = await limited.get("/people?limit=1");
      expect(first.headers["x-ratelimit-limit"]).toBe("3");
      expect(first.headers["x-ratelimit-remaining"]).toBe("2");
      expect(Number(first.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
      await limited.get("/people?limit=1", { key: "globex" }); // per IP, not per key
      const unauthorized = await limited.request("GET", "/people", { key: null, invalidRequest: true });
      expect(unauthorized.headers["x-ratelimit-remaining"]).toBe("0");
      const over = await limited.get("/people?limit=1");
      expect(over.status).toBe(429);
      expect(over.body).toEqual({
        statusCode: 429,
        error: "Too Many Requests",
        message: expect.stringMatching(/^Rate limit exceeded, retry in \d+ seconds$/),
      });
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      const otherIp = await limited.app.inject({
        method: "GET",
        url: "/v1/people?limit=1",
        remoteAddress: "10.0.0.9",
        headers: { authorization: `Bearer ${testKey("acme")}` },
      });
      expect(otherIp.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("is off with rateLimit: false (no headers)", async () => {
    const res = await sb.get("/people?limit=1");
    expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
  });
});

describe("CORS", () => {
  it("answers preflight requests with 204 before authentication, and sets CORS headers on answers", async () => {
    const preflight = await sb.app.inject({
      method: "OPTIONS",
      url: "/v1/people",
      headers: { origin: "http://localhost:5173", "access-control-request-headers": "authorization" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-headers"]).toBe("authorization");
    const res = await sb.get("/people?limit=1", { headers: { origin: "http://localhost:5173" } });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-expose-headers"]).toContain("x-ratelimit-remaining");
  });
});
