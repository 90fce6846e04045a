/**
 * advance(ms): the same instants and the same state as the background timer's ticks, but instants with no work
 * due are jumped over (a day of sandbox time is thousands of ticks, not 345,600), and the state is stored once
 * per advance, not after each tick.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { StateStorage } from "../contract/context.js";
import { createSandboxCore, type CoreOptions, type SandboxCore } from "./core.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { advanceTicking, type Ticker } from "./timers.js";
import { EVENT_INTERVAL_MS, eventsOf } from "../areas/events.js";
import { issuedIds } from "../areas/area-helpers.js";

const spec = loadSpec();
const T0 = Date.parse("2026-11-22T08:00:00.000Z");
const DAY = 86_400_000;
const opened: SandboxCore[] = [];

function open(options: Partial<CoreOptions> = {}): SandboxCore {
  const core = createSandboxCore({
    spec,
    graph: fixtureGraphInput(),
    rateLimit: false,
    jobFailureRate: 0,
    now: T0,
    ids: "sequential",
    timers: false,
    jobSpeed: 1,
    ...options,
  });
  opened.push(core);
  return core;
}

afterEach(() => {
  for (const core of opened.splice(0)) core.close();
});

/** A Target watching what it discovers and a List with members: its job steps and its diffs fall due. */
async function busy(core: SandboxCore): Promise<Record<string, string>> {
  const headers = { authorization: `Bearer ${core.keys[0]!.key}`, "content-type": "application/json" };
  const post = (url: string, body: unknown) =>
    core.handle({ method: "POST", url, headers, body: JSON.stringify(body) });
  expect((await post("/v1/targets", { input: "Northwind Labs", auto_admit: true })).status).toBe(202);
  const list = JSON.parse((await post("/v1/lists", { name: "Watched" })).body!) as { data: { id: string } };
  expect((await post(`/v1/lists/${list.data.id}/members`, { urls: ["priya-raman"] })).status).toBeLessThan(300);
  return headers;
}

async function observe(core: SandboxCore, headers: Record<string, string>) {
  const get = async (url: string) => (await core.handle({ method: "GET", url, headers })).body;
  return {
    now: core.ctx.options.now(),
    targets: await get("/v1/targets"),
    events: await get("/v1/events?limit=100"),
  };
}

describe("advance(ms)", () => {
  it("ends in the same state as the timer's instants one by one (every 250 ms), over an hour", async () => {
    const whole = open();
    const stepped = open();
    const h1 = await busy(whole);
    const h2 = await busy(stepped);
    whole.advance(3_600_000);
    for (let t = 0; t < 3_600_000; t += 250) stepped.advance(250);
    const a = await observe(whole, h1);
    const b = await observe(stepped, h2);
    expect(a).toEqual(b);
    // The hour did work: the job finished and diffs fell due.
    expect(a.targets).toContain('"status":"done"');
    expect(JSON.parse(a.events!).data.length).toBeGreaterThan(10);
  });

  it("ends a day where stepping one diff emission at a time ends: events, memberships, ids", async () => {
    const whole = open();
    const stepped = open();
    // Targets whose jobs admit watching members after the first diffs (due every 10 s from the start; a job
    // steps every 2 s), so memberships change during the day.
    const setUp = async (core: SandboxCore) => {
      const headers = await busy(core);
      core.advance(5_000);
      for (const input of ["Contoso Robotics", "Fabrikam"])
        await core.handle({
          method: "POST",
          url: "/v1/targets",
          headers,
          body: JSON.stringify({ input, auto_admit: true }),
        });
      return headers;
    };
    const h1 = await setUp(whole);
    const h2 = await setUp(stepped);
    whole.advance(DAY);
    // 10 s steps: no step holds two emissions, so each emission asks the organization's memberships afresh.
    for (let t = 0; t < DAY; t += EVENT_INTERVAL_MS) stepped.advance(EVENT_INTERVAL_MS);
    const everything = async (core: SandboxCore, headers: Record<string, string>) => {
      const get = async (url: string) => JSON.parse((await core.handle({ method: "GET", url, headers })).body!);
      const lists = (await get("/v1/lists")).data as { id: string }[];
      return {
        ...(await observe(core, headers)),
        events: eventsOf(core.ctx.state).events,
        lists: await Promise.all(lists.map((l) => get(`/v1/lists/${l.id}`))),
        ids: issuedIds(core.ctx.state),
      };
    };
    const a = await everything(whole, h1);
    const b = await everything(stepped, h2);
    expect(a.events.length).toBeGreaterThan(DAY / EVENT_INTERVAL_MS);
    // Memberships changed during the day: a Target List holds members its job admitted after the first diff.
    const events = a.events;
    const firstDiffAt = events[0]!.seen_at;
    const targetMembers = a.lists
      .flatMap((l) => (l.data.default_key === "target" ? l.data.members : []))
      .map((m: { created_at: string }) => m.created_at);
    expect(targetMembers.some((at: string) => at > firstDiffAt)).toBe(true);
    expect(a).toEqual(b);
  });

  it("stores the state once per advance, not after each tick that handed out ids", async () => {
    let writes = 0;
    const storage: StateStorage = { location: "memory", load: () => null, write: () => void writes++ };
    const core = open({ storage });
    await busy(core);
    writes = 0;
    core.advance(DAY);
    await Promise.resolve();
    expect(writes).toBe(1);
  });

  it("ticks only where work is due, at the instants the timer would, and at the end", () => {
    let now = 1_000;
    const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
    const ticks: number[] = [];
    const due = [1_000 + 2_000, 1_000 + 2_600, 1_000 + 50_000];
    const ticker: Ticker = {
      every: 250,
      tick: () => {
        ticks.push(now);
        while (due.length > 0 && due[0]! <= now) due.shift();
      },
      nextDue: () => due[0] ?? Infinity,
      stop: () => undefined,
    };
    advanceTicking(ticker, clock, 60_000);
    // 2,600 is visited at 2,750 (the next 250 ms instant), as the timer would; nothing between but the end.
    expect(ticks).toEqual([3_000, 3_750, 51_000, 61_000]);
    // An area that does not say when its work is due is ticked at every instant.
    ticks.length = 0;
    advanceTicking({ ...ticker, nextDue: () => -Infinity }, clock, 1_000);
    expect(ticks).toEqual([61_250, 61_500, 61_750, 62_000]);
  });
});
