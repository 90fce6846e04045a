/**
 * The frontend testing kit of the MSW host, as a component test uses it: ids that no other sandbox hands
 * out, a clock the test owns (byte-identical answers for the same seed, clock and steps), a declared
 * starting state in one call, and faults by operation. In your project import from the package:
 *   import { createSandboxHandlers } from "talent-graph-api-contract/msw";
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTalentGraphClient, unwrap } from "../../client/index.js";
import {
  createSandboxHandlers,
  type SandboxHandlers,
  type SandboxHandlersOptions,
} from "../../mocks/sandbox/hosts/msw/msw.js";

const BASE = "http://localhost:5173/v1";
const server = setupServer();
const opened: SandboxHandlers[] = [];

/** A sandbox answering BASE from now on (the previous one's handlers are dropped: a page reload). */
function open(options: SandboxHandlersOptions = {}) {
  const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false, jobFailureRate: 0, ...options });
  opened.push(sandbox);
  server.resetHandlers(...sandbox.handlers);
  const apiKey = sandbox.keys.find((k) => k.key.startsWith("tgsb_acme_"))!.key;
  // retry: false -> the client shows each answer as the sandbox gave it (it would retry a 503 or a network error).
  return { sandbox, client: createTalentGraphClient({ baseUrl: BASE, apiKey, retry: false }) };
}

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  for (const sandbox of opened) sandbox.close();
});

