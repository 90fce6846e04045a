/** GET /targets/{id}/members: every filter, the clamps and the order; POST status changes and their counts. */
import { beforeEach, describe, expect, it } from "vitest";
import { useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();
let nw: any; // Northwind Labs, the 6 graph people only (result_limit 6), all proposed
beforeEach(async () => {
  nw = await sb.northwind({ result_limit: 6 });
});

const names = (rows: any[]) => rows.map((m) => m.full_name);
const sorted = (xs: string[]) => [...xs].sort();

async function who(query: string): Promise<string[]> {
  return sorted(names(await sb.members(nw.id, query)));
}

describe("GET /targets/{id}/members filters", () => {
  it.each([
    ["", ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"]],
    ["status=all", ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"]],
    ["status=watching", []],
    ["q=northwind", ["Jonas Weber", "Kwame Mensah", "Priya Raman"]],
    ["q=PRIYA", ["Priya Raman"]],
    ["q=fabrikam", ["Amara Okafor"]], // current_company
    ["keywords=manager", ["Amara Okafor", "Jonas Weber", "Kwame Mensah"]],
    ["q=priya&keywords=manager", ["Priya Raman"]], // keywords is an alias only when q is absent
    ["stint=current", ["Jonas Weber", "Kwame Mensah", "Priya Raman"]],
    ["stint=alum", ["Amara Okafor", "Mei Chen", "Olivia Smith"]],
    ["company_current=true", ["Jonas Weber", "Kwame Mensah", "Priya Raman"]],
    ["company_current=yes", ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"]],
    ["company_left_min_months_ago=6", ["Amara Okafor", "Mei Chen", "Olivia Smith"]],
    [
      "company_left_min_months_ago=0",
      ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"],
    ],
    [
      "stint=all&company_current=true",
      ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"],
    ],
    ["stint=current&company_left_min_months_ago=6", ["Jonas Weber", "Kwame Mensah", "Priya Raman"]],
    ["location=Germany", ["Jonas Weber", "Priya Raman"]],
    ["location=berlin%3BACCRA", ["Kwame Mensah", "Priya Raman"]],
    ["location=New%20York%2C%20United%20States", ["Olivia Smith"]],
    ["location=Africa", ["Amara Okafor", "Kwame Mensah"]],
    ["location=Germany&exclude_locations=Hamburg", ["Priya Raman"]],
    ["location=Hamburg&exclude_locations=Hamburg", []], // exclusions win
    ["exclude_locations=Europe%3BAsia", ["Amara Okafor", "Kwame Mensah", "Olivia Smith"]],
    ["company=NORTHWIND", ["Jonas Weber", "Kwame Mensah", "Priya Raman"]],
    ["company=contoso", ["Mei Chen"]],
    ["roles=engineering", ["Jonas Weber", "Olivia Smith", "Priya Raman"]],
    ["roles=t.contains.manager", ["Amara Okafor", "Jonas Weber", "Kwame Mensah"]],
    ["roles=t.exact.freelance%2520software%2520engineer", ["Olivia Smith"]],
    ["roles=engineering,t.contains.manager", ["Jonas Weber"]], // tokens are ANDed
    ["roles=product:600@contoso", ["Amara Okafor"]], // months and @company are not applied
    ["roles=t.contains.scientist%3Banalyst", ["Mei Chen"]], // titles in one token are ORed
    ["depth=stub", ["Amara Okafor", "Jonas Weber", "Kwame Mensah", "Mei Chen", "Olivia Smith", "Priya Raman"]],
    ["depth=enriched", []],
  ])("?%s", async (query, expected) => {
    expect(await who(query)).toEqual(expected);
  });

  it("meta.count is the total of rows matching every filter, not the page length", async () => {
    const res = await sb.get(`/targets/${nw.id}/members?stint=current&limit=1`);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.meta.count).toBe(3);
  });

  it("exclude_recruiters: only the exact string true drops recruiter, talent-acquisition, sourcer, staffing and talent-partner headlines", async () => {
    const fab = await sb.northwind({ input: "Fabrikam", result_limit: 4 });
    const all = ["Amara Okafor", "Jonas Weber", "Lena Fischer", "Sofía García"];
    expect(sorted(names(await sb.members(fab.id)))).toEqual(all);
    expect(sorted(names(await sb.members(fab.id, "exclude_recruiters=true")))).toEqual([
      "Amara Okafor",
      "Jonas Weber",
      "Lena Fischer",
    ]);
    for (const other of ["TRUE", "1", "yes", "false"])
      expect(sorted(names(await sb.members(fab.id, `exclude_recruiters=${other}`)))).toEqual(all);
  });

  it("depth and status follow acceptance and enrichment", async () => {
    await sb.request("POST", `/targets/${nw.id}/members`, {
      body: {
        status: "watching",
        urls: ["https://network.example.com/in/priya-raman", "network.example.com/in/jonas-weber/"],
      },
    });
    expect(await who("status=watching")).toEqual(["Jonas Weber", "Priya Raman"]);
    expect(await who("status=watching&depth=enriched")).toEqual([]);
    await sb.finish(nw.id);
    expect(await who("depth=enriched")).toEqual(["Jonas Weber", "Priya Raman"]);
    expect((await who("depth=stub")).length).toBe(4);
    const [enriched] = await sb.members(nw.id, "depth=enriched&q=priya");
    expect(enriched).toMatchObject({
      profile_slug: "priya-raman",
      public_identifier: "priya-raman",
      enriched_at: expect.any(String),
      network_id: expect.stringMatching(/^tgn_/),
    });
  });

  it("first_seen_after keeps rows first seen at or after the timestamp", async () => {
    const [row] = await sb.members(nw.id);
    const at = row.first_seen_at as string;
    expect((await who(`first_seen_after=${encodeURIComponent(at)}`)).length).toBe(6);
    const later = new Date(Date.parse(at) + 1).toISOString();
    expect(await who(`first_seen_after=${encodeURIComponent(later)}`)).toEqual([]);
    const bad = await sb.get(`/targets/${nw.id}/members?first_seen_after=yesterday`, { invalidRequest: true });
    expect(bad.status).toBe(400);
  });

  it("takes values outside the documented sets: a status no member has selects none, another stint or depth all", async () => {
    expect(await who("status=pending")).toEqual([]);
    const all = await who("");
    expect(all.length).toBe(6);
    expect(await who("stint=former")).toEqual(all);
    expect(await who("depth=deep")).toEqual(all);
    // An ISO-8601 timestamp without an offset is UTC; a reduced-precision date is the start of its period.
    const [row] = await sb.members(nw.id);
    const at = (row.first_seen_at as string).replace(/(\.\d+)?Z$/, "");
    expect((await who(`first_seen_after=${encodeURIComponent(at)}`)).length).toBe(6);
    expect((await who("first_seen_after=2026")).length).toBe(6);
    const impossible = await sb.get(`/targets/${nw.id}/members?first_seen_after=2026-02-30`, { invalidRequest: true });
    expect(impossible.status).toBe(400);
  });

  it("takes a location list above 20 segments or 120 characters (not framework-validated)", async () => {
    const many = Array.from({ length: 21 }, (_, i) => `Place${i}`).join(";");
    for (const q of [`location=${many}`, `exclude_locations=${"x".repeat(121)}`]) {
      const res = await sb.get(`/targets/${nw.id}/members?${q}`);
      expect(res.status, q).toBe(200);
    }
    // The first 20 distinct places are used, each cut to 120 characters: a 21st place selects nothing more.
    const all = (await sb.get(`/targets/${nw.id}/members`)).body.meta.count;
    const place = (await sb.get(`/targets/${nw.id}/members`)).body.data.find(
      (m: { location: string | null }) => m.location,
    )?.location as string;
    const beyond = `${Array.from({ length: 20 }, (_, i) => `Nowhere${i}`).join(";")};${place}`;
    expect((await sb.get(`/targets/${nw.id}/members?location=${encodeURIComponent(beyond)}`)).body.meta.count).toBe(0);
    const cut = `${place}${"x".repeat(121 - place.length)}`;
    expect(
      (await sb.get(`/targets/${nw.id}/members?exclude_locations=${encodeURIComponent(cut)}`)).body.meta.count,
    ).toBe(all);
  });

  it("a malformed number is a 400", async () => {
    const res = await sb.get(`/targets/${nw.id}/members?limit=ten`, { invalidRequest: true });
    expect([res.status, res.body.error.type]).toEqual([400, "invalid_request"]);
  });
});

describe("GET /targets/{id}/members paging and order", () => {
  it("limit defaults to 50 and is clamped to 1-500; a negative offset becomes 0", async () => {
    const page = async (q: string) => (await sb.get(`/targets/${nw.id}/members?${q}`)).body;
    expect((await page("")).data).toHaveLength(6);
    expect((await page("limit=0")).data).toHaveLength(1);
    expect((await page("limit=-3")).data).toHaveLength(1);
    expect((await page("limit=100000")).data).toHaveLength(6);
    expect(names((await page("offset=-5&limit=2")).data)).toEqual(names((await page("offset=0&limit=2")).data));
    const last = await page("offset=4&limit=2");
    expect(last.data).toHaveLength(2);
    expect(last.meta.count).toBe(6);
    expect((await page("offset=10")).data).toEqual([]);
  });

  it("pages by offset + limit while below meta.count, covering every row once", async () => {
    const all: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const res = (await sb.get(`/targets/${nw.id}/members?limit=4&offset=${offset}`)).body;
      all.push(...names(res.data));
      if (offset + 4 >= res.meta.count) break;
    }
    expect(all).toEqual(names(await sb.members(nw.id)));
  });

  it("orders proposed, then watching, then excluded; then full_name with nulls last; listing changes nothing", async () => {
    const t = await sb.northwind({ input: "northwind-labs", result_limit: 7 }); // the same Target: 200 reuse
    expect(t.id).toBe(nw.id);
    const full = await sb.northwind({ input: "Contoso Robotics" });
    const rows = await sb.members(full.id);
    const stub = rows.find((m) => m.full_name === null);
    expect(stub).toBeDefined();
    const [first, second] = rows.filter((m) => m.full_name !== null);
    await sb.request("POST", `/targets/${full.id}/members`, {
      body: { status: "excluded", urls: [first.network_url] },
    });
    await sb.request("POST", `/targets/${full.id}/members`, {
      body: { status: "watching", urls: [second.network_url] },
    });
    const ordered = await sb.members(full.id);
    const statuses = ordered.map((m) => m.status);
    expect(statuses).toEqual(
      [...statuses].sort(
        (a, b) => ["proposed", "watching", "excluded"].indexOf(a) - ["proposed", "watching", "excluded"].indexOf(b),
      ),
    );
    const proposed = ordered.filter((m) => m.status === "proposed");
    expect(proposed[proposed.length - 1].full_name).toBeNull();
    const named = proposed.filter((m) => m.full_name !== null).map((m) => m.full_name);
    expect(named).toEqual([...named].sort((a, b) => a.localeCompare(b, "en")));
    expect(await sb.members(full.id)).toEqual(ordered);
  });

  it("404 not_found with message watch not found for an unknown or foreign Target", async () => {
    for (const [path, key] of [
      [`/targets/00000000-0000-4000-8000-000000000000/members`, "acme"],
      [`/targets/${nw.id}/members`, "globex"],
    ] as const) {
      const res = await sb.get(path, { key });
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ type: "not_found", message: "watch not found" });
      const post = await sb.request("POST", path, { key, body: { status: "watching", apply: "filter" } });
      expect(post.status).toBe(404);
    }
  });
});

