/** Saved queries and Lists (custom and generated default Lists, members). */
import { describe, expect, it } from "vitest";
import { expectNotVisible, useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();

describe("saved queries", () => {
  it("compacts query to the allowlist: null and empty strings dropped, 0 and false kept, unknown keys dropped, values not validated", async () => {
    const query = {
      company: "northwind",
      min_company_months: 0,
      open_to_work: false,
      between_roles: null,
      keywords: "",
      skills: " ",
      q_in: "everything", // not validated
      roles: ["engineering"], // nested types are not validated
      limit: 10, // pagination is not a filter
      view: "compact",
      unknown: { nested: true },
    };
    const res = await sb.request("POST", "/queries", {
      body: { name: "  Northwind engineers  ", query, extra: "stripped" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: "Northwind engineers",
      query: {
        company: "northwind",
        min_company_months: 0,
        open_to_work: false,
        skills: " ",
        q_in: "everything",
        roles: ["engineering"],
      },
      created_at: new Date(sb.clock.now).toISOString(),
    });
    const empty = await sb.request("POST", "/queries", { body: { name: "Everything", query: {} } });
    expect(empty.body.data.query).toEqual({});
  });

  it("every call creates a new record; GET /queries lists them (newest first) and GET /queries/{id} reads one", async () => {
    const body = { name: "Same", query: { company: "fabrikam" } };
    const a = (await sb.request("POST", "/queries", { body })).body.data;
    sb.tick();
    const b = (await sb.request("POST", "/queries", { body })).body.data;
    expect(a.id).not.toBe(b.id);
    const list = await sb.get("/queries");
    expect(list.body).toEqual({ data: [b, a], meta: { count: 2 } });
    expect((await sb.get(`/queries/${a.id}`)).body).toEqual({ data: a });
    expect((await sb.get(`/queries/${a.id.toUpperCase()}`)).body.data.id).toBe(a.id);
  });

  it("a saved query replays on GET /people", async () => {
    const saved = (
      await sb.request("POST", "/queries", {
        body: { name: "Northwind current", query: { company: "northwind", company_current: true } },
      })
    ).body.data;
    const params = new URLSearchParams(Object.entries(saved.query).map(([k, v]) => [k, String(v)]));
    const people = await sb.get(`/people?${params}`);
    expect(people.body.data.map((p: any) => p.slug).sort()).toEqual(["jonas-weber", "kwame-mensah", "priya-raman"]);
  });

  it("rejects a missing, null, blank or over-long name and a missing or non-object query with 400", async () => {
    const bodies: unknown[] = [
      { query: {} },
      { name: null, query: {} },
      { name: "   ", query: {} },
      { name: "x".repeat(81), query: {} },
      { name: "ok" },
      { name: "ok", query: null },
      { name: "ok", query: [] },
      { name: "ok", query: "company=northwind" },
      "not json",
    ];
    for (const body of bodies) {
      const res = await sb.request("POST", "/queries", { body, invalidRequest: true });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    }
    expect((await sb.get("/queries")).body.meta.count).toBe(0);
  });

  it("an unknown id is not found (the spec documents no 404 for GET /queries/{id}: 400 naming it) and a non-UUID is 400", async () => {
    expectNotVisible(sb, await sb.get("/queries/00000000-0000-4000-8000-000000000000"), "getSavedQuery");
    expect((await sb.get("/queries/abc", { invalidRequest: true })).status).toBe(400);
  });
});

describe("Lists", () => {
  it("GET /lists synchronizes the default Lists first: the origin List and one per Target (default Lists first)", async () => {
    const custom = (
      await sb.request("POST", "/lists", { body: { name: "Backend shortlist", description: "Platform team" } })
    ).body.data;
    let lists = (await sb.get("/lists")).body;
    expect(lists.meta.count).toBe(2);
    expect(lists.data[0]).toMatchObject({
      name: "Saved people",
      is_default: true,
      default_key: "origin",
      source_watch_id: null,
      member_count: 0,
    });
    expect(lists.data[1]).toEqual(custom);
    const t = await sb.northwind({ auto_admit: true });
    lists = (await sb.get("/lists")).body;
    expect(lists.data.map((l: any) => [l.name, l.default_key])).toEqual([
      ["Saved people", "origin"],
      ["Northwind Labs", "target"],
      ["Backend shortlist", null],
    ]);
    expect(lists.data[1]).toMatchObject({
      is_default: true,
      source_watch_id: t.id,
      member_count: 7,
      description: "People discovered by the Northwind Labs Target",
    });
  });

  it("POST /lists creates a custom List every call (names are not unique); an empty description is stored as null", async () => {
    const a = await sb.request("POST", "/lists", { body: { name: " Shortlist ", description: "", ignored: 1 } });
    const b = await sb.request("POST", "/lists", { body: { name: "Shortlist" } });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({
      name: "Shortlist",
      description: null,
      is_default: false,
      default_key: null,
      source_watch_id: null,
      member_count: 0,
    });
    expect(b.body.data.id).not.toBe(a.body.data.id);
    for (const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(81) },
      { name: "ok", description: "x".repeat(401) },
      { name: 5 },
    ]) {
      const res = await sb.request("POST", "/lists", { body, invalidRequest: true });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("GET /lists/{id} resolves a UUID or a case-insensitive name and shows the members", async () => {
    const list = (await sb.request("POST", "/lists", { body: { name: "Backend Shortlist" } })).body.data;
    for (const id of [list.id, "backend shortlist", "BACKEND%20SHORTLIST"]) {
      const res = await sb.get(`/lists/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ...list, members: [] });
    }
    expect((await sb.get("/lists/saved%20people")).body.data.default_key).toBe("origin");
    expectNotVisible(sb, await sb.get("/lists/nothing%20here"), "getList");
  });

  it("adds members by profile URL or slug; a repeated write overwrites stage and notes; PATCH updates one membership", async () => {
    const list = (await sb.request("POST", "/lists", { body: { name: "Shortlist" } })).body.data;
    const add = await sb.request("POST", `/lists/${list.id}/members`, {
      body: {
        urls: [
          "https://network.example.com/in/priya-raman",
          "lucas-moreau",
          "https://network.example.com/in/off-graph-person",
          "no such person",
        ],
        stage: "sourced",
      },
    });
    expect(add.status).toBe(200);
    expect(add.body.data).toMatchObject({ added: 3, updated: 0, ignored: ["no such person"] });
    const priya = add.body.data.members[0];
    expect(priya).toMatchObject({
      network_url: "https://network.example.com/in/priya-raman",
      stage: "sourced",
      notes: null,
    });
    sb.tick();
    const again = await sb.request("POST", `/lists/${list.id}/members`, {
      body: { urls: ["priya-raman"], stage: "contacted", notes: "Intro call booked" },
    });
    expect(again.body.data).toMatchObject({ added: 0, updated: 1 });
    expect(again.body.data.members[0]).toMatchObject({ id: priya.id, stage: "contacted", notes: "Intro call booked" });
    const patched = await sb.request("PATCH", `/lists/shortlist/members/${priya.id}`, { body: { notes: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: priya.id, stage: "contacted", notes: null });
    const read = (await sb.get(`/lists/${list.id}`)).body.data;
    expect(read.member_count).toBe(3);
    expect(read.members.find((m: any) => m.id === priya.id)).toMatchObject({ stage: "contacted", notes: null });
    expect(Date.parse(read.updated_at)).toBeGreaterThan(Date.parse(read.created_at));
  });

  it("rejects bad member writes with 400 and unknown memberships", async () => {
    const list = (await sb.request("POST", "/lists", { body: { name: "Shortlist" } })).body.data;
    for (const body of [
      undefined,
      {},
      { urls: [] },
      { urls: "priya-raman" },
      { urls: [1] },
      { urls: ["priya-raman"], stage: 3 },
      { urls: ["priya-raman"], notes: "x".repeat(2001) },
    ]) {
      const res = await sb.request("POST", `/lists/${list.id}/members`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await sb.request("PATCH", `/lists/${list.id}/members/00000000-0000-4000-8000-000000000000`, {
      body: { stage: "x" },
    });
    expectNotVisible(sb, unknown, "updateListMember");
  });

  it("a Target List mirrors the Target's watching members: writes only set stage and notes of existing members", async () => {
    const t = await sb.northwind();
    const [a] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "watching", urls: [a.network_url] } });
    const res = await sb.request("POST", "/lists/northwind%20labs/members", {
      body: { urls: [a.network_url, "lucas-moreau"], stage: "interview" },
    });
    expect(res.body.data).toMatchObject({ added: 0, updated: 1, ignored: ["lucas-moreau"] });
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [a.network_url] } });
    expect((await sb.get("/lists/northwind%20labs")).body.data.member_count).toBe(0);
  });

  it("DELETE /lists/{id} answers 204 without a body; a deleted default List is generated again by the next synchronization", async () => {
    const list = (await sb.request("POST", "/lists", { body: { name: "Temp" } })).body.data;
    const del = await sb.request("DELETE", "/lists/TEMP");
    expect(del.status).toBe(204);
    expect(del.body).toBeNull();
    expect((await sb.get("/lists")).body.data.some((l: any) => l.id === list.id)).toBe(false);
    expectNotVisible(sb, await sb.request("DELETE", `/lists/${list.id}`), "deleteList");
    const origin = (await sb.get("/lists/saved%20people")).body.data;
    expect((await sb.request("DELETE", `/lists/${origin.id}`)).status).toBe(204);
    const regenerated = (await sb.get("/lists")).body.data[0];
    expect(regenerated).toMatchObject({ default_key: "origin", name: "Saved people" });
    expect(regenerated.id).not.toBe(origin.id);
  });
});
