/**
 * The request set of the read-side golden answers (testing/golden/<group>/<request>.json, checked by
 * golden.test.ts), by group. Paths are relative to /v1; the list is deterministic (literal values plus a fixed-seed mix of filters).
 * How the requests were chosen, so the whole answers stay small enough to read as diffs:
 *   - browse: each paging and view path once: the default page (25 rows), the largest page (100, compact),
 *     one row, offsets inside, at and past the end, include_flagged;
 *   - filters: every GET /people parameter of the reference's table alone, with each value of its pool (each
 *     value an edge case: case, Unicode, URL forms, separators, no match), match modes and q_in with their terms;
 *   - vocabulary: every skill, title, school, certification and role family once (is each term found);
 *   - combinations: the tenure and company rules together, keywords ranking with filters and paging;
 *   - nl: the phrases the nl parser reads, alone and with an explicit parameter winning;
 *   - errors: the 400 answers, from the OpenAPI validation and from the rules OpenAPI cannot express;
 *   - mixed: fixed-seed mixes of 2-4 filters with views, include_flagged and offsets (interactions);
 *   - dossiers, companies, suggest: each other read operation once, with its options and its 404.
 * A search answers PAGE rows (SWEEP for the vocabulary) unless its page size is what it tests: the total and the
 * head of the ranking pin a filter or a ranking as well as a full page, at a fraction of the size.
 * singleParams and mixedParams (with their own page sizes) also feed domain/search-index.test.ts.
 */
import { CONTINENT_NAMES } from "../data/geo.js";
import { Prng } from "../data/prng.js";
import { CERTIFICATIONS, FAMILIES, FAMILY_NAMES, SCHOOLS } from "../data/vocab.js";

export type Params = Record<string, string | number | boolean>;

const people = (params: Params): string => {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return qs ? `/people?${qs}` : "/people";
};

const SKILLS = [...new Set(Object.values(FAMILIES).flatMap((f) => f.skills))];
const TITLES = [...new Set(Object.values(FAMILIES).flatMap((f) => f.titles))];

/** One filter value per parameter, used by the single-parameter rows and the fixed-seed mixes. */
export const POOLS: Record<string, readonly (string | number | boolean)[]> = {
  company: [
    "northwind",
    "NORTHWIND LABS",
    "labs",
    "bank",
    "robotics",
    "company/cobalt",
    "northwind-labs",
    "freelance",
    "stealth",
    "self-employed",
    "a",
    "network.example.com",
    "zzz-none",
    "é",
  ],
  min_company_months: [1, 12, 36, 60, 120, 240],
  company_current: [true, false],
  company_left_min_months_ago: [1, 6, 24, 60, 120, 600],
  company_active_during: ["2019", "2019-10", "2024-01", "2026", "2010", "1990", "2030"],
  role_family: [...FAMILY_NAMES, "Engineering", "astronaut"],
  min_role_months: [1, 24, 60, 120],
  roles: [
    "data:24",
    "engineering",
    "engineering@northwind",
    "engineering:36@labs",
    "sales:12@bank",
    "leadership@stealth",
    "engineering@Northwind%20Labs",
    "t.contains.engineer",
    "t.contains.engineer.24",
    "t.exact.software%20engineer",
    "t.exact.Software%20Engineer.36",
    "t.contains.product%20manager;designer",
    "t.contains.senior;staff.60",
    "engineering,data",
    "sales,t.contains.manager.12",
    "data,t.bogus,@x",
    "t.contains.cto;vp.12",
    "design:600",
    "product,product",
    "t.contains.advisor",
    "t.exact.founder",
    "recruiting:12,t.contains.recruiter",
  ],
  keywords: [
    "engineer",
    "senior engineer",
    "priya",
    "jo",
    "c++",
    "data platform",
    "manager",
    "open",
    "josé",
    "sofía",
    "freelance",
    "staff backend",
    "x",
    "northwind",
  ],
  q_in: ["people", "name", "headline"],
  school: ["northbridge", "university", "poly", "Summit State", "design academy", "x", "nowhere"],
  skills: [
    "python;go;kubernetes",
    "python",
    "go",
    "sql",
    "c++",
    "node.js",
    "a/b testing",
    "machine learning",
    "terraform or react",
    "Rust, Go",
    "northwind",
    "northwind labs",
    "freelance",
    "engineer",
    "open to new opportunities",
    "seo;hubspot;figma",
    "excel;sap;ifrs;budgeting",
    "java",
    "typescript;javascript;rust;kotlin;swift;docker;aws;graphql",
  ],
  skill: ["kubernetes", "Python", "stealth startup", "labs", "independent consultant"],
  skill_match: ["any", "all"],
  languages: [
    "german",
    "english;spanish",
    "English or French",
    "yoruba",
    "japanese;mandarin",
    "klingon",
    "portuguese, spanish, french",
  ],
  language: ["Yoruba", "hindi", "english"],
  language_match: ["any", "all"],
  exclude_languages: ["english", "english;german", "spanish", "hebrew", "klingon"],
  certification: ["kubernetes", "skyline cloud", "Certified", "scrum", "guild", "level i", "zz"],
  certifications: [
    '["scrum","KUBERNETES"]',
    '["kubernetes","container"]',
    '["skyline cloud"]',
    '["professional","cloud","data"]',
    '["cfa","chartered"]',
    "[]",
  ],
  certification_match: ["any", "all"],
  location: [
    ...CONTINENT_NAMES,
    "Germany",
    "berlin",
    "Hamburg, Germany",
    "England",
    "London, England, United Kingdom",
    "Singapore",
    "Asia;Africa",
    "São Paulo",
    "new york",
    "California;Texas",
    "Berlin, France",
    "Atlantis",
    "europe;germany",
    "Île-de-France",
    "Mexico City",
  ],
  exclude_locations: ["Germany", "Europe", "North America;Asia", "berlin", "United States", "Atlantis"],
  open_to_work: [true, false],
  between_roles: [true, false],
  exploring: [true, false],
  codehost_hireable: [true, false],
};

