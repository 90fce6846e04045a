/**
 * Table-driven search-filter suite on the hand-made fixture graph (data/fixture.ts). Each row's expected
 * answer was worked out by hand from the fixture (today = 2026-11-01); rows come back in fixture order
 * unless keywords rank them. Every response is contract-validated by the harness.
 */
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

const id = (row: { slug: string | null; full_name?: string | null; name?: string | null }) =>
  row.slug ?? `(${row.full_name ?? row.name})`;

const ALL = [
  "priya-raman",
  "jonas-weber",
  "amara-okafor",
  "mei-chen",
  "lucas-moreau",
  "sofia-garcia",
  "kwame-mensah",
  "olivia-smith",
  "ryan-kelly",
  "(Ana Silva)",
  "lena-fischer",
];
const EXCEPT = (...out: string[]) => ALL.filter((s) => !out.includes(s));

const q = (params: Record<string, string>) => `/people?${new URLSearchParams({ limit: "100", ...params })}`;

const CASES: [name: string, params: Record<string, string>, expected: string[]][] = [
  ["unfiltered browse excludes flagged profiles", {}, ALL],
  [
    "include_flagged adds flagged profiles",
    { include_flagged: "true" },
    [...ALL.slice(0, 8), "dana-katz", ...ALL.slice(8)],
  ],
  [
    "company fragment, any stint",
    { company: "northwind" },
    ["priya-raman", "jonas-weber", "amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith"],
  ],
  [
    "company fragment is case-insensitive",
    { company: "NORTHWIND" },
    ["priya-raman", "jonas-weber", "amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith"],
  ],
  [
    "company URL fragment",
    { company: "company/contoso" },
    ["priya-raman", "mei-chen", "lucas-moreau", "(Ana Silva)", "lena-fischer"],
  ],
  [
    "company_current=true",
    { company: "northwind", company_current: "true" },
    ["priya-raman", "jonas-weber", "kwame-mensah"],
  ],
  [
    "company_current=false adds no constraint",
    { company: "northwind", company_current: "false" },
    ["priya-raman", "jonas-weber", "amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith"],
  ],
  [
    "company_current without company: any current position",
    { company_current: "true" },
    EXCEPT("lucas-moreau", "ryan-kelly"),
  ],
  [
    "left at least 24 months ago, current stint there excluded",
    { company: "northwind", company_left_min_months_ago: "24" },
    ["amara-okafor", "mei-chen", "olivia-smith"],
  ],
  [
    "left at least 36 months ago (Amara left 35 months ago)",
    { company: "northwind", company_left_min_months_ago: "36" },
    ["mei-chen", "olivia-smith"],
  ],
  [
    "company_left_min_months_ago wins over company_current",
    { company: "northwind", company_current: "true", company_left_min_months_ago: "24" },
    ["amara-okafor", "mei-chen", "olivia-smith"],
  ],
  [
    "min_company_months with company sums stints there",
    { company: "northwind", min_company_months: "60" },
    ["priya-raman", "jonas-weber", "amara-okafor", "kwame-mensah"],
  ],
  [
    "min_company_months without company: any qualifying stint",
    { min_company_months: "90" },
    ["kwame-mensah", "lena-fischer"],
  ],
  [
    "company_active_during YYYY (first day of the period)",
    { company_active_during: "2019" },
    ["priya-raman", "jonas-weber", "amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith"],
  ],
  [
    "company_active_during YYYY-MM at a company",
    { company: "northwind", company_active_during: "2019-10" },
    ["jonas-weber", "amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith"],
  ],
  ["role_family", { role_family: "product" }, ["amara-okafor"]],
  [
    "role_family engineering (any stint)",
    { role_family: "engineering" },
    ["priya-raman", "jonas-weber", "lucas-moreau", "olivia-smith"],
  ],
  [
    "role_family + min_role_months career-wide",
    { role_family: "engineering", min_role_months: "60" },
    ["priya-raman", "lucas-moreau", "olivia-smith"],
  ],
  [
    "company + role_family + min_role_months counts at the company",
    { company: "northwind", role_family: "engineering", min_role_months: "60" },
    ["priya-raman"],
  ],
  ["roles family:months", { roles: "data:24" }, ["mei-chen", "lena-fischer"]],
  ["roles family@company", { roles: "engineering@contoso" }, ["priya-raman", "lucas-moreau"]],
  ["roles t.contains title with months", { roles: "t.contains.product%20manager.30" }, ["amara-okafor"]],
  ["roles t.exact title below the months", { roles: "t.exact.product%20manager.70" }, []],
  ["roles t.exact title", { roles: "t.exact.product%20manager.60" }, ["amara-okafor"]],
  ["roles filters are ANDed", { roles: "engineering,data" }, []],
  ["titles within a token are ORed", { roles: "t.contains.recruiter;advisor" }, ["sofia-garcia", "lena-fischer"]],
  ["roles take precedence over role_family", { roles: "data", role_family: "product" }, ["mei-chen", "lena-fischer"]],
  [
    "min_role_months applies to roles family tokens",
    { roles: "engineering", min_role_months: "100" },
    ["priya-raman", "olivia-smith"],
  ],
  ["invalid role tokens are skipped", { roles: "data,t.bogus,@x" }, ["mei-chen", "lena-fischer"]],
  [
    "keywords over name and headline (word prefix), ranked",
    { keywords: "engineer" },
    ["priya-raman", "jonas-weber", "lucas-moreau", "olivia-smith", "lena-fischer"],
  ],
  ["keywords: every word must match", { keywords: "data engineer" }, ["lena-fischer"]],
  ["q_in=name", { keywords: "jonas", q_in: "name" }, ["jonas-weber"]],
  ["q_in=headline", { keywords: "jonas", q_in: "headline" }, []],
  ["school fragment", { school: "northbridge" }, ["mei-chen", "ryan-kelly"]],
  ["skills any (skill nodes)", { skills: "go;python" }, ["priya-raman", "jonas-weber", "mei-chen", "lucas-moreau"]],
  ["skills all", { skills: "go, kubernetes", skill_match: "all" }, ["priya-raman", "lucas-moreau"]],
  ["skills separated by the word or", { skills: "terraform or react" }, ["lucas-moreau", "olivia-smith"]],
  ["skill matches an employer", { skill: "fabrikam" }, ["jonas-weber", "amara-okafor", "sofia-garcia", "lena-fischer"]],
  ["skill matches a headline", { skill: "freelance" }, ["olivia-smith"]],
  ["languages any", { languages: "german" }, ["priya-raman", "jonas-weber", "lena-fischer"]],
  ["languages all", { languages: "german;hindi", language_match: "all" }, ["priya-raman"]],
  ["language alias", { language: "Yoruba" }, ["amara-okafor"]],
  ["exclude_languages", { exclude_languages: "english" }, ["sofia-garcia", "(Ana Silva)"]],
  ["certification on the name", { certification: "kubernetes" }, ["priya-raman"]],
  ["certification on the authority", { certification: "recruiting guild" }, ["sofia-garcia"]],
  ["certifications JSON list, any", { certifications: '["scrum","KUBERNETES"]' }, ["priya-raman", "amara-okafor"]],
  [
    "certifications all (name and authority of records)",
    { certifications: '["kubernetes","cloud native"]', certification_match: "all" },
    ["priya-raman"],
  ],
  [
    "certifications all, no single holder",
    { certifications: '["kubernetes","scrum"]', certification_match: "all" },
    [],
  ],
  ["location country", { location: "Germany" }, ["priya-raman", "jonas-weber", "lena-fischer"]],
  [
    "location continent expands to countries",
    { location: "Europe" },
    ["priya-raman", "jonas-weber", "lucas-moreau", "sofia-garcia", "ryan-kelly", "lena-fischer"],
  ],
  ["location city", { location: "berlin" }, ["priya-raman"]],
  ["location with a comma stays one place", { location: "Hamburg, Germany" }, ["jonas-weber"]],
  ["location places are ORed", { location: "Asia;Africa" }, ["amara-okafor", "mei-chen", "kwame-mensah"]],
  [
    "exclusions win over inclusions",
    { location: "Europe", exclude_locations: "Germany" },
    ["lucas-moreau", "sofia-garcia", "ryan-kelly"],
  ],
  [
    "exclude_locations without location excludes everywhere",
    { exclude_locations: "Europe" },
    ["amara-okafor", "mei-chen", "kwame-mensah", "olivia-smith", "(Ana Silva)"],
  ],
  ["open_to_work=true", { open_to_work: "true" }, ["amara-okafor", "lucas-moreau"]],
  [
    "open_to_work=false (not flagged open; null counts as not open)",
    { open_to_work: "false" },
    EXCEPT("amara-okafor", "lucas-moreau"),
  ],
  ["between_roles=true (work history, nothing current)", { between_roles: "true" }, ["lucas-moreau"]],
  ["between_roles=false (includes no work history)", { between_roles: "false" }, EXCEPT("lucas-moreau")],
  ["exploring=true", { exploring: "true" }, ["priya-raman"]],
  ["codehost_hireable=true", { codehost_hireable: "true" }, ["priya-raman"]],
  ["codehost_hireable=false", { codehost_hireable: "false" }, EXCEPT("priya-raman")],
  ["nl: role noun and place", { nl: "engineers in Germany" }, ["priya-raman", "jonas-weber"]],
  ["nl: open to work at a company", { nl: "open to work at Fabrikam" }, ["amara-okafor"]],
  ["nl: explicit parameter wins", { nl: "engineers in Germany", location: "France" }, ["lucas-moreau"]],
  ["nl: ex-<company>", { nl: "ex-Northwind Labs" }, ["amara-okafor", "mei-chen", "olivia-smith"]],
  ["nl: leftover words become keywords", { nl: "platform people" }, ["lucas-moreau"]],
  ["nl: speaks <language>", { nl: "speaks Hindi" }, ["priya-raman"]],
  ["nl: years with a role noun", { nl: "engineers with 9+ years" }, ["priya-raman", "olivia-smith"]],
  ["nl: between roles + continent", { nl: "between roles in Europe" }, ["lucas-moreau"]],
];

