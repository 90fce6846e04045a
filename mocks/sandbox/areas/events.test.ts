/** GET /events: visibility, since, type, list, cursor, limit, ordering; diffs of every kind. */
import { describe, expect, it } from "vitest";
import { PARAMETER_RULES } from "../../../generated/spec-constants.js";
import { useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();

const PRIYA = "https://network.example.com/in/priya-raman";
const JONAS = "https://network.example.com/in/jonas-weber";
const LUCAS = "https://network.example.com/in/lucas-moreau";
const RYAN = "https://network.example.com/in/ryan-kelly"; // in the shared default orbit (the last graph people)

async function events(query = "", key: "acme" | "globex" = "acme"): Promise<any[]> {
  const res = await sb.get(`/events${query ? `?${query}` : ""}`, { key });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const people = (rows: any[]) => [...new Set(rows.map((e) => e.person.network_url))].sort();

/** Northwind with Priya watching; everyone else proposed. */
async function watchPriya(): Promise<any> {
  const t = await sb.northwind({ result_limit: 6 });
  await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "watching", urls: [PRIYA] } });
  await sb.finish(t.id);
  return t;
}

describe("visibility", () => {
  it("shows watching members, not proposed or excluded ones; membership changes alter what is visible later", async () => {
    const t = await watchPriya();
    await sb.emit({ person: PRIYA, count: 2 });
    await sb.emit({ person: JONAS, count: 2 }); // proposed on the Target: not visible
    expect(people(await events())).toEqual([PRIYA]);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "watching", urls: [JONAS] } });
    expect(people(await events())).toEqual([JONAS, PRIYA]); // earlier diffs become visible
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [PRIYA] } });
    expect(people(await events())).toEqual([JONAS]);
  });

  it("shows current members of the organization's Lists and the shared default-orbit watches", async () => {
    await sb.emit({ person: LUCAS });
    await sb.emit({ person: RYAN });
    expect(people(await events())).toEqual([RYAN]);
    expect((await events())[0].source).toBe("demo");
    await sb.request("POST", "/lists", { body: { name: "Shortlist" } });
    await sb.request("POST", "/lists/shortlist/members", { body: { urls: [LUCAS] } });
    expect(people(await events())).toEqual([LUCAS, RYAN]);
    expect(people(await events("", "globex"))).toEqual([RYAN]);
  });

  it("list=<UUID or name> shows only that List's members; a missing or foreign List is 404", async () => {
    await watchPriya();
    const list = (await sb.request("POST", "/lists", { body: { name: "Shortlist" } })).body.data;
    await sb.request("POST", `/lists/${list.id}/members`, { body: { urls: [LUCAS] } });
    await sb.emit({ person: PRIYA });
    await sb.emit({ person: LUCAS });
    await sb.emit({ person: RYAN });
    expect(people(await events())).toEqual([LUCAS, PRIYA, RYAN]);
    expect(people(await events(`list=${list.id}`))).toEqual([LUCAS]);
    expect(people(await events("list=SHORTLIST"))).toEqual([LUCAS]);
    expect(people(await events("list=northwind%20labs"))).toEqual([PRIYA]); // the Target's default List
    for (const [query, key] of [
      ["list=nope", "acme"],
      [`list=${list.id}`, "globex"],
      ["list=shortlist", "globex"],
    ] as const) {
      const res = await sb.get(`/events?${query}`, { key });
      expect(res.status, query).toBe(404);
      expect(res.body.error.type).toBe("not_found");
    }
  });
});

