import { describe, expect, it } from "vitest";
import { createTalentGraphClient } from "./index.js";
import { API_KEY, BASE_URL, ORG_ID, fakeFetch, json, sequence, testClient } from "./fixtures/fake.js";

const person = {
  data: { slug: "priya-raman", full_name: "Priya Raman", network_url: "https://network.example/in/priya-raman" },
};
const ok = () => json(person);

describe("createTalentGraphClient: requests", () => {
  it("builds the URL from baseUrl, the path and URL-encoded path values", async () => {
    const fetch = sequence(ok);
    const { client } = testClient(fetch, { baseUrl: `${BASE_URL}/` });
    const { data, error } = await client.GET("/people/{slug}", {
      params: { path: { slug: "https://network.example/in/priya raman" }, query: { include: "coworkers" } },
    });
    expect(error).toBeUndefined();
    expect(data?.data.full_name).toBe("Priya Raman");
    expect(fetch.calls[0]?.url.href).toBe(
      `${BASE_URL}/people/https%3A%2F%2Fnetwork.example%2Fin%2Fpriya%20raman?include=coworkers`,
    );
  });

  it("sends JSON bodies with Content-Type application/json", async () => {
    const fetch = sequence(() => json({ data: { id: ORG_ID, name: "Staff engineers" } }, 201));
    const { client } = testClient(fetch);
    const { data } = await client.POST("/lists", { body: { name: "Staff engineers" } });
    expect(data?.data.name).toBe("Staff engineers");
    expect(fetch.calls[0]?.method).toBe("POST");
    expect(fetch.calls[0]?.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(fetch.calls[0]?.body ?? "")).toEqual({ name: "Staff engineers" });
  });
});

describe("createTalentGraphClient: authentication", () => {
  it("sends Authorization: Bearer by default and never X-Api-Key", async () => {
    const fetch = sequence(ok);
    const { client } = testClient(fetch);
    await client.GET("/people/{slug}", {
      params: { path: { slug: "priya-raman" } },
      headers: { "X-Api-Key": "other" },
    });
    expect(fetch.calls[0]?.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(fetch.calls[0]?.headers.has("x-api-key")).toBe(false);
  });

  it("sends only X-Api-Key with auth x-api-key, dropping an Authorization header passed by the caller", async () => {
    const fetch = sequence(ok);
    const { client } = testClient(fetch, { auth: "x-api-key" });
    await client.GET("/people/{slug}", {
      params: { path: { slug: "priya-raman" } },
      headers: { Authorization: "Bearer other" },
    });
    expect(fetch.calls[0]?.headers.get("x-api-key")).toBe(API_KEY);
    expect(fetch.calls[0]?.headers.has("authorization")).toBe(false);
  });

  it("sends X-Service-Org-Id only when orgId is given", async () => {
    const fetch = sequence(ok);
    await testClient(fetch, { orgId: ORG_ID }).client.GET("/people/{slug}", { params: { path: { slug: "a" } } });
    await testClient(fetch).client.GET("/people/{slug}", { params: { path: { slug: "a" } } });
    expect(fetch.calls[0]?.headers.get("x-service-org-id")).toBe(ORG_ID);
    expect(fetch.calls[1]?.headers.has("x-service-org-id")).toBe(false);
  });

  it("lets one call act for another organization, and rejects a non-UUID header before sending", async () => {
    const other = "0f6a3d2e-1c4b-4f5a-9e8d-7c6b5a4f3e2d";
    const fetch = sequence(ok);
    const { client } = testClient(fetch, { orgId: ORG_ID });
    await client.GET("/people/{slug}", { params: { path: { slug: "a" } }, headers: { "X-Service-Org-Id": other } });
    expect(fetch.calls[0]?.headers.get("x-service-org-id")).toBe(other);
    await expect(
      client.GET("/people/{slug}", { params: { path: { slug: "a" } }, headers: { "X-Service-Org-Id": "acme" } }),
    ).rejects.toThrow(/X-Service-Org-Id header must be an organization UUID/);
    expect(fetch.calls).toHaveLength(1);
  });
});

describe("createTalentGraphClient: options are checked up front", () => {
  const base = { baseUrl: BASE_URL, apiKey: API_KEY };
  it.each([
    ["orgId not a UUID", { orgId: "not-a-uuid" }, /orgId must be an organization UUID/],
    ["orgId UUID with braces", { orgId: `{${ORG_ID}}` }, /orgId must be an organization UUID/],
    ["empty apiKey", { apiKey: "" }, /apiKey must be a non-empty string/],
    ["blank apiKey", { apiKey: "   " }, /apiKey must be a non-empty string/],
    ["apiKey with a newline", { apiKey: `${API_KEY}\n` }, /apiKey must not contain whitespace/],
    ["unknown auth method", { auth: "basic" }, /auth must be "bearer" or "x-api-key"/],
    ["relative baseUrl", { baseUrl: "/v1" }, /baseUrl must be an absolute http\(s\) URL/],
    ["non-http baseUrl", { baseUrl: "ftp://api.talent-graph.example/v1" }, /baseUrl must be an absolute http\(s\) URL/],
    ["negative timeout", { timeoutMs: -1 }, /timeoutMs must be a non-negative number/],
    ["negative retries", { retry: { maxRetries: -1 } }, /retry.maxRetries must be a non-negative finite number/],
    ["fractional retries", { retry: { maxRetries: 1.5 } }, /retry.maxRetries must be an integer/],
    ["infinite cap", { retry: { maxDelayMs: Number.POSITIVE_INFINITY } }, /retry.maxDelayMs/],
  ])("rejects %s with a TypeError", (_name, override, message) => {
    expect(() => createTalentGraphClient({ ...base, ...(override as object) })).toThrow(TypeError);
    expect(() => createTalentGraphClient({ ...base, ...(override as object) })).toThrow(message);
  });

  it("never puts the API key into an error message", () => {
    const secret = "tg_secret value";
    expect(() => createTalentGraphClient({ ...base, apiKey: secret, orgId: "x" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("tg_secret") }),
    );
    expect(() => createTalentGraphClient({ ...base, apiKey: secret })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("tg_secret") }),
    );
  });

  it("keeps the API key out of the client object", () => {
    const { client } = testClient(sequence(ok));
    expect(JSON.stringify(Object.entries(client))).not.toContain(API_KEY);
  });
});