describe("GET /people filters on the fixture graph", () => {
  it.each(CASES)("%s", async (_name, params, expected) => {
    const res = await sb.get(q(params));
    expect(res.status).toBe(200);
    expect(res.body.data.map(id)).toEqual(expected);
    expect(res.body.meta.count).toBe(expected.length);
    const filtered = Object.keys(params).some((k) => k !== "include_flagged");
    expect(res.body.meta.total).toBe(filtered ? expected.length : null);
  });

  it("a negative control: a row expectation that is wrong fails", async () => {
    const res = await sb.get(q({ company: "northwind" }));
    expect(res.body.data.map(id)).not.toEqual(["priya-raman"]);
  });
});

describe("GET /people echo, views, hydration and paging", () => {
  it("echoes the effective query (nl phrases plus explicit parameters), without paging or view", async () => {
    const res = await sb.get(
      `/people?nl=${encodeURIComponent("open to work engineers in Germany")}&location=France&view=compact&limit=5&offset=0&include_flagged=false`,
    );
    expect(res.body.query).toEqual({
      nl: "open to work engineers in Germany",
      role_family: "engineering",
      location: "France",
      open_to_work: true,
    });
  });

  it("echo keeps types: integers and booleans", async () => {
    const res = await sb.get("/people?company=northwind&min_company_months=12&company_current=false");
    expect(res.body.query).toEqual({ company: "northwind", min_company_months: 12, company_current: false });
  });

  it("search rows carry at most two positions, empty education, no skills/languages/certifications by default", async () => {
    const res = await sb.get("/people?keywords=olivia");
    const row = res.body.data[0];
    expect(row.slug).toBe("olivia-smith");
    expect(row.positions.length).toBe(2);
    expect(row.education).toEqual([]);
    expect(row.skills).toEqual([]);
    expect(row.languages).toEqual([]);
    expect(row.certifications).toEqual([]);
    expect(row.match).toEqual({ score: 2 });
  });

  it("skills, languages and certifications are hydrated only when their filters are used", async () => {
    const res = await sb.get("/people?skill=go&language=german&certification=kubernetes");
    expect(res.body.data.map(id)).toEqual(["priya-raman"]);
    const row = res.body.data[0];
    expect(row.skills).toEqual(["Go", "Kubernetes", "PostgreSQL"]);
    expect(row.languages).toEqual(["English", "Hindi", "German"]);
    expect(row.certifications).toEqual([
      { name: "Certified Kubernetes Administrator", authority: "Cloud Native Computing Foundation", issued_at: "2022" },
    ]);
  });

  it("match carries company and role keys for tenure filters", async () => {
    const res = await sb.get("/people?company=northwind&role_family=engineering&min_role_months=60");
    expect(res.body.data[0].match).toEqual({
      company: "Northwind Labs",
      company_months: 68,
      role_months: 68,
      roles: [{ family: "engineering", months: 68, scope: "company", company: "Northwind Labs" }],
    });
  });

  it("compact view: exact fields, current summary, match only with a company match", async () => {
    const res = await sb.get("/people?company=northwind&view=compact&limit=1");
    expect(res.body.data[0]).toEqual({
      slug: "priya-raman",
      name: "Priya Raman",
      headline: "Staff Backend Engineer at Northwind Labs",
      network_url: "https://network.example.com/in/priya-raman",
      current: { company: "Northwind Labs", title: "Staff Backend Engineer", months: 68 },
      match: { company: "Northwind Labs", months: 68 },
      open_to_work: false,
      between_roles: false,
      exploring: true,
      codehost_hireable: true,
    });
    const plain = await sb.get("/people?view=compact&limit=100");
    const byId = new Map(plain.body.data.map((r: { slug: string | null; name: string }) => [id(r), r]));
    expect(byId.get("priya-raman")).not.toHaveProperty("match");
    expect(byId.get("ryan-kelly")).toMatchObject({ current: null, between_roles: false });
    // No current position: the first position is the display summary.
    expect(byId.get("lucas-moreau")).toMatchObject({
      current: { company: "Contoso Robotics", title: "Platform Engineer", months: 65 },
      between_roles: true,
    });
  });

  it("pages with limit/offset; has_more is true when the page is full; a final page may be empty", async () => {
    const first = await sb.get("/people?limit=2");
    expect(first.body.data.map(id)).toEqual(["priya-raman", "jonas-weber"]);
    expect(first.body.meta).toEqual({
      count: 2,
      limit: 2,
      offset: 0,
      has_more: true,
      total: null,
      total_capped: false,
    });
    const last = await sb.get("/people?limit=2&offset=10");
    expect(last.body.data.map(id)).toEqual(["lena-fischer"]);
    expect(last.body.meta.has_more).toBe(false);
    const full = await sb.get("/people?limit=11&company_current=false");
    expect(full.body.meta).toMatchObject({ count: 11, has_more: true, total: 11 });
    const empty = await sb.get("/people?limit=11&offset=11&company_current=false");
    expect(empty.body.meta).toMatchObject({ count: 0, has_more: false, total: 11 });
    expect(empty.body.data).toEqual([]);
  });

  it("order is stable across calls and pages", async () => {
    const all = await sb.get("/people?limit=100&keywords=engineer");
    const pages = [];
    for (let offset = 0; offset < 5; offset += 2)
      pages.push(...(await sb.get(`/people?limit=2&offset=${offset}&keywords=engineer`)).body.data.map(id));
    expect(pages).toEqual(all.body.data.map(id));
  });
});

