import { describe, expect, it } from "vitest";
import { TalentGraphError, isTalentGraphError, unwrap } from "./index.js";
import { API_KEY, ORG_ID, json, sequence, testClient } from "./fixtures/fake.js";

const rate = { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "17" };

describe("TalentGraphError", () => {
  it("takes type and message from an application error", () => {
    const body = {
      error: { type: "certification_target_unsupported", message: "certification filters are not supported" },
    };
    const error = new TalentGraphError(json(body, 400, rate), body);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "TalentGraphError",
      status: 400,
      type: "certification_target_unsupported",
      message: "certification filters are not supported",
      rateLimit: { limit: 300, remaining: 0, reset: 17, retryAfter: null },
      body,
    });
    expect(error.response.status).toBe(400);
  });

  it("derives the type of a 429 from the framework shape and keeps Retry-After", () => {
    const body = { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded, retry in 1 minute" };
    const error = new TalentGraphError(json(body, 429, { ...rate, "retry-after": "60" }), body);
    expect(error).toMatchObject({
      status: 429,
      type: "too_many_requests",
      message: "Rate limit exceeded, retry in 1 minute",
    });
    expect(error.rateLimit.retryAfter).toBe(60);
  });

  it("maps a framework-shaped 400 to invalid_request, as the reference's table does", () => {
    const body = { statusCode: 400, error: "Bad Request", message: "querystring/limit must be <= 100" };
    expect(new TalentGraphError(json(body, 400), body)).toMatchObject({
      type: "invalid_request",
      message: "querystring/limit must be <= 100",
    });
  });

  it.each([
    [401, "unauthorized"],
    [402, "payment_required"],
    [404, "not_found"],
    [409, "conflict"],
  ])("uses the reference's type for a %i without an application body", (code, type) => {
    expect(new TalentGraphError(new Response("", { status: code }), "").type).toBe(type);
  });

  it("describes a body in neither shape by the HTTP status and reason", () => {
    const response = new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" });
    expect(new TalentGraphError(response, "<html>bad gateway</html>")).toMatchObject({
      status: 502,
      type: "bad_gateway",
      message: "HTTP 502 Bad Gateway",
    });
    expect(new TalentGraphError(new Response(null, { status: 503 }), undefined)).toMatchObject({
      type: "http_503",
      message: "HTTP 503",
    });
  });

  it("serialises without the response or any request header", () => {
    const body = { error: { type: "unauthorized", message: "Provide a valid API key in the Authorization header" } };
    const error = new TalentGraphError(json(body, 401), body);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "TalentGraphError",
      status: 401,
      type: "unauthorized",
      message: "Provide a valid API key in the Authorization header",
      rateLimit: { limit: null, remaining: null, reset: null, retryAfter: null },
    });
  });
});

describe("isTalentGraphError", () => {
  it("accepts TalentGraphError instances, also from another copy of the module", () => {
    const error = new TalentGraphError(new Response(null, { status: 500 }), undefined);
    expect(isTalentGraphError(error)).toBe(true);
    const foreign = Object.defineProperty(new Error("x"), Symbol.for("talent-graph.TalentGraphError"), { value: true });
    expect(isTalentGraphError(foreign)).toBe(true);
  });
  it.each([
    ["an Error", new Error("boom")],
    ["a look-alike object", { name: "TalentGraphError", status: 404, type: "not_found", message: "x" }],
    ["an error body", { error: { type: "not_found", message: "x" } }],
    ["null", null],
    ["a string", "TalentGraphError"],
  ])("rejects %s", (_name, value) => {
    expect(isTalentGraphError(value)).toBe(false);
  });
});

describe("unwrap", () => {
  it("returns the body of a successful result", async () => {
    const fetch = sequence(() => json({ data: { slug: "priya-raman", full_name: "Priya Raman", network_url: "u" } }));
    const { client } = testClient(fetch);
    const { data } = unwrap(await client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } }));
    expect(data.full_name).toBe("Priya Raman");
  });

  it("returns undefined for a 204", async () => {
    const fetch = sequence(() => new Response(null, { status: 204 }));
    const { client } = testClient(fetch);
    expect(unwrap(await client.DELETE("/lists/{id}", { params: { path: { id: ORG_ID } } }))).toBeUndefined();
  });

  it("throws a TalentGraphError for an error result; the raw response stays reachable", async () => {
    const body = { error: { type: "not_found", message: "person not found" } };
    const fetch = sequence(() => json(body, 404, rate));
    const { client } = testClient(fetch);
    const result = await client.GET("/people/{slug}", { params: { path: { slug: "nobody" } } });
    let caught: unknown;
    try {
      unwrap(result);
    } catch (error) {
      caught = error;
    }
    expect(isTalentGraphError(caught)).toBe(true);
    expect(caught).toMatchObject({ status: 404, type: "not_found", message: "person not found", body });
    expect((caught as TalentGraphError).response).toBe(result.response);
    expect((caught as TalentGraphError).rateLimit.remaining).toBe(0);
    expect(JSON.stringify(caught)).not.toContain(API_KEY);
  });

  it("throws for an error status without a body", async () => {
    const fetch = sequence(() => new Response(null, { status: 404 }));
    const { client } = testClient(fetch);
    const result = await client.DELETE("/lists/{id}", { params: { path: { id: ORG_ID } } });
    expect(() => unwrap(result)).toThrow(TalentGraphError);
  });
});