const NL = [
  "engineers in Germany",
  "open to work engineers in Berlin",
  "data scientists in Europe",
  "ex-Northwind Labs",
  "formerly at Cobalt Bank",
  "currently at Northwind Labs",
  "who left Helix Robotics",
  "product managers at Redwood Software",
  "engineers with 9+ years",
  "designers with 5 years of experience",
  "speaks German",
  "Spanish-speaking recruiters",
  "French speakers in Canada",
  "skilled in Python",
  "knows Kubernetes",
  "with Figma experience",
  "studied at Northbridge University",
  "alumni of Summit State University",
  "certified Certified Scrum Master",
  "with Certified Kubernetes Operator certification",
  "between roles in Europe",
  "between jobs",
  "exploring options",
  "exploring new opportunities",
  "hireable engineers",
  "engineers in Berlin or Munich",
  "sales people outside Germany, France and Spain",
  "not in North America",
  "excluding Asia",
  "platform people",
  "senior backend engineers in London",
  "ml engineers from India",
  "machine learning engineers in Asia or Oceania",
  "CTOs",
  "founders in Lagos",
  "accountants",
  "open to work",
  "staff engineer rust",
  "zzz qqq",
];

/** A number from a text (FNV-1a), so that each mix has its own seed. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/**
 * Fixed-seed mixes of 2-4 filters (with views, paging and include_flagged), to cover interactions: `perKey`
 * mixes of each parameter with 1-3 parameters listed before it in POOLS, each mix from its own seed. A
 * parameter added at the end of POOLS adds its own mixes and changes no other.
 */
export function mixedParams(perKey: number, seed = 20261122): Params[] {
  const keys = Object.keys(POOLS);
  const out: Params[] = [];
  keys.forEach((key, k) => {
    for (let j = 0; k > 0 && j < perKey; j++) {
      const rng = new Prng(seed ^ seedOf(`${key}#${j}`));
      const pick = (name: string) => POOLS[name]![rng.int(POOLS[name]!.length)]!;
      const params: Params = { [key]: pick(key) };
      const partners = 1 + rng.int(3);
      for (let i = 0; i < partners; i++) {
        const other = keys[rng.int(k)]!;
        params[other] = pick(other);
      }
      if ("min_role_months" in params && !("role_family" in params) && !("roles" in params))
        params.role_family = "engineering";
      if (rng.int(4) === 0) params.view = "compact";
      if (rng.int(5) === 0) params.include_flagged = true;
      if (rng.int(4) === 0) params.offset = rng.int(60);
      params.limit = [5, 25, 100][rng.int(3)]!;
      out.push(params);
    }
  });
  return out;
}

/** Every parameter alone with each value of its pool (match modes and q_in with their terms). */
export function singleParams(): Params[] {
  const out: Params[] = [];
  for (const [key, pool] of Object.entries(POOLS)) {
    for (const value of pool) {
      const params: Params = { [key]: value, limit: 100 };
      if (key === "min_role_months") params.role_family = "engineering";
      if (key === "q_in") params.keywords = "engineer";
      if (key === "skill_match") params.skills = "python;sql";
      if (key === "language_match") params.languages = "english;spanish";
      if (key === "certification_match") params.certifications = '["cloud","skyline"]';
      out.push(params);
    }
  }
  return out;
}

/** Rows per search answer where the page size is not what a request tests: the total and the ranking's head. */
const PAGE = 3;
/** Rows per answer of the vocabulary sweeps, which test that each term is found (the total and the first row). */
const SWEEP = 1;
/** Fixed-seed filter mixes per parameter. */
const MIXES_PER_KEY = 4;

