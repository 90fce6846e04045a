/**
 * The typed client's event polling against a real sandbox (HTTP on a free port) while diffs keep arriving:
 * across passes no event is lost and none is handed over twice. Every exchange of the client is validated
 * against the spec (a validating fetch).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTalentGraphClient,
  pollEvents,
  pollEventsOnce,
  SeenIds,
  type FetchLike,
  type TalentGraphClient,
} from "../../../client/index.js";
import { exchangeFromFetch } from "../../../contract-core/index.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { startSandbox, type RunningSandbox } from "../hosts/node/server.js";
import { assertContract, testKey } from "../testing/harness.js";

let sandbox: RunningSandbox;
let client: TalentGraphClient;
let targetId: string;

const validatingFetch: FetchLike = async (request) => {
  const body = request.body ? await request.clone().text() : undefined;
  const res = await fetch(request);
  assertContract(
    await exchangeFromFetch({ method: request.method, url: request.url, headers: request.headers, body }, res.clone()),
  );
  return res;
};

async function control(path: string, body: unknown = {}): Promise<any> {
  const res = await fetch(`${sandbox.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: unknown }).data;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    graph: fixtureGraphInput(),
    host: "127.0.0.1",
    port: 0,
    rateLimit: false,
    jobSpeed: 0,
    jobFailureRate: 0,
  });
  client = createTalentGraphClient({
    baseUrl: sandbox.baseUrl,
    apiKey: testKey("acme"),
    fetch: validatingFetch,
    retry: false,
  });
  const created = await client.POST("/targets", { body: { input: "Northwind Labs", auto_admit: true } });
  expect(created.response.status).toBe(202);
  targetId = created.data!.data.id;
  await control("/__sandbox/jobs/advance", { target_id: targetId, until: "finished" });
  // Globex watches someone acme does not: its diffs must never reach acme's poller.
  const globex = createTalentGraphClient({
    baseUrl: sandbox.baseUrl,
    apiKey: testKey("globex"),
    fetch: validatingFetch,
    retry: false,
  });
  await globex.POST("/lists", { body: { name: "Globex shortlist" } });
  await globex.POST("/lists/{id}/members", {
    params: { path: { id: "Globex shortlist" } },
    body: { urls: ["lucas-moreau"] },
  });
});

afterAll(async () => {
  await sandbox?.close();
});

// A pause between two polls of the client (1 or 7 ms), not a deadline.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Emits diffs for acme's watching members (and some for globex's List) until `bursts` are done. */
async function emitter(bursts: number, acmeIds: string[], state: { done: boolean }): Promise<void> {
  for (let i = 0; i < bursts; i++) {
    const events = (await control("/__sandbox/events/emit", { target_id: targetId, count: 1 + (i % 4) })) as {
      id: string;
    }[];
    acmeIds.push(...events.map((e) => e.id));
    if (i % 3 === 0) await control("/__sandbox/events/emit", { person: "lucas-moreau" });
    await sleep(i % 2 === 0 ? 1 : 7);
  }
  state.done = true;
}

describe("pollEvents against the sandbox while events keep arriving", () => {
  it.each([
    ["no overlap, pages of 3", { overlapMs: 0, limit: 3 }],
    ["the default five-minute overlap", { limit: 5 }],
  ])("%s: every visible event is handed over exactly once across passes", async (_name, options) => {
    const emitted: string[] = [];
    const delivered: string[] = [];
    const people: string[] = [];
    const state = { done: false };
    const controller = new AbortController();
    let passes = 0;
    let passesAfterDone = 0;
    let multiPage = 0;
    let duplicatesSkipped = 0;
    const emitting = emitter(40, emitted, state);
    const polling = pollEvents(client, {
      ...options,
      intervalMs: 3,
      signal: controller.signal,
      seen: new SeenIds(),
      onEvents: (events) => {
        delivered.push(...events.map((e) => e.id));
        people.push(...events.map((e) => e.person.network_url));
      },
      onCheckpoint: (_checkpoint, pass) => {
        passes++;
        if (pass.pages > 1) multiPage++;
        duplicatesSkipped += pass.duplicates;
        // Two complete passes after the last emission catch the tail.
        if (state.done && ++passesAfterDone >= 2) controller.abort();
      },
    });
    await emitting;
    const checkpoint = await polling;
    expect(checkpoint).toEqual(expect.any(String));
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(multiPage).toBeGreaterThan(0);
    expect(new Set(delivered).size).toBe(delivered.length); // nothing repeated
    // Nothing lost: the acme diffs emitted in this run were all handed over (earlier runs' ids may be too).
    const got = new Set(delivered);
    expect(emitted.filter((id) => !got.has(id))).toEqual([]);
    // Nothing foreign: every delivered id is an event acme can see.
    const visible = new Set<string>();
    for await (const page of pages()) for (const e of page) visible.add(e.id);
    expect(delivered.filter((id) => !visible.has(id))).toEqual([]);
    expect(people).not.toContain("https://network.example.com/in/lucas-moreau"); // globex's List member
    if (!("overlapMs" in options)) expect(duplicatesSkipped).toBeGreaterThan(0); // the overlap re-reads, SeenIds drops
  });

  it("a second pass from the first pass's checkpoint hands over only the new events", async () => {
    const seen = new SeenIds();
    const first = await pollEventsOnce(client, { seen, limit: 10, onEvents: () => {} });
    const fresh = (await control("/__sandbox/events/emit", { target_id: targetId, count: 4 })) as { id: string }[];
    const got: string[] = [];
    const second = await pollEventsOnce(client, {
      checkpoint: first.checkpoint,
      seen,
      limit: 2,
      onEvents: (events) => void got.push(...events.map((e) => e.id)),
    });
    expect(got.sort()).toEqual(fresh.map((e) => e.id).sort());
    expect(second.pages).toBeGreaterThan(1);
    expect(second.since).toBe(new Date(Date.parse(first.checkpoint) - 5 * 60_000).toISOString());
  });
});

/** Every event acme can see, through the cursor pages (a single pass without since). */
async function* pages(): AsyncGenerator<{ id: string }[]> {
  let cursor: string | undefined;
  for (;;) {
    const res = await client.GET("/events", { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } });
    const body = res.data!;
    yield body.data;
    if (!body.meta.has_more || !body.meta.next) return;
    cursor = body.meta.next;
  }
}