describe("createTalentGraphClient: rate-limit info", () => {
  it("is on every result, success and error", async () => {
    const headers = { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "299", "x-ratelimit-reset": "42" };
    const fetch = sequence(
      () => json(person, 200, headers),
      () => json({ error: { type: "not_found", message: "person not found" } }, 404, headers),
    );
    const { client } = testClient(fetch);
    const found = await client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });
    const missing = await client.GET("/people/{slug}", { params: { path: { slug: "nobody" } } });
    const expected = { limit: 300, remaining: 299, reset: 42, retryAfter: null };
    expect(found.rateLimit).toEqual(expected);
    expect(missing.rateLimit).toEqual(expected);
    expect(missing.error).toEqual({ error: { type: "not_found", message: "person not found" } });
  });

  it("is null for absent or malformed headers", async () => {
    const fetch = sequence(() => json(person, 200, { "x-ratelimit-limit": "many", "x-ratelimit-remaining": "-1" }));
    const { rateLimit } = await testClient(fetch).client.GET("/people/{slug}", { params: { path: { slug: "a" } } });
    expect(rateLimit).toEqual({ limit: null, remaining: null, reset: null, retryAfter: null });
  });
});

describe("createTalentGraphClient: timeout and abort", () => {
  /** A fetch that only ends when its request is aborted. */
  const hanging = () =>
    fakeFetch(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        }),
    );

  it("aborts an attempt after timeoutMs with a TimeoutError", async () => {
    const fetch = hanging();
    const { client } = testClient(fetch, { timeoutMs: 5, retry: false });
    await expect(client.GET("/people/{slug}", { params: { path: { slug: "a" } } })).rejects.toMatchObject({
      name: "TimeoutError",
      message: "Request timed out after 5 ms",
    });
    expect(fetch.calls).toHaveLength(1);
  });

  it("retries a GET that timed out, each attempt with its own timeout", async () => {
    const fetch = hanging();
    const { client, clock } = testClient(fetch, { timeoutMs: 5, retry: { maxRetries: 2 } });
    await expect(client.GET("/people/{slug}", { params: { path: { slug: "a" } } })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(fetch.calls).toHaveLength(3);
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it("does not retry when the caller aborts", async () => {
    const fetch = hanging();
    const { client } = testClient(fetch, { timeoutMs: 0 });
    const controller = new AbortController();
    const pending = client.GET("/people/{slug}", { params: { path: { slug: "a" } }, signal: controller.signal });
    await Promise.resolve();
    setTimeout(() => controller.abort(), 1);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(fetch.calls).toHaveLength(1);
  });
});