/** A search at the golden page size (PAGE rows) unless it names its own limit. */
const search = (params: Params): string => people({ limit: PAGE, ...params });

/** The request set, by group (a folder each, a file per request), in a fixed order. */
export function goldenGroups(): Record<string, string[]> {
  return {
    // Browse: the default page, the largest page, paging inside, at and past the end, views, include_flagged.
    browse: [
      people({}),
      search({ include_flagged: true }),
      search({ view: "compact" }),
      search({ limit: 1 }),
      people({ view: "compact", limit: 100 }),
      search({ offset: 25 }),
      people({ view: "compact", offset: 4800, limit: 100 }),
      search({ offset: 10000 }),
      search({ view: "compact", include_flagged: true, offset: 100 }),
    ],
    // Every parameter alone with each value of its pool (match modes and q_in with their terms).
    filters: singleParams().map((params) => search({ ...params, limit: PAGE })),
    // Vocabulary sweeps: every skill, title (as a title token), school, certification and role family.
    vocabulary: [
      ...SKILLS.map((skill) => search({ skill, limit: SWEEP })),
      ...TITLES.map((title) => search({ roles: `t.exact.${encodeURIComponent(title)}`, limit: SWEEP })),
      ...SCHOOLS.map((school) => search({ school, view: "compact", limit: SWEEP })),
      ...CERTIFICATIONS.flatMap(([name, authority]) => [
        search({ certification: name, limit: SWEEP }),
        search({ certification: authority, limit: SWEEP }),
      ]),
      ...FAMILY_NAMES.map((family) =>
        search({ role_family: family, min_role_months: 60, company: "labs", limit: SWEEP }),
      ),
    ],
    // Tenure and company rule interactions; keywords ranking with filters and paging; the benchmark's query.
    combinations: [
      search({ company: "northwind", company_current: true, company_left_min_months_ago: 24 }),
      search({ company: "northwind", min_company_months: 60, company_active_during: "2020" }),
      search({ min_company_months: 90, company_current: true }),
      search({ company_left_min_months_ago: 12, company_active_during: "2018-06" }),
      search({ company: "labs", role_family: "engineering", min_role_months: 36, view: "compact" }),
      search({ roles: "engineering:24@northwind,t.contains.senior", min_role_months: 12 }),
      search({ roles: "data", role_family: "product" }),
      search({ keywords: "engineer", offset: 25 }),
      search({ keywords: "senior engineer", location: "Europe", view: "compact" }),
      search({ keywords: "a", offset: 200 }),
      "/people?location=Europe&role_family=engineering&skills=python;go;kubernetes&limit=25",
    ],
    // nl phrases, alone and with an explicit parameter winning.
    nl: [
      ...NL.map((nl) => search({ nl })),
      search({ nl: "engineers in Germany", location: "France" }),
      search({ nl: "open to work at Northwind Labs", open_to_work: false }),
      search({ nl: "speaks German", languages: "french", view: "compact" }),
    ],
    // 400 answers: from the OpenAPI validation (a limit, an enum), then the rules OpenAPI cannot express.
    errors: [
      people({ limit: 101 }),
      people({ view: "wide" }),
      people({ min_role_months: 12 }),
      people({ company_active_during: "2019-13" }),
      people({ skills: "a;b;c;d;e;f;g;h;i" }),
      people({ certifications: "kubernetes" }),
      people({ location: ";;" }),
      people({ exclude_languages: "," }),
      people({ certifications: JSON.stringify(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]) }),
    ],
    // Fixed-seed mixes of filters, views, include_flagged and offsets (at the golden page size).
    mixed: mixedParams(MIXES_PER_KEY).map((params) => search({ ...params, limit: PAGE })),
    // The other read endpoints: a dossier (by slug and by URL), with includes, coworkers, similar people, 404s.
    dossiers: [
      "/people/priya-raman",
      "/people/priya-raman?include=coworkers,similar",
      "/people/priya-raman/coworkers",
      "/people/priya-raman/similar",
      "/people/jonas-weber",
      "/people/amara-okafor/similar",
      `/people/${encodeURIComponent("https://network.example.com/in/priya-raman")}`,
      "/people/nobody-here",
    ],
    companies: [
      "/companies/northwind-labs",
      "/companies/Cobalt%20Bank",
      "/companies/nowhere",
      "/companies",
      "/companies?q=labs",
    ],
    suggest: ["/suggest", "/suggest?q=cloud", "/suggest?q=north"],
  };
}

/** Every path of the request set, in group order. */
export function goldenPaths(): string[] {
  return Object.values(goldenGroups()).flat();
}
