/** Dossier, coworkers, similar, company orbit and search, suggest, account on the fixture graph. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureGraphInput } from "../data/fixture.js";
import { openSandbox, type TestSandbox } from "../testing/harness.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await openSandbox({ graph: fixtureGraphInput() });
});
afterAll(async () => {
  await sb?.close();
});

const slugs = (rows: { slug: string | null; full_name: string | null }[]) =>
  rows.map((r) => r.slug ?? `(${r.full_name})`);

describe("GET /people/{slug}", () => {
  it("returns the full dossier: all positions, education, skills, languages, certifications, match {}", async () => {
    const res = await sb.get("/people/priya-raman");
    expect(Object.keys(res.body)).toEqual(["data"]);
    const p = res.body.data;
    expect(p.positions.map((x: { company: string }) => x.company)).toEqual(["Northwind Labs", "Contoso Robotics"]);
    expect(p.positions[0]).toEqual({
      company: "Northwind Labs",
      company_url: "https://network.example.com/company/northwind-labs",
      title: "Staff Backend Engineer",
      started_at: "2021-03",
      ended_at: null,
      tenure_months: 68,
      is_current: true,
      role_family: "engineering",
    });
    expect(p.education).toHaveLength(1);
    expect(p.skills).toEqual(["Go", "Kubernetes", "PostgreSQL"]);
    expect(p.certifications).toHaveLength(1);
    expect(p.match).toEqual({});
    expect(p).toMatchObject({
      is_exploring: true,
      exploring_since: "2026-10-12",
      is_between_roles: false,
      between_roles_since: null,
    });
  });

  it("collapses overlapping duplicate source rows", async () => {
    const res = await sb.get("/people/olivia-smith");
    expect(
      res.body.data.positions.map((x: { company: string; started_at: string }) => [x.company, x.started_at]),
    ).toEqual([
      ["Freelance", "2021-01"],
      ["Northwind Labs", "2016-01"],
    ]);
  });

  it("derives between-roles fields", async () => {
    const res = await sb.get("/people/lucas-moreau");
    expect(res.body.data).toMatchObject({ is_between_roles: true, between_roles_since: "2026-03" });
    const none = await sb.get("/people/ryan-kelly");
    expect(none.body.data).toMatchObject({ is_between_roles: false, between_roles_since: null, positions: [] });
  });

  it("resolves a URL-encoded profile URL, also for a person without slug, and slugs case-insensitively", async () => {
    const byUrl = await sb.get(`/people/${encodeURIComponent("https://network.example.com/in/priya-raman/")}`);
    expect(byUrl.body.data.slug).toBe("priya-raman");
    const noSlug = await sb.get(`/people/${encodeURIComponent("https://www.network.example.com/in/ana-silva-1a2b")}`);
    expect(noSlug.body.data.full_name).toBe("Ana Silva");
    expect((await sb.get("/people/PRIYA-RAMAN")).body.data.slug).toBe("priya-raman");
  });

  it("404 not_found when nothing resolves", async () => {
    const res = await sb.get("/people/nobody-here");
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ type: "not_found", message: "No person found for nobody-here" });
  });

  it("include=coworkers adds coworkers (overlap keys) and stints; include=similar adds similar; unknown values ignored", async () => {
    const res = await sb.get("/people/priya-raman?include=coworkers,similar,bogus");
    expect(Object.keys(res.body).sort()).toEqual(["coworkers", "data", "similar", "stints"]);
    expect(slugs(res.body.coworkers)).toEqual([
      "jonas-weber",
      "kwame-mensah",
      "amara-okafor",
      "mei-chen",
      "lucas-moreau",
      "(Ana Silva)",
    ]);
    expect(res.body.coworkers[0].match).toEqual({
      overlap_company: "Northwind Labs",
      overlap_months: 69,
      overlap_from: "2021-03",
      overlap_to: null,
      title_during: "Engineering Manager",
    });
    expect(res.body.coworkers[2].match).toEqual({
      overlap_company: "Northwind Labs",
      overlap_months: 34,
      overlap_from: "2021-03",
      overlap_to: "2023-12",
      title_during: "Product Manager",
    });
    expect(res.body.coworkers[0].positions.length).toBeLessThanOrEqual(2);
    expect(res.body.stints[0]).toMatchObject({
      company: "Northwind Labs",
      from: "2021-03",
      to: null,
      is_current: true,
    });
    expect(Array.isArray(res.body.similar)).toBe(true);
    const plain = await sb.get("/people/priya-raman?include=bogus");
    expect(Object.keys(plain.body)).toEqual(["data"]);
  });

  it("GET /people/{slug}/coworkers returns only { data }, same rows; flagged profiles are not coworkers", async () => {
    const res = await sb.get("/people/priya-raman/coworkers");
    expect(Object.keys(res.body)).toEqual(["data"]);
    expect(slugs(res.body.data)).not.toContain("dana-katz");
    expect(slugs(res.body.data)[0]).toBe("jonas-weber");
  });

  it("GET /people/{slug}/similar returns score and reasons, possibly empty", async () => {
    const res = await sb.get("/people/lucas-moreau/similar");
    expect(Object.keys(res.body)).toEqual(["data"]);
    for (const row of res.body.data)
      expect(row.match).toEqual({ score: expect.any(Number), reasons: expect.any(Array) });
    expect(slugs(res.body.data)).toContain("priya-raman"); // engineering, Go + Kubernetes, Contoso Robotics
    const empty = await sb.get("/people/ryan-kelly/similar");
    expect(empty.body.data).toEqual([]);
    expect((await sb.get("/people/nobody/similar")).status).toBe(404);
  });
});

describe("GET /companies/{key}", () => {
  it("orbit: counts from the whole graph, role mix, current and leavers (flagged rows left out of the arrays)", async () => {
    const res = await sb.get("/companies/northwind-labs");
    const { company, current, leavers } = res.body.data;
    expect(company).toEqual({
      key: "northwind-labs",
      name: "Northwind Labs",
      network_url: "https://network.example.com/company/northwind-labs",
      current_count: 4,
      alum_count: 3,
      role_mix: { engineering: 3, engineering_management: 1, product: 1, data: 1, finance: 1 },
    });
    expect(slugs(current)).toEqual(["priya-raman", "jonas-weber", "kwame-mensah"]);
    expect(slugs(leavers)).toEqual(["amara-okafor", "mei-chen", "olivia-smith"]);
    for (const row of [...current, ...leavers]) {
      expect(row.positions.length).toBeLessThanOrEqual(2);
      expect([row.education, row.skills, row.languages, row.certifications]).toEqual([[], [], [], []]);
    }
  });

  it.each([
    ["exact name", "northwind%20labs"],
    ["URL fragment", encodeURIComponent("company/northwind")],
    ["key", "northwind-labs"],
  ])("resolves by %s", async (_n, key) => {
    expect((await sb.get(`/companies/${key}`)).body.data.company.key).toBe("northwind-labs");
  });

  it("a company without URL; a person with several stints can be in both arrays", async () => {
    const bank = await sb.get("/companies/blue-harbor-bank");
    expect(bank.body.data.company).toMatchObject({ network_url: null, current_count: 0, alum_count: 1 });
    expect(slugs(bank.body.data.leavers)).toEqual(["kwame-mensah"]);
    // A boomerang: left Northwind Labs in 2020 and came back in 2023, so current and a leaver at once.
    const input = fixtureGraphInput();
    const base = input.people.find((p) => p.slug === "mei-chen")!;
    const [northwind] = base.positions.filter((p) => p.company === "Northwind Labs");
    const boomerang = {
      ...structuredClone(base),
      slug: "ada-returns",
      full_name: "Ada Returns",
      network_url: "https://network.example.com/in/ada-returns",
      positions: [
        { ...northwind!, title: "Staff Engineer", started_at: "2023-02", ended_at: null, is_current: true },
        { ...northwind!, title: "Engineer", started_at: "2017-01", ended_at: "2020-06", is_current: false },
      ],
    };
    const own = await openSandbox({ graph: { ...input, people: [...input.people, boomerang] } });
    try {
      const orbit = (await own.get("/companies/northwind-labs")).body.data;
      expect(slugs(orbit.current)).toContain("ada-returns");
      expect(slugs(orbit.leavers)).toContain("ada-returns");
    } finally {
      await own.close();
    }
  });

  it("exploring_since: the earliest qualifying evidence date of an exploring person, null for the others", async () => {
    const priya = (await sb.get("/people/priya-raman")).body.data;
    expect(priya.is_exploring).toBe(true);
    const dates = priya.exploring_interpretation.evidence
      .map((e: { seen_at: string }) => e.seen_at.slice(0, 10))
      .sort();
    expect(priya.exploring_since).toBe(dates[0]);
    expect(priya.exploring_since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const other = (await sb.get("/people/jonas-weber")).body.data;
    expect([other.is_exploring, other.exploring_since]).toEqual([false, null]);
  });

  it("404 not_found when no company matches", async () => {
    const res = await sb.get("/companies/initrode");
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe("not_found");
  });
});

describe("GET /companies, GET /suggest, GET /me", () => {
  it("GET /companies lists companies (optionally by a q fragment)", async () => {
    const all = await sb.get("/companies");
    expect(all.body.data).toHaveLength(4);
    const some = await sb.get("/companies?q=contoso");
    expect(some.body.data).toEqual([
      {
        key: "contoso-robotics",
        name: "Contoso Robotics",
        network_url: "https://network.example.com/company/contoso-robotics",
        current_count: 3,
        alum_count: 2,
      },
    ]);
  });

  it("certification suggestions: title, normalized key, count of visible unflagged holders, optional authority", async () => {
    const res = await sb.get("/suggest?q=kubernetes");
    expect(res.body.data).toEqual([
      {
        type: "certification",
        title: "Certified Kubernetes Administrator",
        key: "certified kubernetes administrator",
        count: 1,
        authority: "Cloud Native Computing Foundation",
      },
    ]);
    const noAuthority = await sb.get("/suggest?q=scrum");
    expect(noAuthority.body.data).toEqual([
      { type: "certification", title: "Certified Scrum Product Owner", key: "certified scrum product owner", count: 1 },
    ]);
    const companies = await sb.get("/suggest?q=fabrik");
    expect(companies.body.data).toEqual([{ type: "company", title: "Fabrikam", key: "fabrikam", count: 3 }]);
  });

  it("GET /me: access and quota per plan", async () => {
    const acme = await sb.get("/me", { key: "acme" });
    expect(acme.body.data).toEqual({
      access: { allowed: true },
      webhook: { configured: false },
      quota: {
        watch_slots: { used: 0, included: 1000, max: 1000, remaining: 1000 },
        daily_uniques: { limit: null, remaining: null, enforced: false },
      },
    });
    const globex = await sb.get("/me", { key: "globex" });
    expect(globex.body.data.quota).toEqual({
      watch_slots: { used: 0, included: 0, max: 250, remaining: 250 },
      daily_uniques: { limit: 100, remaining: null, enforced: false },
    });
  });
});
