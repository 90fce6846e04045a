import { describe, expect, it } from "vitest";
import { SeenIds, pollEvents, pollEventsOnce, isTalentGraphError, type TalentGraphEvent } from "./index.js";
import { fakeClock, fakeFetch, json, testClient, type FakeFetch } from "./fixtures/fake.js";

const CHECKPOINT = "2026-03-01T11:00:00.000Z";
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const event = (n: number) => ({ id: uuid(n), field: "headline", seen_at: "2026-03-01T11:30:00.000Z" });

interface ScriptedPage {
  ids: number[];
  next?: string | null;
  status?: number;
}

/**
 * GET /events from scripted passes: each pass is a list of pages; the first request of a pass
 * must come without a cursor, later ones with the `next` of the page before.
 */
function eventsService(passes: ScriptedPage[][]): FakeFetch {
  let pass = -1;
  let page = 0;
  return fakeFetch((request) => {
    const cursor = new URL(request.url).searchParams.get("cursor");
    if (cursor === null) {
      pass++;
      page = 0;
    } else page++;
    const scripted = passes[pass]?.[page];
    if (!scripted) throw new Error(`no scripted page ${page} of pass ${pass}`);
    if (scripted.status) return json({ error: { type: "x", message: "scripted failure" } }, scripted.status);
    const next = scripted.next ?? null;
    const data = scripted.ids.map(event);
    return json({ data, meta: { count: data.length, limit: 25, has_more: next !== null, next, since: null } });
  });
}

function consumer() {
  const batches: string[][] = [];
  return {
    batches,
    onEvents: (events: TalentGraphEvent[]) => {
      batches.push(events.map((e) => e.id));
    },
  };
}

const query = (fetch: FakeFetch, i: number) => Object.fromEntries(fetch.calls[i]?.url.searchParams ?? []);

