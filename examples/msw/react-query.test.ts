/**
 * React Query (TanStack Query 5) with the sandbox, as a component test sets it up: the settings that make
 * `fail()` / `networkError()` tests deterministic and a cache that does not outlive a test. The same
 * QueryClient options serve components rendered with QueryClientProvider; queries run here through
 * `fetchQuery` / `fetchMutation`-style calls so the test needs no DOM.
 *
 * - Retries stack: the typed client retries GETs on 5xx, 429 and network errors (3 times by default), and
 *   React Query retries a failed query 3 times more. A fault planned for one call is then absorbed (the retry
 *   succeeds) or seen after 16 requests and seconds of backoff. Turn one layer off: `retry: false` in the
 *   client, and `retry: false` in the QueryClient's defaults, so one query is one request and `times: 1`
 *   means one failed render.
 * - React Query's cache is per QueryClient, not per sandbox: `sandbox.reset()` puts the API back, but data a
 *   previous test cached would still be served. Clear both after each test (or make a QueryClient per test).
 */
import { QueryClient } from "@tanstack/react-query";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTalentGraphClient, unwrap } from "../../client/index.js";
import { createSandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";

const BASE = "http://localhost:5173/v1";
const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
const server = setupServer(...sandbox.handlers);
const api = createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.acme, retry: false });
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

const listNames = {
  queryKey: ["lists"],
  queryFn: async () => unwrap(await api.GET("/lists")).data.map((list) => list.name),
};

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  sandbox.reset();
  queryClient.clear();
});
afterAll(() => {
  server.close();
  sandbox.close();
});

describe("React Query with the sandbox", () => {
  it("a planned 503 is one failed query: one request, no retry behind it", async () => {
    sandbox.fail("listLists", { status: 503 });
    await expect(queryClient.fetchQuery(listNames)).rejects.toMatchObject({ status: 503 });
    expect(sandbox.calls("listLists").map((call) => call.status)).toEqual([503]);
    expect(await queryClient.fetchQuery(listNames)).toEqual(["Saved people"]);
  });

  it("a network error is one failed query too", async () => {
    sandbox.networkError("listLists");
    await expect(queryClient.fetchQuery(listNames)).rejects.toThrow();
    expect(sandbox.calls("listLists")).toHaveLength(1);
  });

  it("a test writes and caches a List...", async () => {
    unwrap(await api.POST("/lists", { body: { name: "Only in this test" } }));
    expect(await queryClient.fetchQuery(listNames)).toContain("Only in this test");
  });

  it("...and the next test sees neither the List nor the cached answer", async () => {
    expect(queryClient.getQueryData(listNames.queryKey)).toBeUndefined();
    expect(await queryClient.fetchQuery(listNames)).toEqual(["Saved people"]);
  });

  it("with both layers retrying (the defaults), a one-off 503 never reaches the query", async () => {
    const retrying = createTalentGraphClient({
      baseUrl: BASE,
      apiKey: sandbox.keys.acme,
      retry: { baseDelayMs: 0 }, // the default 3 retries, without the wait
    });
    const stacked = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } }); // retry: 3 by default
    sandbox.fail("listLists", { status: 503 });
    const names = await stacked.fetchQuery({
      queryKey: ["lists"],
      queryFn: async () => unwrap(await retrying.GET("/lists")).data.map((list) => list.name),
    });
    expect(names).toEqual(["Saved people"]); // the error state the test meant to show never happened
    expect(sandbox.calls("listLists").map((call) => call.status)).toEqual([503, 200]);
    stacked.clear();
  });
});
