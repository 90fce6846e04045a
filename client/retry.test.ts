import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY, backoffDelay, isRetryableStatus } from "./index.js";
import { ORG_ID, json, networkError, sequence, testClient } from "./fixtures/fake.js";

const person = () =>
  json({ data: { slug: "priya-raman", full_name: "Priya Raman", network_url: "https://n.example/p" } });
const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    json({ error: { type: "x", message: `status ${code}` } }, code, headers);
const tooMany = (retryAfter?: string) => () =>
  json(
    { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded" },
    429,
    retryAfter === undefined ? {} : { "retry-after": retryAfter },
  );
const getPerson = (client: ReturnType<typeof testClient>["client"]) =>
  client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });

describe("backoffDelay", () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
  it("is full jitter below an exponentially growing ceiling", () => {
    expect([0, 1, 2, 3].map((retry) => backoffDelay(retry, options, () => 0.5))).toEqual([50, 100, 200, 400]);
    expect(backoffDelay(2, options, () => 0)).toBe(0);
    expect(backoffDelay(2, options, () => 0.999)).toBe(399);
  });
  it("never exceeds the cap", () => {
    expect(backoffDelay(4, options, () => 0.999)).toBe(999);
    expect(backoffDelay(40, options, () => 0.999)).toBe(999);
  });
});

describe("isRetryableStatus", () => {
  it("is true for 429 and 5xx only", () => {
    expect([429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 201, 204, 400, 401, 402, 403, 404, 409, 422, 600].some(isRetryableStatus)).toBe(false);
  });
});

describe("retry of GET requests", () => {
  it("retries 5xx with exponential backoff and full jitter, timed by the injected clock and random", async () => {
    const fetch = sequence(status(503), status(500), status(502), person);
    const { client, clock } = testClient(fetch, { random: () => 0.25 });
    const { data, response } = await getPerson(client);
    expect(response.status).toBe(200);
    expect(data?.data.slug).toBe("priya-raman");
    expect(fetch.calls).toHaveLength(4);
    expect(clock.sleeps).toEqual([125, 250, 500]); // 0.25 * 500, 1000, 2000
  });

  it("caps the backoff ceiling at maxDelayMs", async () => {
    const fetch = sequence(status(503));
    const { client, clock } = testClient(fetch, {
      random: () => 0.5,
      retry: { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 3000 },
    });
    await getPerson(client);
    expect(clock.sleeps).toEqual([500, 1000, 1500, 1500, 1500]);
  });

  it("retries a network failure and sends the same request again", async () => {
    const fetch = sequence(networkError, person);
    const { client } = testClient(fetch, { orgId: ORG_ID });
    const { data } = await getPerson(client);
    expect(data?.data.full_name).toBe("Priya Raman");
    expect(fetch.calls.map((call) => call.url.href)).toEqual([fetch.calls[0]?.url.href, fetch.calls[0]?.url.href]);
    expect(fetch.calls[1]?.headers.get("x-service-org-id")).toBe(ORG_ID);
  });

  it("stops after maxRetries and returns the last error response", async () => {
    const fetch = sequence(status(503));
    const { client } = testClient(fetch, { retry: { maxRetries: 2 } });
    const { error, response } = await getPerson(client);
    expect(response.status).toBe(503);
    expect(error).toEqual({ error: { type: "x", message: "status 503" } });
    expect(fetch.calls).toHaveLength(3);
  });

  it("rethrows the network error once retries are used up", async () => {
    const fetch = sequence(networkError);
    const { client } = testClient(fetch, { retry: { maxRetries: 1 } });
    await expect(getPerson(client)).rejects.toThrow("fetch failed");
    expect(fetch.calls).toHaveLength(2);
  });

  it("honours Retry-After in seconds on 429", async () => {
    const fetch = sequence(tooMany("2"), person);
    const { client, clock } = testClient(fetch);
    const { response } = await getPerson(client);
    expect(response.status).toBe(200);
    expect(clock.sleeps).toEqual([2000]);
  });

  it("falls back to backoff when Retry-After is not a number of seconds", async () => {
    const fetch = sequence(tooMany("Wed, 21 Oct 2026 07:28:00 GMT"), person);
    const { client, clock } = testClient(fetch);
    await getPerson(client);
    expect(clock.sleeps).toEqual([250]);
  });

  it("returns a 429 at once when Retry-After is longer than maxRetryAfterMs", async () => {
    const fetch = sequence(tooMany("120"), person);
    const { client, clock } = testClient(fetch);
    const { response, rateLimit } = await getPerson(client);
    expect(response.status).toBe(429);
    expect(rateLimit.retryAfter).toBe(120);
    expect(fetch.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it.each([400, 401, 402, 403, 404, 409, 422])("never retries %i", async (code) => {
    const fetch = sequence(status(code), person);
    const { client, clock } = testClient(fetch);
    const { response } = await getPerson(client);
    expect(response.status).toBe(code);
    expect(fetch.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("does not retry at all with retry: false", async () => {
    const fetch = sequence(status(503), person);
    const { client } = testClient(fetch, { retry: false });
    expect((await getPerson(client)).response.status).toBe(503);
    expect(fetch.calls).toHaveLength(1);
  });

  it("stops waiting when the caller aborts during a backoff", async () => {
    const fetch = sequence(status(503), person);
    const controller = new AbortController();
    const { client } = testClient(fetch, {
      clock: {
        now: () => 0,
        sleep: async (_ms, signal) => {
          controller.abort();
          signal?.throwIfAborted();
        },
      },
    });
    const pending = client.GET("/people/{slug}", { params: { path: { slug: "a" } }, signal: controller.signal });
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(fetch.calls).toHaveLength(1);
  });
});

describe("mutations are never retried", () => {
  const listCreated = () => json({ data: { id: ORG_ID, name: "Leads" } }, 201);

  it.each([500, 502, 503, 429])("POST answered %i is returned as is", async (code) => {
    const fetch = sequence(code === 429 ? tooMany("1") : status(code), listCreated);
    const { client, clock } = testClient(fetch);
    const { response } = await client.POST("/lists", { body: { name: "Leads" } });
    expect(response.status).toBe(code);
    expect(fetch.calls).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("POST after a network failure rejects without a second attempt", async () => {
    const fetch = sequence(networkError, listCreated);
    const { client } = testClient(fetch);
    await expect(client.POST("/lists", { body: { name: "Leads" } })).rejects.toThrow("fetch failed");
    expect(fetch.calls).toHaveLength(1);
  });

  type Client = ReturnType<typeof testClient>["client"];
  it.each([
    ["PUT", (client: Client) => client.PUT("/signals/preferences", { body: { email_enabled: false } })],
    ["PATCH", (client: Client) => client.PATCH("/targets/{id}", { params: { path: { id: ORG_ID } }, body: {} })],
    ["DELETE", (client: Client) => client.DELETE("/lists/{id}", { params: { path: { id: ORG_ID } } })],
  ])("%s answered 503 is returned as is", async (method, call) => {
    const fetch = sequence(status(503), () => new Response(null, { status: 204 }));
    const { response } = await call(testClient(fetch).client);
    expect(response.status).toBe(503);
    expect(fetch.calls.map((c) => c.method)).toEqual([method]);
  });
});
