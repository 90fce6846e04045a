/**
 * The frontend testing kit of the MSW host, as a component test uses it: ids that no other sandbox hands
 * out, a clock the test owns (byte-identical answers for the same seed, clock and steps), a declared
 * starting state in one call, and faults by operation. In your project import from the package:
 *   import { createSandboxHandlers } from "talent-graph-api-contract/msw";
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTalentGraphClient, unwrap } from "../../client/index.js";
import { createSandboxHandlers, type SandboxHandlersOptions } from "../../mocks/sandbox/hosts/msw/msw.js";
import { BASE, recordingClient, sandboxServer } from "./test-sandbox.js";

const { server, open } = sandboxServer();
afterEach(() => server.resetHandlers());

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
  const { sandbox } = open(options);
  const { client: recording, answers } = recordingClient(sandbox);
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
    // Past setTimeout's longest wait, a timer would fire at once: refused, as a negative or NaN delay is.
    for (const ms of [-1, Number.NaN, 2 ** 31, Infinity])
      expect(() => sandbox.delay("searchPeople", ms), String(ms)).toThrow(/delay needs ms from 0 to 2147483647/);
    expect(() => sandbox.delay("searchPeople", 2 ** 31 - 1)).not.toThrow();
    sandbox.reset();
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

describe("the clock back after reset(), and setNow", () => {
  const now = "2026-11-27T09:00:00.000Z";
  const createdAt = async (client: ReturnType<typeof open>["client"], name: string) =>
    unwrap(await client.POST("/lists", { body: { name } })).data.created_at;

  it("reset() returns to the starting clock that advance() moved; setNow() sets it, back or forward", async () => {
    const { sandbox, client } = open({ now });
    sandbox.advance(2 * 3_600_000);
    expect(await createdAt(client, "Later")).toBe("2026-11-27T11:00:00.000Z");
    sandbox.reset();
    expect(await createdAt(client, "Next test")).toBe(now);
    sandbox.setNow("2026-01-02T03:04:05.000Z");
    expect(await createdAt(client, "Set")).toBe("2026-01-02T03:04:05.000Z");
    sandbox.setNow(new Date(now));
    expect(await createdAt(client, "Back")).toBe(now);
    expect(() => sandbox.advance(-1)).toThrow(/non-negative .*setNow\(t\) goes back/);
    expect(() => sandbox.setNow("someday")).toThrow(/now must be a Date, an ISO 8601/);
  });

  it("with an initialState too: reset() builds it again on the starting clock", async () => {
    const { sandbox, client } = open({ now, ids: "sequential", initialState: { lists: [{ name: "Seeded" }] } });
    await sandbox.ready;
    sandbox.advance(60_000);
    sandbox.reset();
    await sandbox.ready;
    const lists = unwrap(await client.GET("/lists")).data;
    expect(lists.find((l) => l.name === "Seeded")?.created_at).toBe(now);
  });
});

describe("keys by name", () => {
  it("keys.acme, globex, initech (locked), platform and revoked are what the sandbox answers them as", async () => {
    const { sandbox } = open();
    const me = (apiKey: string) => createTalentGraphClient({ baseUrl: BASE, apiKey, retry: false }).GET("/me");
    const slots = async (apiKey: string) => unwrap(await me(apiKey)).data.quota?.watch_slots?.max;
    expect(Object.keys(sandbox.keys)).toEqual(["acme", "globex", "initech", "platform", "revoked"]);
    expect(await slots(sandbox.keys.acme)).toBe(1000); // Acme Recruiting (Unlimited)
    expect(await slots(sandbox.keys.globex)).toBe(250); // Globex Talent (Index)
    const locked = await createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.initech, retry: false }).GET(
      "/lists",
    );
    expect(locked.response.status).toBe(402);
    expect((await me(sandbox.keys.platform)).response.status).toBe(400); // needs X-Service-Org-Id
    expect((await me(sandbox.keys.revoked)).response.status).toBe(401);
  });
});

describe("calls(): what the app sent", () => {
  it("records each request to an operation with its parsed body, query and status; reset() clears it", async () => {
    const { sandbox, client } = open();
    unwrap(await client.GET("/people", { params: { query: { location: "Germany", limit: 2 } } }));
    sandbox.fail("createList", { status: 503 });
    await client.POST("/lists", { body: { name: "Refused" } });
    unwrap(await client.POST("/lists", { body: { name: "Shortlist", description: "Backend" } }));
    await client.GET("/lists/{id}", { params: { path: { id: "not-a-uuid" } } });

    expect(sandbox.calls().map((c) => `${c.method} ${c.operationId} ${c.status}`)).toEqual([
      "GET searchPeople 200",
      "POST createList 503",
      "POST createList 201",
      "GET getList 404",
    ]);
    const [refused, created] = sandbox.calls("createList");
    expect(refused!.body.name).toBe("Refused");
    expect(created).toMatchObject({ path: "/v1/lists", body: { name: "Shortlist", description: "Backend" } });
    expect(sandbox.calls("searchPeople")[0]!.query).toEqual({ location: "Germany", limit: "2" });
    expect(sandbox.calls("getList")[0]!.params).toEqual({ id: "not-a-uuid" });

    sandbox.networkError("getAccount");
    await expect(client.GET("/me")).rejects.toThrow();
    expect(sandbox.calls("getAccount")).toMatchObject([{ status: 0 }]);

    sandbox.reset();
    expect(sandbox.calls()).toEqual([]);
    // @ts-expect-error -- not an operationId of the spec
    expect(() => sandbox.calls("createPerson")).toThrow(/No operation "createPerson"/);
  });
});

describe("respond(): a one-off answer typed from the spec", () => {
  it("answers the given body once (documented headers kept), then the sandbox again; reset() removes it", async () => {
    const { sandbox, client } = open();
    const slug = unwrap(await client.GET("/people", { params: { query: { limit: 1 } } })).data[0]!.slug!;
    const person = unwrap(await client.GET("/people/{slug}", { params: { path: { slug } } })).data;
    sandbox.respond("getPerson", {
      status: 200,
      body: { data: { ...person, headline: null } },
      headers: { "X-Test": "1" },
    });
    const edited = await client.GET("/people/{slug}", { params: { path: { slug } } });
    expect(edited.data!.data.headline).toBeNull();
    expect(edited.response.headers.get("x-test")).toBe("1");
    expect(edited.response.headers.get("content-type")).toMatch(/application\/json/);
    expect(unwrap(await client.GET("/people/{slug}", { params: { path: { slug } } })).data.headline).toBe(
      person.headline,
    );

    const page = unwrap(await client.GET("/people", { params: { query: { limit: 1 } } }));
    sandbox.respond("searchPeople", { status: 200, body: { ...page, data: [] }, times: Infinity });
    expect(unwrap(await client.GET("/people")).data).toEqual([]);
    expect(unwrap(await client.GET("/people")).data).toEqual([]);
    sandbox.reset();
    expect(unwrap(await client.GET("/people", { params: { query: { limit: 1 } } })).data).toHaveLength(1);
  });

  it("refuses at once a body the spec does not allow, or a status it does not document", () => {
    const { sandbox } = open();
    const body = { data: { slug: 7 } } as never; // a body the types would refuse, as plain JavaScript sends it
    expect(() => sandbox.respond("getPerson", { status: 200, body })).toThrow(
      /respond\(getPerson, 200\): the body does not match the spec: body\/data/,
    );
    // @ts-expect-error -- createList does not document 404
    expect(() => sandbox.respond("createList", { status: 404, body: {} })).toThrow(/does not document status 404/);
    const notJson = (() => undefined) as never; // a function has no JSON form
    expect(() => sandbox.respond("getPerson", { status: 200, body: notJson })).toThrow(/the body is not a JSON value/);
  });

  it("sends the body as it was when respond() was called", async () => {
    const { sandbox, client } = open();
    const page = unwrap(await client.GET("/people", { params: { query: { limit: 1 } } }));
    const body = { ...page, data: [] as typeof page.data };
    sandbox.respond("searchPeople", { status: 200, body });
    body.data = page.data; // changed after respond(): the answer keeps what was checked
    expect(unwrap(await client.GET("/people")).data).toEqual([]);
  });
});

describe("snapshot(): a state reached by hand, started from again", () => {
  it("a sandbox started from the snapshot answers the same reads with the same bytes", async () => {
    const { sandbox, client } = open({ now: "2026-11-27T09:00:00.000Z", seed: 3 });
    await sandbox.seedState({
      lists: [{ name: "Finalists", members: ["https://www.linkedin.com/in/someone-example"], stage: "interview" }],
      savedQueries: [{ name: "Berlin backend", query: { keywords: "backend", location: "Berlin" } }],
      targets: [{ kind: "people", input: "Engineers", app_query: { keywords: "engineer" }, members: { watching: 2 } }],
      preferences: { email_enabled: true, emails: ["hiring@acme.example"] },
    });
    unwrap(await client.POST("/targets", { body: { kind: "people", input: "Designers" } }));
    sandbox.advance(90_000); // a job mid-way, events due
    /** Every read of the state, as status and body text. */
    const reads = async (c: typeof client) => {
      const texts: string[] = [];
      const text = async (path: string) => {
        const res = await fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${sandbox.keys.acme}` } });
        texts.push(`${path} ${res.status} ${await res.text()}`);
      };
      for (const path of ["/lists", "/queries", "/targets", "/events", "/signals/preferences", "/me"]) await text(path);
      for (const l of unwrap(await c.GET("/lists")).data) await text(`/lists/${l.id}`);
      for (const t of unwrap(await c.GET("/targets")).data) await text(`/targets/${t.id}/members?status=all`);
      return texts;
    };
    const before = await reads(client);
    const snapshot = JSON.parse(JSON.stringify(sandbox.snapshot())) as ReturnType<typeof sandbox.snapshot>;

    const restored = open({ seed: 3, initialState: snapshot });
    await restored.sandbox.ready;
    const after = await reads(restored.client);
    expect(after).toEqual(before);
    expect(before.join("\n")).toContain("Finalists");
    expect(before.join("\n")).toContain("Designers");

    // seedState takes it too.
    // The same graph (a snapshot holds the state; the graph comes from the seed); its clock is the snapshot's.
    const third = open({ seed: 3, now: "2030-01-01T00:00:00Z" });
    await third.sandbox.seedState(snapshot);
    expect(third.sandbox.snapshot().now).toBe(snapshot.now);
    expect(await reads(third.client)).toEqual(before);
    // Nothing a control route answers carries it: a snapshot holds what a state file holds (webhook secrets too).
    expect((await fetch("http://localhost:5173/__sandbox/snapshot")).status).toBe(404);
  });

  it("a damaged snapshot is refused with its part named; the sandbox stays at the seed", async () => {
    const { sandbox, client } = open();
    const snapshot = sandbox.snapshot();
    await expect(sandbox.seedState({ ...snapshot, orgs: "none" as never })).rejects.toThrow(
      /^initialState: not a snapshot this sandbox can use/,
    );
    await expect(sandbox.seedState({ ...snapshot, snapshot: 2 as never })).rejects.toThrow(/reads format 1/);
    expect(unwrap(await client.GET("/lists")).data.map((l) => l.name)).toEqual(["Saved people"]);
  });
});

describe("control routes in MSW", () => {
  it("/__sandbox/state, jobs and reset answer at the root of the mount's origin", async () => {
    const { client } = open();
    unwrap(await client.POST("/lists", { body: { name: "Temp" } }));
    const control = (path: string, method = "GET") =>
      fetch(`http://localhost:5173/__sandbox/${path}`, {
        method,
        headers: method === "GET" ? {} : { "content-type": "application/json" },
        ...(method === "GET" ? {} : { body: "{}" }),
      });
    const state = (await (await control("state")).json()) as { data: { organizations: { lists: number }[] } };
    expect(state.data.organizations[0]!.lists).toBe(1);
    expect((await control("jobs")).status).toBe(200);
    expect((await control("reset", "POST")).status).toBe(200);
    expect(unwrap(await client.GET("/lists")).data.map((l) => l.name)).toEqual(["Saved people"]);
    // A write from another site is refused as on the Node host.
    const foreign = await fetch("http://localhost:5173/__sandbox/reset", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: "{}",
    });
    expect(foreign.status).toBe(403);
  });
});