describe("ids", () => {
  it("an id from an earlier sandbox (a reload without persistence) is a 404, and the default List is a new id", async () => {
    const first = open();
    const made = unwrap(await first.client.POST("/lists", { body: { name: "Shortlist" } })).data;

    const second = open(); // the same seed: the same graph, a new instance
    const stale = await second.client.GET("/lists/{id}", { params: { path: { id: made.id } } });
    expect(stale.response.status).toBe(404);
    const lists = unwrap(await second.client.GET("/lists")).data;
    expect(lists.map((l) => l.name)).toEqual(["Saved people"]);
    expect(lists[0]!.id).not.toBe(made.id);
    expect(made.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // the spec's uuid
  });

  it('ids: "sequential" repeats ids across instances (what the default avoids)', async () => {
    const first = open({ ids: "sequential" });
    const made = unwrap(await first.client.POST("/lists", { body: { name: "Shortlist" } })).data;
    const second = open({ ids: "sequential" });
    unwrap(await second.client.GET("/lists")); // the default List takes the first id of the sequence
    const reused = await second.client.GET("/lists/{id}", { params: { path: { id: made.id } } });
    expect(reused.response.status).toBe(200);
    expect((reused.data as { data: { name: string } }).data.name).toBe("Saved people");
  });
});

/** The 8-step scenario; every answer as status, headers and body text. */
async function scenario(options: SandboxHandlersOptions): Promise<string[]> {
  const answers: string[] = [];
  const { sandbox, client } = open(options);
  const recording = createTalentGraphClient({
    baseUrl: BASE,
    apiKey: sandbox.keys[0]!.key,
    retry: false,
    fetch: async (request) => {
      const response = await fetch(request);
      const headers = JSON.stringify([...response.headers].sort());
      answers.push(
        `${request.method} ${request.url} -> ${response.status} ${headers}\n${await response.clone().text()}`,
      );
      return response;
    },
  });
  void client;
  const found = unwrap(
    await recording.GET("/people", {
      params: { query: { role_family: "engineering", location: "Germany", limit: 5 } },
    }),
  ).data;
  const slug = found.find((p) => p.slug)!.slug!;
  unwrap(await recording.GET("/people/{slug}", { params: { path: { slug } } }));
  const list = unwrap(await recording.POST("/lists", { body: { name: "Backend hires" } })).data;
  unwrap(await recording.POST("/lists/{id}/members", { params: { path: { id: list.id } }, body: { urls: [slug] } }));
  unwrap(await recording.GET("/lists/{id}", { params: { path: { id: list.id } } }));
  const target = unwrap(
    await recording.POST("/targets", {
      body: { kind: "people", input: "Engineers", app_query: { keywords: "engineer" } },
    }),
  ).data;
  sandbox.advance(60_000);
  unwrap(await recording.GET("/targets/{id}", { params: { path: { id: target.id } } }));
  const tooMany = await recording.GET("/people", { params: { query: { limit: 1000 } } });
  expect(tooMany.response.status).toBe(400);
  return answers;
}

describe("a clock the test owns", () => {
  const options = { seed: 7, now: "2026-11-27T09:00:00.000Z", ids: "sequential" } as const;

  it("the same seed, now and steps give byte-identical answers", async () => {
    const first = await scenario(options);
    const second = await scenario(options);
    expect(first).toHaveLength(8);
    expect(second).toEqual(first);
    // Every timestamp the sandbox wrote is the fixed clock (advance moved it only after the last write).
    const written = first.join("\n").match(/"(created_at|updated_at)":"[^"]+"/g) ?? [];
    expect(written.length).toBeGreaterThan(5);
    expect(new Set(written.map((w) => w.slice(w.indexOf(':"') + 2, -1)))).toEqual(new Set([options.now]));
    // The job followed the moved clock to its end.
    expect(first[6]).toMatch(/"status":"done"/);
  });

  it("another clock changes the answers (the comparison above can fail)", async () => {
    const moved = await scenario({ ...options, now: new Date("2026-11-28T09:00:00.000Z") });
    expect(moved).not.toEqual(await scenario(options));
  });
});

describe("a declared starting state", () => {
  it("a Target with a failed job and three proposed members, visible in one call", async () => {
    const { sandbox, client } = open();
    await sandbox.seedState({
      targets: [
        {
          kind: "people",
          input: "Platform engineers",
          app_query: { keywords: "engineer" },
          members: { proposed: 3 },
          job: "failed",
        },
      ],
    });
    const [target] = unwrap(await client.GET("/targets")).data;
    expect(target).toMatchObject({ name: "Platform engineers", proposed_count: 3, watching_count: 0, member_count: 3 });
    expect(target!.job).toMatchObject({ status: "failed", error: expect.stringContaining("Discovery failed") });
  });

  it("Lists with members, saved queries, preferences and an organization over its quota, in one declaration", async () => {
    const { client } = open({
      initialState: {
        lists: [{ name: "Finalists", members: ["https://www.linkedin.com/in/someone-example"], stage: "interview" }],
        savedQueries: [{ name: "Berlin backend", query: { keywords: "backend", location: "Berlin" } }],
        preferences: { email_enabled: true, emails: ["Hiring@Acme.example"] },
        targets: [
          { kind: "people", input: "Engineers", app_query: { keywords: "engineer" }, members: { watching: 3 } },
        ],
        watchSlots: 0,
      },
    });
    const lists = unwrap(await client.GET("/lists")).data;
    expect(lists.find((l) => l.name === "Finalists")?.member_count).toBe(1);
    const queries = unwrap(await client.GET("/queries")).data as { name: string }[];
    expect(queries.map((q) => q.name)).toEqual(["Berlin backend"]);
    const prefs = unwrap(await client.GET("/signals/preferences")).data;
    expect(prefs).toMatchObject({ email_enabled: true, emails: ["hiring@acme.example"] });
    const me = unwrap(await client.GET("/me")).data as { quota: { watch_slots: { max: number; remaining: number } } };
    expect(me.quota.watch_slots).toMatchObject({ max: 0, remaining: 0 });
  });

  it("a declaration the API refuses is an error naming the part and the API's message; the sandbox stays at the seed", async () => {
    const { sandbox, client } = open();
    await expect(
      sandbox.seedState({ savedQueries: [{ name: "ok", query: {} }], lists: [{ name: "   " }] }),
    ).rejects.toThrow(/^initialState\.lists\[0\]: POST \/v1\/lists answered 400 \(invalid_request: .*name/);
    expect(unwrap(await client.GET("/queries")).data).toEqual([]);
    await expect(
      sandbox.seedState({
        targets: [{ kind: "people", input: "x", members: { proposed: 1 }, job: "running" as never }],
      }),
    ).rejects.toThrow(/targets\[0\]\.job: must be one of pending, resolving, discovering, enriching, done, failed/);
    // @ts-expect-error -- an unknown field is a type error, and refused at run time
    await expect(sandbox.seedState({ list: [] })).rejects.toThrow(/unknown field "list"/);
  });
});

describe("a refused initialState", () => {
  it("rejects ready and is logged; the sandbox answers from the seed", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { sandbox, client } = open({ initialState: { lists: [{ name: "" }] } });
      await expect(sandbox.ready).rejects.toThrow(/^initialState\.lists\[0\]: POST \/v1\/lists answered 400/);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining("initialState.lists[0]"));
      expect(unwrap(await client.GET("/lists")).data.map((l) => l.name)).toEqual(["Saved people"]);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("the kit's options and calls are checked", () => {
  it("an unreadable clock, an unknown id mode, an unknown operation or a count below 1 is a TypeError naming it", () => {
    expect(() => createSandboxHandlers({ now: "yesterday" })).toThrow(/now must be a Date, an ISO 8601 date-time/);
    // @ts-expect-error -- ids is "random" or "sequential"
    expect(() => createSandboxHandlers({ ids: "uuid" })).toThrow(/ids must be "random" or "sequential"/);
    const { sandbox } = open();
    // @ts-expect-error -- not an operationId of the spec
    expect(() => sandbox.networkError("createPerson")).toThrow(/No operation "createPerson"/);
    expect(() => sandbox.delay("searchPeople", 10, { times: 0 })).toThrow(/times must be a positive integer/);
  });
});

describe("faults by operation", () => {
  it("the next createList answers 503, the one after 201; reset() clears what is left", async () => {
    const { sandbox, client } = open();
    sandbox.fail("createList", { status: 503 });
    const failed = await client.POST("/lists", { body: { name: "A" } });
    expect(failed.response.status).toBe(503);
    expect(failed.error).toMatchObject({ statusCode: 503 }); // the spec's documented 5XX example
    const created = await client.POST("/lists", { body: { name: "A" } });
    expect(created.response.status).toBe(201);

    sandbox.fail("createList", { status: 503, times: 2 });
    sandbox.reset();
    expect((await client.POST("/lists", { body: { name: "B" } })).response.status).toBe(201);
    // @ts-expect-error -- createList does not document 404
    expect(() => sandbox.fail("createList", { status: 404 })).toThrow(/does not document status 404/);
  });

  it("a network error makes fetch reject; a delay holds the answer", async () => {
    const { sandbox, client } = open();
    sandbox.networkError("getAccount");
    await expect(client.GET("/me")).rejects.toThrow();
    expect((await client.GET("/me")).response.status).toBe(200);

    sandbox.delay("searchPeople", 300);
    const t0 = performance.now();
    expect((await client.GET("/people", { params: { query: { limit: 1 } } })).response.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });
});