describe("pollEventsOnce", () => {
  it("keeps one absolute since (checkpoint minus 5 minutes) and follows meta.next until has_more is false", async () => {
    const fetch = eventsService([[{ ids: [1, 2], next: "c1" }, { ids: [3], next: "c2" }, { ids: [4] }]]);
    const { client, clock } = testClient(fetch);
    const { batches, onEvents } = consumer();
    const result = await pollEventsOnce(client, {
      checkpoint: CHECKPOINT,
      type: "headline",
      list: "Leads",
      limit: 2,
      onEvents,
    });
    const since = "2026-03-01T10:55:00.000Z";
    expect(query(fetch, 0)).toEqual({ since, type: "headline", list: "Leads", limit: "2" });
    expect(query(fetch, 1)).toEqual({ since, type: "headline", list: "Leads", limit: "2", cursor: "c1" });
    expect(query(fetch, 2)).toEqual({ since, type: "headline", list: "Leads", limit: "2", cursor: "c2" });
    expect(batches).toEqual([[uuid(1), uuid(2)], [uuid(3)], [uuid(4)]]);
    expect(result).toEqual({
      checkpoint: new Date(clock.now()).toISOString(),
      since,
      pages: 3,
      delivered: 4,
      duplicates: 0,
    });
  });

  it("returns the pass start time as checkpoint, not the time the pass ended", async () => {
    const fetch = eventsService([[{ ids: [1], next: "c1" }, { ids: [2] }]]);
    const clock = fakeClock(Date.parse("2026-03-01T12:00:00.000Z"));
    const { client } = testClient(fetch, { clock });
    const result = await pollEventsOnce(client, {
      checkpoint: new Date(CHECKPOINT),
      onEvents: () => clock.sleep(90_000), // a slow consumer moves the clock on
    });
    expect(result.checkpoint).toBe("2026-03-01T12:00:00.000Z");
    expect(clock.now()).toBe(Date.parse("2026-03-01T12:03:00.000Z"));
  });

  it("sends no since without a checkpoint, and honours overlapMs", async () => {
    const fetch = eventsService([[{ ids: [] }], [{ ids: [] }]]);
    const { client } = testClient(fetch);
    const first = await pollEventsOnce(client, { onEvents: () => undefined });
    await pollEventsOnce(client, { checkpoint: CHECKPOINT, overlapMs: 0, onEvents: () => undefined });
    expect(first.since).toBeNull();
    expect(query(fetch, 0)).toEqual({});
    expect(query(fetch, 1)).toEqual({ since: CHECKPOINT });
  });

  it("de-duplicates by id across pages and never calls the consumer with nothing", async () => {
    const fetch = eventsService([[{ ids: [1, 2], next: "c1" }, { ids: [2, 1], next: "c2" }, { ids: [3, 3] }]]);
    const { batches, onEvents } = consumer();
    const result = await pollEventsOnce(testClient(fetch).client, { checkpoint: CHECKPOINT, onEvents });
    expect(batches).toEqual([[uuid(1), uuid(2)], [uuid(3)]]);
    expect(result).toMatchObject({ pages: 3, delivered: 3, duplicates: 3 });
  });

  it("de-duplicates across passes with a shared SeenIds, and never reuses a cursor across passes", async () => {
    const fetch = eventsService([
      [{ ids: [1, 2], next: "c1" }, { ids: [3] }],
      [{ ids: [4, 1], next: "c9" }, { ids: [2, 5] }],
    ]);
    const { client } = testClient(fetch);
    const seen = new SeenIds();
    const { batches, onEvents } = consumer();
    const first = await pollEventsOnce(client, { checkpoint: CHECKPOINT, seen, onEvents });
    const second = await pollEventsOnce(client, { checkpoint: first.checkpoint, seen, onEvents });
    expect(batches).toEqual([[uuid(1), uuid(2)], [uuid(3)], [uuid(4)], [uuid(5)]]);
    expect(second).toMatchObject({ delivered: 2, duplicates: 2 });
    expect(query(fetch, 2)).toEqual({ since: "2026-03-01T11:55:00.000Z" }); // no cursor: a new pass
    expect(query(fetch, 3).cursor).toBe("c9");
  });

  it("fails the pass without a checkpoint when the consumer throws, and delivers those events again", async () => {
    const fetch = eventsService([[{ ids: [1, 2] }], [{ ids: [1, 2] }]]);
    const { client } = testClient(fetch);
    const seen = new SeenIds();
    const failing = () => {
      throw new Error("database down");
    };
    await expect(pollEventsOnce(client, { checkpoint: CHECKPOINT, seen, onEvents: failing })).rejects.toThrow(
      "database down",
    );
    expect(seen.size).toBe(0);
    const { batches, onEvents } = consumer();
    await pollEventsOnce(client, { checkpoint: CHECKPOINT, seen, onEvents });
    expect(batches).toEqual([[uuid(1), uuid(2)]]);
  });

  it("fails the pass when a later page fails; delivered pages are not delivered twice", async () => {
    const fetch = eventsService([
      [
        { ids: [1, 2], next: "c1" },
        { ids: [], status: 500 },
      ],
      [{ ids: [1, 2], next: "c1" }, { ids: [3] }],
    ]);
    const { client } = testClient(fetch, { retry: false });
    const seen = new SeenIds();
    const { batches, onEvents } = consumer();
    await expect(pollEventsOnce(client, { checkpoint: CHECKPOINT, seen, onEvents })).rejects.toSatisfy(
      (error) => isTalentGraphError(error) && error.status === 500,
    );
    const retried = await pollEventsOnce(client, { checkpoint: CHECKPOINT, seen, onEvents });
    expect(batches).toEqual([[uuid(1), uuid(2)], [uuid(3)]]);
    expect(retried.since).toBe("2026-03-01T10:55:00.000Z"); // same checkpoint as the failed pass
  });

  it("fails when has_more is true without a new meta.next", async () => {
    const fetch = fakeFetch(() =>
      json({ data: [event(1)], meta: { count: 1, limit: 25, has_more: true, next: null, since: null } }),
    );
    await expect(
      pollEventsOnce(testClient(fetch).client, { checkpoint: CHECKPOINT, onEvents: () => undefined }),
    ).rejects.toThrow(/has_more=true without a new meta.next/);
  });

  it.each([
    ["an unparseable checkpoint", { checkpoint: "yesterday" }, /checkpoint must be an ISO-8601 date-time/],
    ["a negative overlap", { checkpoint: CHECKPOINT, overlapMs: -1 }, /overlapMs must be a non-negative number/],
  ])("rejects %s before any request", async (_name, options, message) => {
    const fetch = eventsService([]);
    await expect(pollEventsOnce(testClient(fetch).client, { ...options, onEvents: () => undefined })).rejects.toThrow(
      message,
    );
    expect(fetch.calls).toHaveLength(0);
  });
});