describe("diffs", () => {
  it("produces every field kind with before/after, severity, source and a person", async () => {
    await watchPriya();
    const fields = [
      "open_to_work",
      "between_roles",
      "exploring",
      "left_company",
      "joined_company",
      "removed_position",
      "headline",
      "about",
      "role_description",
    ];
    for (const field of fields) await sb.emit({ person: PRIYA, field });
    const rows = (await events("limit=100")).reverse();
    expect(rows.map((e) => e.field)).toEqual(fields);
    const by = Object.fromEntries(rows.map((e) => [e.field, e]));
    expect(by.open_to_work).toMatchObject({
      before: "false",
      after: "true",
      severity: "hot",
      label: "Priya Raman is open to work",
    });
    expect(by.exploring).toMatchObject({ before: "true", after: "false", severity: "quiet" }); // Priya's assessment was true
    expect(by.left_company).toMatchObject({
      before: "Northwind Labs",
      after: null,
      severity: "hot",
      label: "Priya Raman left Northwind Labs",
    });
    expect(by.joined_company).toMatchObject({ before: null, severity: "hot" });
    expect(by.joined_company.person.current_company).toBe(by.joined_company.after);
    expect(by.headline).toMatchObject({ before: "Staff Backend Engineer at Northwind Labs", severity: "quiet" });
    expect(by.headline.person.headline).toBe(by.headline.after);
    expect(by.about).toMatchObject({ before: null, severity: "quiet" });
    for (const e of rows) {
      expect(["ingest", "snapshot_diff"]).toContain(e.source);
      expect(e.person).toMatchObject({ slug: "priya-raman", name: "Priya Raman", network_url: PRIYA });
    }
    // Successive diffs chain: the before of a diff is the after of the previous one of the same field.
    await sb.emit({ person: PRIYA, field: "headline" });
    const [latest] = await events("type=headline&limit=1");
    expect(latest.before).toBe(by.headline.after);
  });

  it("the emit control endpoint takes a source and a severity, a Target's watching members, and rejects bad input", async () => {
    const t = await watchPriya();
    const out = await sb.emit({
      target_id: t.id,
      count: 3,
      source: "ingest",
      severity: "quiet",
      field: "open_to_work",
    });
    expect(out).toHaveLength(3);
    expect(
      out.every((e: any) => e.person.network_url === PRIYA && e.source === "ingest" && e.severity === "quiet"),
    ).toBe(true);
    for (const body of [
      { count: 0 },
      { count: 1001 },
      { field: "salary" },
      { source: "rumor" },
      { person: "nobody at all" },
      { list: "x" },
    ]) {
      expect((await sb.control("POST", "/__sandbox/events/emit", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await sb.control("POST", "/__sandbox/events/emit", { target_id: "00000000-0000-4000-8000-000000000000" }))
        .status,
    ).toBe(404);
  });
});

describe("GET /events parameters", () => {
  it("orders by seen_at then id, descending; the cursor pages strictly older; meta describes the page", async () => {
    await watchPriya();
    for (let i = 0; i < 4; i++) {
      await sb.control("POST", "/__sandbox/events/emit", { person: PRIYA, count: 3 }); // three diffs per millisecond
      sb.tick(1000);
    }
    const all = await events("limit=100");
    expect(all).toHaveLength(12);
    const key = (e: any) => `${e.seen_at}|${e.id}`;
    expect(all.map(key)).toEqual(all.map(key).sort().reverse());
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await sb.get(`/events?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      pages++;
      const { data, meta } = res.body;
      expect(meta).toMatchObject({ count: data.length, limit: 5, since: null });
      if (seen.length > 0) expect(key(data[0]) < key(seen[seen.length - 1])).toBe(true);
      seen.push(...data);
      expect(meta.has_more).toBe(seen.length < 12);
      cursor = meta.next;
      expect(cursor === null).toBe(!meta.has_more);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("since: ISO date/time or digits plus m, h, d or w; seen_at >= since; meta.since is the normalized lower bound", async () => {
    await watchPriya();
    const at = (iso: string) => {
      sb.clock.now = Date.parse(iso);
    };
    at("2026-11-01T00:00:00.000Z");
    await sb.control("POST", "/__sandbox/events/emit", { person: PRIYA }); // 3 weeks before "now"
    at("2026-11-21T09:00:00.000Z");
    await sb.control("POST", "/__sandbox/events/emit", { person: PRIYA }); // 1 day before
    at("2026-11-22T07:30:00.000Z");
    await sb.control("POST", "/__sandbox/events/emit", { person: PRIYA }); // 30 minutes before
    at("2026-11-22T08:00:00.000Z");
    const count = async (since: string) => (await sb.get(`/events?since=${encodeURIComponent(since)}`)).body;
    expect((await count("45m")).data).toHaveLength(1);
    expect((await count("45m")).meta.since).toBe("2026-11-22T07:15:00.000Z");
    expect((await count("2h")).data).toHaveLength(1);
    expect((await count("2d")).data).toHaveLength(2);
    expect((await count("4w")).data).toHaveLength(3);
    expect((await count("2026-11-21T09:00:00Z")).data).toHaveLength(2); // inclusive
    expect((await count("2026-11-21T09:00:00.001Z")).data).toHaveLength(1);
    expect((await count("2026-11-21")).meta.since).toBe("2026-11-21T00:00:00.000Z");
    expect((await count("2026-11-21T10:00:00+02:00")).meta.since).toBe("2026-11-21T08:00:00.000Z");
    expect((await count("2026-11-21 09:00")).data).toHaveLength(2);
    // ISO-8601 basic format and reduced precision, as ISO defines them.
    expect((await count("20261121T090000Z")).meta.since).toBe("2026-11-21T09:00:00.000Z");
    expect((await count("20261121T1000+0100")).meta.since).toBe("2026-11-21T09:00:00.000Z");
    expect((await count("2026-11-21T09")).meta.since).toBe("2026-11-21T09:00:00.000Z");
    // Reduced precision, the end of a day and a basic offset next to an extended time (spec/DECISIONS.md 21).
    expect((await count("2026")).meta.since).toBe("2026-01-01T00:00:00.000Z");
    expect((await count("2026-11")).meta.since).toBe("2026-11-01T00:00:00.000Z");
    expect((await count("2026-11-21T24:00Z")).meta.since).toBe("2026-11-22T00:00:00.000Z");
    expect((await count("2026-11-21T10:00:00+0200")).meta.since).toBe("2026-11-21T08:00:00.000Z");
    expect((await count("2026-11-21T09:00:00,5-01:30")).meta.since).toBe("2026-11-21T10:30:00.500Z");
  });

  it("rejects invalid since, type, cursor and limit values with 400, and empty values", async () => {
    for (const q of [
      "since=yesterday",
      "since=5y",
      "since=2026-13-45",
      "since=2026-02-30",
      "since=2025-02-29",
      "since=2026-04-31",
      "since=2026-11-21T24:30Z",
      "since=2026-11-21T24:00:00.5Z",
      "since=2026-W47-5",
      "since=2026-325",
      "since=2026-13",
      "since=20261121T09:00",
      "since=",
      "type=salary",
      "type=",
      "cursor=",
      "cursor=bm90LWpzb24",
      "list=",
      "limit=0",
      "limit=101",
      "limit=x",
    ]) {
      const res = await sb.get(`/events?${q}`, { invalidRequest: true });
      expect(res.status, q).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    }
  });

  it("type selects one field; limit defaults to the spec's default; unknown parameters are stripped; an empty page is valid", async () => {
    await watchPriya();
    await sb.control("POST", "/__sandbox/events/emit", { person: PRIYA, count: 30 });
    const page = (await sb.get("/events?unknown=1")).body;
    const limit = PARAMETER_RULES.listEvents.limit.default; // 25 in the spec today: the answer follows it
    expect(page.data).toHaveLength(limit);
    expect(page.meta).toMatchObject({ count: limit, limit, has_more: true });
    const heads = await events("type=headline&limit=100");
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.every((e) => e.field === "headline")).toBe(true);
    sb.clock.now = Date.parse("2026-11-22T09:00:00.000Z");
    const empty = (await sb.get("/events?since=1m")).body;
    expect(empty).toEqual({
      data: [],
      meta: { count: 0, limit: 25, has_more: false, next: null, since: "2026-11-22T08:59:00.000Z" },
    });
  });
});
