// The mock's front layer against the small fixture spec: /v1 paths, Prefer, error mapping, CORS.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createContractValidator, formatErrors } from "../../contract-core/index.js";
import { startMock, type RunningMock } from "./server.js";
import { call, errorMessage, failure, type CallOptions } from "./testing.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/openapi.yaml", import.meta.url));
const contract = createContractValidator(FIXTURE);
const TARGET = "/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/members";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, spec: FIXTURE, quiet: true });
});
afterAll(async () => {
  await mock?.close();
});

/** Calls the mock; the answer must be documented for the operation (request side not checked). */
async function documented(options: CallOptions) {
  const result = await call(mock.baseUrl, options);
  const check = contract.validateResponse(result.exchange);
  expect(check.valid, formatErrors(check)).toBe(true);
  return result;
}

async function invalid(options: CallOptions): Promise<string> {
  return failure(await documented(options), 400, "invalid_request");
}

describe("valid requests", () => {
  it("serves the spec's paths under /v1 on 127.0.0.1", async () => {
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const result = await call(mock.baseUrl, { path: "/people?limit=2" });
    expect(result.status).toBe(200);
    expect(contract.validate(result.exchange).valid).toBe(true);
    expect((result.body as { data: unknown[] }).data[0]).toEqual({ slug: "priya-raman", full_name: "Priya Raman" });
  });

  it("accepts the X-Api-Key alternative", async () => {
    const result = await call(mock.baseUrl, {
      path: "/people/priya-raman",
      auth: false,
      headers: { "x-api-key": "k" },
    });
    expect(result.status).toBe(200);
  });

  it("answers a body-less 204 to DELETE", async () => {
    const result = await documented({ method: "DELETE", path: "/lists/8d3f1a2b-4c5d-4e6f-8a7b-9c0d1e2f3a4b" });
    expect(result.status).toBe(204);
    expect(result.body).toBeNull();
    expect(result.headers.get("content-type")).toBeNull();
  });

  it("a valid body passes", async () => {
    const result = await documented({ method: "POST", path: TARGET, body: { status: "watching" } });
    expect(result.status).toBe(200);
  });
});

