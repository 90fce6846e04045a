/**
 * The "must show" on the generated default graph: a company-fragment search returns only people
 * with a matching position; every slug from the search rows resolves; the company's orbit lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSandbox, type TestSandbox } from "../testing/harness.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await openSandbox(); // default generated graph: 5,000 people, 320 companies
});
afterAll(async () => {
  await sb?.close();
});

interface Row {
  slug: string | null;
  network_url: string;
}

async function searchAll(params: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await sb.get(`/people?${params}&limit=100&offset=${offset}`);
    rows.push(...res.body.data);
    if (!res.body.meta.has_more) return rows;
  }
}

describe("must show", () => {
  it("company fragment search -> only people with a matching position; every slug resolves; the orbit lists them", async () => {
    // A company small enough for the orbit's 40 + 40 rows, named by a fragment of its name.
    const company = sb.graph.companies.find((c) => {
      const stints = sb.graph.stintsByCompany.get(c.key)!;
      const matchingNames = sb.graph.companies.filter((o) =>
        o.name.toLowerCase().includes(c.name.toLowerCase().slice(0, -2)),
      );
      return (
        matchingNames.length === 1 &&
        stints.length > 10 &&
        stints.filter((s) => s.stint.current).length <= 40 &&
        stints.filter((s) => !s.stint.current).length <= 40
      );
    })!;
    expect(company).toBeDefined();
    const fragment = company.name.toLowerCase().slice(0, -2);
    const rows = await searchAll(`company=${encodeURIComponent(fragment)}`);
    expect(rows.length).toBeGreaterThan(5);

    const orbit = await sb.get(`/companies/${company.key}`);
    const orbitUrls = new Set([...orbit.body.data.current, ...orbit.body.data.leavers].map((r: Row) => r.network_url));
    for (const row of rows) {
      const dossier = await sb.get(`/people/${row.slug ? row.slug : encodeURIComponent(row.network_url)}`);
      expect(dossier.status).toBe(200);
      expect(dossier.body.data.network_url).toBe(row.network_url);
      const matching = dossier.body.data.positions.filter((p: { company: string | null; company_url: string | null }) =>
        `${p.company} ${p.company_url}`.toLowerCase().includes(fragment),
      );
      expect(matching.length, row.network_url).toBeGreaterThan(0);
      expect(orbitUrls.has(row.network_url), row.network_url).toBe(true);
    }
    expect(orbitUrls.size).toBe(new Set(rows.map((r) => r.network_url)).size);
  });

  it("every slug from assorted search rows resolves in GET /people/{slug}", async () => {
    const searches = [
      "nl=engineers%20in%20Europe",
      "location=Asia&open_to_work=true",
      "skills=python;sql&skill_match=all",
      "exploring=true",
      "roles=data:36",
      "keywords=senior&view=compact",
    ];
    for (const s of searches) {
      const res = await sb.get(`/people?${s}&limit=20`);
      expect(res.body.data.length, s).toBeGreaterThan(0);
      for (const row of res.body.data) {
        if (!row.slug) continue;
        const dossier = await sb.get(`/people/${row.slug}`);
        expect(dossier.status).toBe(200);
      }
    }
  });

  it("the spec's example person and company resolve", async () => {
    const priya = await sb.get("/people/priya-raman?include=coworkers,similar");
    expect(priya.body.data.full_name).toBe("Priya Raman");
    expect(priya.body.coworkers.length).toBeGreaterThan(0);
    const orbit = await sb.get("/companies/northwind-labs");
    expect(orbit.body.data.current.map((r: Row) => r.slug)).toContain("priya-raman");
    expect(orbit.body.data.current.length).toBeLessThanOrEqual(40);
  });

  it("an unfiltered browse reports total null; a filtered one its count", async () => {
    const browse = await sb.get("/people?limit=100");
    expect(browse.body.meta).toMatchObject({ count: 100, has_more: true, total: null, total_capped: false });
    const filtered = await sb.get("/people?location=Europe&limit=1");
    expect(filtered.body.meta.total).toBeGreaterThan(1000);
  });
});
