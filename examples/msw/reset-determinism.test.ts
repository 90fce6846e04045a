/**
 * Test order never matters: after `reset()` the same steps give the same answers as a fresh sandbox with the
 * same options (job outcomes, members found, event timing), ids aside; the ids themselves stay unique across
 * `reset()` (an id from before it is a 404).
 */
import { describe, expect, it } from "vitest";
import { unwrap } from "../../client/index.js";
import type { SandboxHandlers, SandboxHandlersOptions } from "../../mocks/sandbox/hosts/msw/msw.js";
import { drawnIds, issuedIds } from "../../mocks/sandbox/areas/area-helpers.js";
import { recordingClient, sandboxServer } from "./test-sandbox.js";

const server = sandboxServer({ now: "2026-11-27T09:00:00.000Z" });
const open = (options: SandboxHandlersOptions): SandboxHandlers => server.open(options).sandbox;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A recording client (test-sandbox.ts) with /events compared aside its ids (below). */
const recorder = (sandbox: SandboxHandlers) =>
  recordingClient(sandbox, (body, request) =>
    new URL(request.url).pathname.endsWith("/events") ? eventsAsideIds(body) : body,
  );

/** The answers with each UUID named by its first appearance (`id#0`, `id#1`, ...). */
function idsAside(answers: string[]): string[] {
  const names = new Map<string, string>();
  const name = (id: string) => names.get(id) ?? (names.set(id, `id#${names.size}`), `id#${names.size - 1}`);
  return answers.map((text) => text.replace(UUID, name));
}

/**
 * GET /events without event ids: the reference orders diffs of one instant by id, so their order there is an
 * id too; each instant's diffs are compared as a sorted set, and the cursor (which names an event) by its time.
 */
function eventsAsideIds(text: string): string {
  const page = JSON.parse(text) as { data: { id: string; seen_at: string }[]; meta: { next: string | null } };
  const data = page.data.map((e) => ({ ...e, id: "event" }));
  const rank = (e: object) => JSON.stringify(e);
  data.sort((a, b) => (a.seen_at === b.seen_at ? rank(a).localeCompare(rank(b)) : a.seen_at < b.seen_at ? 1 : -1));
  const next = page.meta.next && (JSON.parse(Buffer.from(page.meta.next, "base64url").toString()) as { s: string }).s;
  return JSON.stringify({ data, meta: { ...page.meta, next } });
}

/** Where two runs first differ: the answer's index and 120 characters of each around the first differing one. */
function firstDifference(got: string[], want: string[]): string | null {
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    const a = got[i] ?? "";
    const b = want[i] ?? "";
    if (a === b) continue;
    let at = 0;
    while (a[at] === b[at]) at++;
    const near = (t: string) => t.slice(Math.max(0, at - 60), at + 60);
    return `answer ${i} (${b.slice(0, b.indexOf(" ->"))}) at ${at}:\n  got  ${near(a)}\n  want ${near(b)}`;
  }
  return null;
}

/** Scenario A: other work first (several Targets, the clock advanced, members accepted). */
async function scenarioA(sandbox: SandboxHandlers): Promise<string> {
  const { client } = recorder(sandbox);
  for (const input of ["Engineers", "Designers", "Sales"])
    unwrap(await client.POST("/targets", { body: { kind: "people", input, app_query: { keywords: input } } }));
  unwrap(await client.POST("/targets", { body: { kind: "company", input: "https://www.linkedin.com/company/x-1" } }));
  sandbox.advance(30 * 60_000);
  const [first] = unwrap(await client.GET("/targets")).data;
  unwrap(
    await client.POST("/targets/{id}/members", {
      params: { path: { id: first!.id } },
      body: { apply: "filter", status: "watching" },
    }),
  );
  sandbox.advance(2 * 60 * 60_000);
  unwrap(await client.POST("/lists", { body: { name: "Kept" } }));
  return first!.id;
}

/** Scenario B: the Target watcher of a feature suite (create, poll, members, watch one, events). */
async function scenarioB(sandbox: SandboxHandlers): Promise<string[]> {
  const { client, answers } = recorder(sandbox);
  const targets = [];
  for (const input of ["Backend engineers", "Data scientists", "Recruiters"]) {
    const body = { kind: "people" as const, input, app_query: { keywords: input.split(" ")[0]! } };
    targets.push(unwrap(await client.POST("/targets", { body })).data);
  }
  for (let i = 0; i < 4; i++) {
    sandbox.advance(2000);
    for (const t of targets) unwrap(await client.GET("/targets/{id}", { params: { path: { id: t.id } } }));
  }
  for (const t of targets) {
    const members = unwrap(await client.GET("/targets/{id}/members", { params: { path: { id: t.id } } })).data;
    if (members.length > 0) {
      unwrap(
        await client.POST("/targets/{id}/members", {
          params: { path: { id: t.id } },
          body: { urls: [members[0]!.network_url], status: "watching" },
        }),
      );
    }
  }
  sandbox.advance(10 * 60_000);
  unwrap(await client.GET("/events"));
  unwrap(await client.GET("/targets"));
  return idsAside(answers);
}