describe("Prefer", () => {
  it("example=<name> picks a named example", async () => {
    const result = await documented({ path: "/people", headers: { prefer: "example=compact" } });
    expect((result.body as { data: unknown[] }).data).toEqual([{ slug: "priya-raman", name: "Priya Raman" }]);
  });

  it("the __example query parameter works without a Prefer header and is not validated as input", async () => {
    const result = await documented({ path: "/people?__example=compact" });
    expect((result.body as { data: unknown[] }).data).toHaveLength(1);
  });

  it.each([
    [402, "payment_required"],
    [404, "not_found"],
    [409, "conflict"],
  ])("code=%i answers the documented error shape", async (code, type) => {
    const path = code === 409 ? TARGET : "/people/priya-raman";
    const result = await documented({
      method: code === 409 ? "POST" : "GET",
      path,
      body: code === 409 ? { status: "watching" } : undefined,
      headers: { prefer: `code=${code}` },
    });
    failure(result, code, type);
  });

  it("code=429 answers the framework shape with Retry-After", async () => {
    const result = await documented({ path: "/people", headers: { prefer: "code=429" } });
    expect(result.status).toBe(429);
    expect(result.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(result.body).toMatchObject({ statusCode: 429, error: "Too Many Requests" });
  });

  it("an undocumented code or unknown example name is a 400 naming it, never Prism's problem+json", async () => {
    expect(await invalid({ path: "/people", headers: { prefer: "code=409" } })).toContain("documents no 409 response");
    expect(await invalid({ path: "/people", headers: { prefer: "example=nope" } })).toContain(
      'no example named "nope"',
    );
    expect(await invalid({ path: "/people", headers: { prefer: "code=abc" } })).toContain("3-digit");
    expect(await invalid({ path: "/people", headers: { prefer: "dynamic=maybe" } })).toContain("true or false");
    expect(await invalid({ path: "/people", headers: { prefer: "latency=soon" } })).toMatch(/^Prefer latency /);
  });

  it("latency=<ms> delays the answer and is echoed in Preference-Applied", async () => {
    const started = performance.now();
    const result = await documented({ path: "/people", headers: { prefer: "latency=300, example=compact" } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.status).toBe(200);
    expect(result.headers.get("preference-applied")).toBe("latency=300, example=compact");
  });

  it("ignores an unsupported preference and does not list it as applied", async () => {
    const result = await documented({ path: "/people", headers: { prefer: "return=minimal, respond-async" } });
    expect(result.status).toBe(200);
    expect(result.headers.get("preference-applied")).toBeNull();
  });
});

describe("constraint violations: 400 invalid_request naming the violation", () => {
  it.each([
    ["limit=101", "/people?limit=101", "limit must be <= 100"],
    ["limit=0", "/people?limit=0", "limit must be >= 1"],
    ["nl of 401 characters", `/people?nl=${"a".repeat(401)}`, "nl must NOT have more than 400 characters"],
    ["unknown view", "/people?view=tiny", "view must be one of: full, compact"],
  ])("%s", async (_, path, message) => {
    expect(await invalid({ path })).toBe(message);
  });

  it("bad UUID in a path and a body without status: both named", async () => {
    const message = await invalid({ method: "POST", path: "/targets/not-a-uuid/members", body: { apply: "filter" } });
    expect(message).toContain("body must have required property 'status'");
    expect(message).toContain('id must match format "uuid"');
  });

  it("where the spec declares no 400, Prism's 422 becomes the same 400", async () => {
    const result = await call(mock.baseUrl, { path: "/events?limit=0" });
    expect(failure(result, 400, "invalid_request")).toBe("limit must be >= 1");
  });

  it("invalid JSON is a 400", async () => {
    expect(await invalid({ method: "POST", path: TARGET, body: '{"status":' })).toMatch(/^invalid JSON body/);
  });

  it("a valid request is not rejected (negative case)", async () => {
    const result = await call(mock.baseUrl, { path: "/people?limit=100&nl=" + "a".repeat(400) + "&view=compact" });
    expect(result.status).toBe(200);
  });
});

describe("credentials and unknown paths", () => {
  it("missing credentials: 401 unauthorized from the spec's example", async () => {
    const result = await documented({ path: "/people", auth: false });
    expect(failure(result, 401, "unauthorized")).toContain("Authorization");
  });

  it("credentials are checked before constraints", async () => {
    const result = await call(mock.baseUrl, { path: "/people?limit=101", auth: false });
    failure(result, 401, "unauthorized");
  });

  it("a malformed Authorization header is a 401 too", async () => {
    const result = await call(mock.baseUrl, { path: "/people", auth: false, headers: { authorization: "Basic abc" } });
    expect(result.status).toBe(401);
  });

  it.each([
    ["an unknown path under /v1", "GET", "/v1/nope"],
    ["a path without /v1", "GET", "/people"],
    ["an undocumented method", "PUT", "/v1/people"],
  ])("%s: 404 not_found", async (_, method, path) => {
    const origin = mock.baseUrl.slice(0, -"/v1".length);
    const result = await call(origin, { method, path });
    expect(result.status).toBe(404);
    expect(result.headers.get("content-type")).toBe("application/json");
    expect(errorMessage(result.body, "not_found")).toContain(path);
  });
});

describe("startup", () => {
  it("fails clearly when the spec is missing", async () => {
    await expect(startMock({ port: 0, spec: "/nonexistent/openapi.json", quiet: true })).rejects.toThrow(
      "/nonexistent/openapi.json not found",
    );
  });
});

describe("CORS", () => {
  it("answers preflights and opens responses to any origin, without credentials (keys travel in headers)", async () => {
    const origin = "http://localhost:5173";
    const pre = await fetch(`${mock.baseUrl}/people`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,prefer",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toBe("authorization,prefer");
    const result = await call(mock.baseUrl, { path: "/people", headers: { origin } });
    expect(result.headers.get("access-control-allow-origin")).toBe("*");
    expect(result.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("MOCK_VALIDATE / validateResponses", () => {
  async function warningsFor(validateResponses: boolean | undefined): Promise<string> {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const noisy = await startMock({
      port: 0,
      spec: FIXTURE,
      ...(validateResponses === undefined ? {} : { validateResponses }),
    });
    try {
      const result = await call(noisy.baseUrl, { path: "/people", headers: { prefer: "example=broken" } });
      expect(result.status).toBe(200);
      await call(noisy.baseUrl, { path: "/people", headers: { prefer: "example=broken" } });
      return write.mock.calls.map((c) => String(c[0])).join("");
    } finally {
      write.mockRestore();
      await noisy.close();
    }
  }

  it("warns once when an example breaks its schema", async () => {
    const out = await warningsFor(true);
    expect(out).toMatch(/^mock: the spec's example response to GET \/v1\/people \(200\) violates the spec: .*data/);
    expect(out.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("is off by default", async () => {
    expect(await warningsFor(undefined)).toBe("");
  });
});