describe("SeenIds", () => {
  it("forgets the oldest ids beyond its capacity", () => {
    const seen = new SeenIds(2);
    seen.add("a");
    seen.add("b");
    seen.add("a"); // a is now the newest
    seen.add("c");
    expect([seen.has("a"), seen.has("b"), seen.has("c"), seen.size]).toEqual([true, false, true, 2]);
  });
  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new SeenIds(0)).toThrow(TypeError);
    expect(() => new SeenIds(1.5)).toThrow(TypeError);
  });
});

describe("pollEvents", () => {
  it("loops passes every intervalMs, carrying checkpoint and dedupe, until aborted", async () => {
    const fetch = eventsService([[{ ids: [1] }], [{ ids: [1, 2] }], [{ ids: [2, 3] }]]);
    const { client, clock } = testClient(fetch);
    const controller = new AbortController();
    const checkpoints: string[] = [];
    const { batches, onEvents } = consumer();
    const last = await pollEvents(client, {
      intervalMs: 60_000,
      signal: controller.signal,
      checkpoint: CHECKPOINT,
      onEvents,
      onCheckpoint: (checkpoint) => {
        checkpoints.push(checkpoint);
        if (checkpoints.length === 3) controller.abort();
      },
    });
    expect(batches).toEqual([[uuid(1)], [uuid(2)], [uuid(3)]]);
    expect(checkpoints).toEqual(["2026-03-01T12:00:00.000Z", "2026-03-01T12:01:00.000Z", "2026-03-01T12:02:00.000Z"]);
    expect(clock.sleeps).toEqual([60_000, 60_000]);
    expect(query(fetch, 1).since).toBe("2026-03-01T11:55:00.000Z");
    expect(query(fetch, 2).since).toBe("2026-03-01T11:56:00.000Z");
    expect(last).toBe("2026-03-01T12:02:00.000Z");
  });

  it("keeps the old checkpoint after a failed pass when onError is given", async () => {
    const fetch = eventsService([[{ ids: [1] }], [{ ids: [], status: 503 }], [{ ids: [2] }]]);
    const { client } = testClient(fetch, { retry: false });
    const controller = new AbortController();
    const errors: unknown[] = [];
    const checkpoints: string[] = [];
    await pollEvents(client, {
      intervalMs: 1000,
      signal: controller.signal,
      checkpoint: CHECKPOINT,
      onEvents: () => undefined,
      onError: (error) => void errors.push(error),
      onCheckpoint: (checkpoint) => {
        checkpoints.push(checkpoint);
        if (checkpoints.length === 2) controller.abort();
      },
    });
    expect(errors).toHaveLength(1);
    expect(isTalentGraphError(errors[0])).toBe(true);
    // pass 3 starts from pass 1's checkpoint, since pass 2 failed
    expect(query(fetch, 2).since).toBe(new Date(Date.parse(checkpoints[0] ?? "") - 300_000).toISOString());
  });

  it("does not advance when persisting the checkpoint fails", async () => {
    const fetch = eventsService([[{ ids: [1] }], [{ ids: [2] }]]);
    const { client } = testClient(fetch);
    const controller = new AbortController();
    let calls = 0;
    const last = await pollEvents(client, {
      intervalMs: 1000,
      signal: controller.signal,
      checkpoint: CHECKPOINT,
      onEvents: () => undefined,
      onCheckpoint: () => {
        calls++;
        if (calls === 2) controller.abort();
        throw new Error("checkpoint store unavailable");
      },
      onError: () => undefined,
    });
    expect(query(fetch, 1).since).toBe("2026-03-01T10:55:00.000Z");
    expect(last).toBe(CHECKPOINT);
  });

  it("rejects on the first failure without onError", async () => {
    const fetch = eventsService([[{ ids: [], status: 404 }]]);
    const { client } = testClient(fetch);
    await expect(
      pollEvents(client, {
        intervalMs: 1000,
        signal: new AbortController().signal,
        list: "missing",
        onEvents: () => undefined,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("does nothing when the signal is already aborted", async () => {
    const fetch = eventsService([]);
    const last = await pollEvents(testClient(fetch).client, {
      intervalMs: 1000,
      signal: AbortSignal.abort(),
      onEvents: () => undefined,
    });
    expect(last).toBeNull();
    expect(fetch.calls).toHaveLength(0);
  });
});