describe("GET /people invalid input: 400 invalid_request naming the problem", () => {
  const BAD: [string, string, RegExp][] = [
    ["min_role_months without role_family or roles", "min_role_months=12", /^min_role_months requires role_family$/],
    ["limit above 100", "limit=101", /limit/],
    ["limit 0", "limit=0", /limit/],
    ["negative offset", "offset=-1", /offset/],
    ["non-integer months", "min_company_months=abc", /min_company_months/],
    ["view enum", "view=wide", /view/],
    ["company_left_min_months_ago above 600", "company_left_min_months_ago=601", /company_left_min_months_ago/],
    ["company_active_during format", "company_active_during=2019-13", /company_active_during/],
    ["empty company", "company=", /company/],
    ["boolean flag", "open_to_work=yes", /open_to_work/],
    ["nine distinct skills", `skills=${"a;b;c;d;e;f;g;h;i"}`, /skills.*8 distinct/],
    ["skill term too long", `skills=${"x".repeat(65)}`, /skills/],
    ["certifications not JSON", "certifications=kubernetes", /certifications must be a JSON list/],
    ["certifications not a list of strings", 'certifications={"a":1}', /certifications must be a JSON list/],
    [
      "eleven certification terms",
      `certifications=${encodeURIComponent(JSON.stringify(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]))}`,
      /certifications.*10 distinct/,
    ],
    [
      "21 locations",
      `location=${encodeURIComponent(Array.from({ length: 21 }, (_, i) => `p${i}`).join(";"))}`,
      /location.*20 distinct/,
    ],
    ["location place too long", `location=${"x".repeat(121)}`, /location/],
    ["location without a place", "location=%3B%3B", /^location must contain at least one term$/],
    ["skills without a term", "skills=%3B%20%2C", /^skills must contain at least one term$/],
    ["exclude_languages without a term", "exclude_languages=%2C", /^exclude_languages must contain at least one term$/],
  ];
  it.each(BAD)("%s", async (_name, qs, message) => {
    const res = await sb.request("GET", `/people?${qs}`, { invalidRequest: true });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("invalid_request");
    expect(res.body.error.message).toMatch(message);
  });

  it("limits count distinct terms: nine spellings of eight terms are accepted", async () => {
    const res = await sb.get(`/people?skills=${encodeURIComponent("a;b;c;d;e;f;g;h;A")}`);
    expect(res.status).toBe(200);
  });
});