describe("reset() gives what a fresh sandbox gives", () => {
  for (const jobFailureRate of [undefined, 0.5]) {
    const options: SandboxHandlersOptions = jobFailureRate === undefined ? {} : { jobFailureRate };
    const label = jobFailureRate === undefined ? "job failures at their default" : `jobFailureRate ${jobFailureRate}`;

    it(`scenario A, reset(), scenario B answers as B alone (${label}), ids aside; ids stay unique`, async () => {
      const alone = await scenarioB(open(options));

      const sandbox = open(options);
      const before = await scenarioA(sandbox);
      sandbox.reset();
      const after = await scenarioB(sandbox);

      expect(after.length).toBeGreaterThan(15);
      expect(firstDifference(after, alone)).toBeNull();
      // The scenario reaches what could differ: members found, events fallen due, and (with failures) both outcomes.
      const text = alone.join("\n");
      expect(text).toMatch(/"watching_count":1/);
      expect(text).toMatch(/"seen_at"/);
      if (jobFailureRate !== undefined) expect(text).toMatch(/"status":"failed"/);
      expect(text).toMatch(/"status":"done"/);
      // A Target of scenario A is gone, and its id is not handed out again.
      const { client } = recorder(sandbox);
      const stale = await client.GET("/targets/{id}", { params: { path: { id: before } } });
      expect(stale.response.status).toBe(404);
    });
  }

  it("sequential ids go on across reset() (never handed out twice), so only the ids differ", async () => {
    const alone = await scenarioB(open({ ids: "sequential" }));
    const sandbox = open({ ids: "sequential" });
    await scenarioA(sandbox);
    sandbox.reset();
    expect(firstDifference(await scenarioB(sandbox), alone)).toBeNull();
  });
});

describe("the draw sequence in a stored state", () => {
  it("a state stored without it (written before it) goes on from its id sequence; a damaged one is refused", async () => {
    const first = open({ ids: "sequential" });
    const { client } = recorder(first);
    unwrap(await client.POST("/targets", { body: { kind: "people", input: "Engineers" } }));
    first.reset();
    unwrap(await client.POST("/lists", { body: { name: "After the reset" } }));
    const saved = first.snapshot();
    expect(saved.shared).toMatchObject({ ids: issuedIds(first.core.ctx.state), draws: drawnIds(first.core.ctx.state) });
    expect(drawnIds(first.core.ctx.state)).toBeLessThan(issuedIds(first.core.ctx.state));

    const older = structuredClone(saved);
    delete older.shared.draws;
    const second = open({ initialState: older });
    await second.ready;
    expect(drawnIds(second.core.ctx.state)).toBe(issuedIds(second.core.ctx.state));

    const third = open({});
    await expect(third.seedState({ ...saved, shared: { ...saved.shared, draws: -1 } })).rejects.toThrow(/"draws"/);
  });
});

describe("job outcomes are chosen, not chanced", () => {
  it("no job fails by default; nextJobs chooses how the next ones end and how many members they find", async () => {
    const sandbox = open({});
    const { client } = recorder(sandbox);
    const create = async (input: string) =>
      unwrap(await client.POST("/targets", { body: { kind: "people", input, app_query: { keywords: "engineer" } } }))
        .data.id;
    const finished = async (id: string) => {
      sandbox.advance(60_000);
      return unwrap(await client.GET("/targets/{id}", { params: { path: { id } } })).data;
    };
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await create(`Default ${i}`));
    for (const id of ids) expect((await finished(id)).job).toMatchObject({ status: "done", failed: 0, error: null });

    sandbox.nextJobs({ outcome: "failed" });
    sandbox.nextJobs({ outcome: "done", members: 2, times: 2 });
    const failed = await finished(await create("Fails"));
    expect(failed.job).toMatchObject({
      status: "failed",
      phase: "discovering",
      error: expect.stringMatching(/^Discovery failed/),
    });
    expect(failed.member_count).toBe(0);
    for (const name of ["Two", "Two again"]) expect((await finished(await create(name))).member_count).toBe(2);
    expect((await finished(await create("Plan used up"))).member_count).toBeGreaterThan(2);

    // Every job until reset(): the retry of a failed Target too.
    sandbox.nextJobs({ outcome: "failed", times: Infinity });
    const again = await create("Always failing");
    expect((await finished(again)).job.status).toBe("failed");
    unwrap(await client.POST("/targets/{id}/retry", { params: { path: { id: again } } }));
    expect((await finished(again)).job.status).toBe("failed");
    sandbox.reset();
    expect((await finished(await create("After reset"))).job.status).toBe("done");
  });

  it("a value it cannot take is a TypeError naming it", () => {
    const sandbox = open({});
    // @ts-expect-error -- a job ends "done" or "failed"
    expect(() => sandbox.nextJobs({ outcome: "partial" })).toThrow(/outcome must be "done" or "failed"/);
    expect(() => sandbox.nextJobs({ outcome: "done", members: -1 })).toThrow(/members must be a whole number/);
    expect(() => sandbox.nextJobs({ outcome: "done", times: 0 })).toThrow(/times must be a positive integer/);
  });
});