describe("POST /targets/{id}/members", () => {
  it("selected mode normalizes and de-duplicates URLs, ignores unusable values and counts matched rows", async () => {
    const res = await sb.request("POST", `/targets/${nw.id}/members`, {
      body: {
        status: "watching",
        urls: [
          "https://www.network.example.com/in/priya-raman/",
          "HTTPS://NETWORK.EXAMPLE.COM/in/priya-raman?trk=x",
          "priya-raman",
          "not a url",
          "https://network.example.com/in/nobody",
        ],
      },
    });
    expect(res.body.data.updated).toBe(1);
    expect(await who("status=watching")).toEqual(["Priya Raman"]);
  });

  it("updated counts the matched rows already at the requested status, in both modes", async () => {
    const body = { status: "excluded", urls: ["https://network.example.com/in/olivia-smith"] };
    expect((await sb.request("POST", `/targets/${nw.id}/members`, { body })).body.data.updated).toBe(1);
    expect((await sb.request("POST", `/targets/${nw.id}/members`, { body })).body.data.updated).toBe(1);
    const filter = await sb.request("POST", `/targets/${nw.id}/members?status=excluded&q=olivia`, {
      body: { status: "excluded", apply: "filter" },
    });
    expect(filter.body.data.updated).toBe(1);
    // Put back, so the tests after this one see the Target as before.
    await sb.request("POST", `/targets/${nw.id}/members`, { body: { ...body, status: "proposed" } });
  });

  it("apply omitted means selected; missing urls update zero rows", async () => {
    const res = await sb.request("POST", `/targets/${nw.id}/members`, { body: { status: "excluded" } });
    expect(res.body.data.updated).toBe(0);
    expect(await who("status=excluded")).toEqual([]);
  });

  it("filter mode takes the URL's filters (limit and offset do not apply); status=proposed accepts only pending members", async () => {
    await sb.request("POST", `/targets/${nw.id}/members`, {
      body: { status: "excluded", urls: ["https://network.example.com/in/kwame-mensah"] },
    });
    const res = await sb.request("POST", `/targets/${nw.id}/members?status=proposed&stint=current&limit=1&offset=5`, {
      body: { status: "watching", apply: "filter" },
    });
    expect(res.body.data.updated).toBe(2);
    expect(await who("status=watching")).toEqual(["Jonas Weber", "Priya Raman"]);
    expect(await who("status=excluded")).toEqual(["Kwame Mensah"]);
    const again = await sb.request("POST", `/targets/${nw.id}/members?q=northwind`, {
      body: { status: "watching", apply: "filter" },
    });
    expect(again.body.data.updated).toBe(2); // Kwame is excluded and skipped; the two already watching count
  });

  it("rejects a missing status, an invalid enum, more than 500 urls, unknown properties and invalid JSON with 400", async () => {
    const bodies: unknown[] = [
      {},
      { status: "accepted" },
      { status: "watching", apply: "all" },
      { status: "watching", urls: [] },
      { status: "watching", urls: Array.from({ length: 501 }, (_, i) => `https://network.example.com/in/p${i}`) },
      { status: "watching", urls: "https://network.example.com/in/priya-raman" },
      { status: "watching", extra: true },
      "{",
    ];
    for (const body of bodies) {
      const res = await sb.request("POST", `/targets/${nw.id}/members`, { body, invalidRequest: true });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    }
    expect(await who("status=proposed")).toHaveLength(6);
  });

  it("500 urls are accepted", async () => {
    const urls = Array.from({ length: 500 }, (_, i) =>
      i === 0 ? "https://network.example.com/in/mei-chen" : `https://network.example.com/in/p${i}`,
    );
    const res = await sb.request("POST", `/targets/${nw.id}/members`, { body: { status: "excluded", urls } });
    expect(res.body.data.updated).toBe(1);
  });
});
