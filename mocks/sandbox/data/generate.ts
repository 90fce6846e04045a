/**
 * Deterministic graph generator: a fixed seed gives the same bytes on every machine (integer PRNG, no
 * clock, no locale-dependent calls). The graph's "today" is fixed (GRAPH_TODAY), so relative rules
 * (tenure, left N months ago) do not drift.
 */
import { monthToString } from "./dates.js";
import { companyUrl, profileUrl } from "./urls.js";
import { buildGraph, type Graph, type GraphInput } from "./graph.js";
import { CONTINENT_WEIGHTS, CONTINENTS, COUNTRIES, type CountryInfo } from "./geo.js";
import type {
  Certification,
  Codehost,
  Company,
  Education,
  ExploringEvidence,
  ExploringReason,
  Person,
  Position,
  Social,
} from "./resources.js";
import { Prng } from "./prng.js";
import { pickName } from "./synthesis.js";
import { memo } from "./text.js";
import {
  CERTIFICATIONS,
  COMPANY_PREFIXES,
  COMPANY_SUFFIXES,
  DEGREES,
  DQ_FLAGS,
  EXPLORING_CUES,
  FAMILIES,
  FAMILY_NAMES,
  FIELDS,
  OFF_GRAPH_EMPLOYERS,
  SCHOOLS,
  SIDE_ROLES,
  seniorityPrefix,
} from "./vocab.js";

export const GRAPH_TODAY = "2026-11-01";
const TODAY_MONTH = 2026 * 12 + 10;
const TODAY_MS = Date.UTC(2026, 10, 1);
const DAY_MS = 86_400_000;

const FAMILY_WEIGHTS = FAMILY_NAMES.map((f) => [f, FAMILIES[f]!.weight] as const);

/** Weighted and picked value lists (module constants: no per-call allocation). */
const EMPLOYMENT = [
  ["employed", 84],
  ["between", 13],
  ["none", 3],
] as const;
const LOCATION_SHAPES = [
  ["full", 80],
  ["country", 12],
  ["empty", 3],
  ["city", 5],
] as const;
const OPEN_TO_WORK = [
  [true, 10],
  [false, 65],
  [null, 25],
] as const;
/**
 * A position's date precision, as its day field in a date key (`dates`): the day itself for a full date. YEAR and
 * MONTH are codes past any day of a month, the generator's own (the spec bounds no date precision).
 */
const YEAR = 32;
const MONTH = 33;
const PRECISIONS = [
  [MONTH, 60],
  [YEAR, 25],
  [0, 15],
] as const;
const OFF_GRAPH_CURRENT = [
  [false, 80],
  [null, 20],
] as const;
const INTERPRETATION_QUALITY = [
  ["valid", 75],
  ["none", 20],
  ["invalid", 5],
] as const;
const HIREABLE = [
  [true, 30],
  [false, 20],
  [null, 50],
] as const;
const EDUCATION_COUNTS = [
  [0, 15],
  [1, 55],
  [2, 25],
  [3, 5],
] as const;
const CONFIDENCES = ["high", "medium"];
const CODEHOST_SIGNALS = ["name_match", "location_match", "employer_match", "email_match"];
const CERTIFICATIONS_BY_FAMILY = new Map(
  FAMILY_NAMES.map((f) => [f, CERTIFICATIONS.filter(([, , families]) => families.includes(f))]),
);
const SECOND_LANGUAGES = ["Spanish", "French", "German", "Mandarin", "Portuguese", "Arabic", "Italian", "Japanese"];

export interface GenerateOptions {
  people: number;
  companies: number;
  seed: number;
}

/** URL slug of a name. */
export function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Each school's page URL (one string per school: every alumnus shares it). */
const SCHOOL_URLS = new Map(SCHOOLS.map((s) => [s, `https://network.example.com/school/${slugify(s)}`]));

/** ISO timestamp `daysAgo` days (plus some minutes) before the graph's today. */
function isoDaysAgo(daysAgo: number, minutes: number): string {
  return new Date(TODAY_MS - daysAgo * DAY_MS + minutes * 60_000).toISOString();
}

export function generateCompanies(rng: Prng, count: number): Company[] {
  const names = new Set<string>(["Northwind Labs"]);
  const max = COMPANY_PREFIXES.length * COMPANY_SUFFIXES.length;
  while (names.size < Math.min(count, max)) names.add(`${rng.pick(COMPANY_PREFIXES)} ${rng.pick(COMPANY_SUFFIXES)}`);
  let n = 2;
  while (names.size < count) names.add(`${rng.pick(COMPANY_PREFIXES)} ${rng.pick(COMPANY_SUFFIXES)} ${n++}`);
  return [...names].map((name, i) => {
    const key = slugify(name);
    return {
      key,
      name,
      network_url: i > 0 && rng.chance(3) ? null : companyUrl(key),
      domain: `${key.replace(/-/g, "")}.example`,
    };
  });
}

interface PersonPlan {
  first: string;
  last: string;
  family: string;
  country: CountryInfo;
  employer?: Company;
  anchor?: Anchor;
}

/**
 * A person the documented example queries find on every graph size ("staff engineers in Berlin", "open to
 * work senior engineers in Germany with 5+ years", the "Backend engineers in Berlin" Target): a current title,
 * a city and a career of `years` in one role family. The anchors are the last people of the graph, so the
 * people before them are the same as without anchors.
 */
interface Anchor {
  family: string;
  title: string;
  country: string;
  city: string;
  years: number;
  openToWork: boolean;
}

const ANCHORS: readonly Anchor[] = [
  {
    family: "engineering",
    title: "Staff Backend Engineer",
    country: "Germany",
    city: "Berlin",
    years: 11,
    openToWork: false,
  },
  {
    family: "engineering",
    title: "Senior Backend Engineer",
    country: "Germany",
    city: "Berlin",
    years: 7,
    openToWork: true,
  },
  {
    family: "engineering",
    title: "Senior Software Engineer",
    country: "Germany",
    city: "Munich",
    years: 9,
    openToWork: true,
  },
];

class PersonGenerator {
  private readonly usedSlugs = new Set<string>();
  /** Titles and headlines repeat across people: one string each. */
  private readonly keep = memo(String);
  /** Date texts by key: month * 64 + day (a day 1-28, or YEAR or MONTH for a date of that precision). */
  private readonly dates = memo((key: number) => {
    const ym = monthToString(key >> 6);
    const day = key & 63;
    return day === YEAR ? ym.slice(0, 4) : day === MONTH ? ym : `${ym}-${String(day).padStart(2, "0")}`;
  });
  declare private readonly rng: Prng;
  declare private readonly companies: Company[];

  constructor(rng: Prng, companies: Company[]) {
    this.rng = rng;
    this.companies = companies;
  }

  private uniqueSlug(first: string, last: string, idx: number): string {
    let slug = slugify(`${first} ${last}`);
    if (this.usedSlugs.has(slug)) slug = `${slug}-${(idx * 7919 + 1000).toString(36)}`;
    this.usedSlugs.add(slug);
    return slug;
  }

  plan(anchor?: Anchor): PersonPlan {
    const rng = this.rng;
    if (anchor) {
      const country = COUNTRIES.find((c) => c.name === anchor.country)!;
      return { ...pickName(rng, country), family: anchor.family, country, anchor };
    }
    const continent = rng.weighted(CONTINENT_WEIGHTS);
    const country = rng.pick(CONTINENTS[continent]!);
    return {
      ...pickName(rng, country),
      family: rng.weighted(FAMILY_WEIGHTS),
      country,
    };
  }

  person(idx: number, plan: PersonPlan): Person {
    const rng = this.rng;
    const fullName = `${plan.first} ${plan.last}`;
    const anchor = plan.anchor;
    const slug = idx > 2 && !anchor && rng.chance(1) ? null : this.uniqueSlug(plan.first, plan.last, idx);
    const urlSlug = slug ?? `${slugify(fullName)}-${(idx * 104729).toString(36)}`;
    const kind = plan.employer || anchor ? "employed" : rng.weighted(EMPLOYMENT);
    const positions = kind === "none" ? [] : this.positions(plan, kind === "between");
    const current = positions.find((p) => p.is_current);
    const latest = current ?? positions[0];
    const skills = rng.chance(5) ? [] : rng.sample(FAMILIES[plan.family]!.skills, rng.range(3, 12));
    const [city, region] = anchor
      ? plan.country.cities.find(([c]) => c === anchor.city)!
      : rng.pick(plan.country.cities);
    const locationShape = anchor ? "full" : rng.weighted(LOCATION_SHAPES);
    const location =
      locationShape === "full"
        ? { city, region, country: plan.country.name }
        : locationShape === "country"
          ? { country: plan.country.name }
          : locationShape === "city"
            ? { city, region: null, country: null }
            : {};
    const exploring = rng.chance(10) ? this.exploring(latest) : { reasons: [], interpretation: null };
    return {
      slug,
      full_name: !anchor && rng.chance(1) ? null : fullName,
      headline: anchor
        ? this.keep(`${latest!.title} at ${latest!.company}`)
        : this.headline(latest, skills, kind === "between"),
      network_url: profileUrl(urlSlug),
      profile_picture_url: rng.chance(80) ? `https://media.network.example.com/p/${urlSlug}.jpg` : null,
      location,
      is_open_to_work: anchor ? anchor.openToWork : rng.weighted(OPEN_TO_WORK),
      is_between_roles: false,
      between_roles_since: null,
      is_exploring: false,
      exploring_since: null,
      exploring_reasons: exploring.reasons,
      exploring_interpretation: exploring.interpretation,
      connections_count: rng.chance(85) ? rng.range(12, 3000) : null,
      followers_count: rng.chance(80) ? rng.range(0, 12000) : null,
      last_enriched_at: rng.chance(90) ? isoDaysAgo(rng.range(1, 400), rng.range(0, 1439)) : null,
      dq_flags: !anchor && rng.chance(3) ? [rng.pick(DQ_FLAGS)] : [],
      codehost: this.codehost(plan, urlSlug),
      social: rng.chance(30) ? this.social(urlSlug) : null,
      positions,
      education: this.education(plan),
      skills,
      languages: this.languages(plan.country),
      certifications: this.certifications(plan.family),
      match: {},
    };
  }

  private positions(plan: PersonPlan, between: boolean): Position[] {
    const rng = this.rng;
    const anchor = plan.anchor;
    const careerStart = TODAY_MONTH - (anchor ? anchor.years * 12 : rng.range(10, 30 * 12));
    const rows: Position[] = [];
    let cursor = careerStart;
    let family = plan.family;
    const stopAt = between ? TODAY_MONTH - rng.range(1, 20) : TODAY_MONTH;
    while (cursor < stopAt) {
      const duration = rng.range(6, 72);
      let end = cursor + duration;
      const isLast = end >= stopAt;
      if (isLast) end = stopAt;
      if (!anchor && rng.chance(10)) family = rng.weighted(FAMILY_WEIGHTS);
      const lastOfEmployed = isLast && !between;
      // An anchor's current employer is a company of the graph (its dossier links to it).
      const company =
        lastOfEmployed && plan.employer
          ? plan.employer
          : !(lastOfEmployed && anchor) && rng.chance(6)
            ? null
            : rng.pick(this.companies);
      const title =
        lastOfEmployed && anchor
          ? anchor.title
          : this.keep(
              seniorityPrefix(Math.floor((cursor - careerStart) / 12), rng.int(100)) +
                rng.pick(FAMILIES[family]!.titles),
            );
      rows.push(this.position(company, title, family, cursor, lastOfEmployed ? null : end, lastOfEmployed));
      cursor = end + rng.range(0, 4);
    }
    // A concurrent side role overlapping the main career (an overlapping stint).
    if (rows.length > 0 && rng.chance(15)) {
      const start = careerStart + rng.range(0, Math.max(1, TODAY_MONTH - careerStart - 2));
      const ongoing = !between && rng.chance(50);
      const end = ongoing ? null : Math.min(TODAY_MONTH - 1, start + rng.range(3, 36));
      rows.push(
        this.position(
          rng.pick(this.companies),
          rng.pick(SIDE_ROLES),
          rng.chance(50) ? "leadership" : null,
          start,
          end,
          ongoing,
        ),
      );
    }
    // A duplicate source row of the same position (collapsed in the dossier).
    if (rows.length > 0 && rng.chance(5)) {
      const dup = rows[rng.int(rows.length)]!;
      rows.push({
        ...dup,
        tenure_months: null,
        started_at: dup.started_at && dup.started_at.length > 4 ? dup.started_at.slice(0, 4) : dup.started_at,
      });
    }
    return rows;
  }

  private position(
    company: Company | null,
    title: string,
    family: string | null,
    start: number,
    end: number | null,
    current: boolean,
  ): Position {
    const rng = this.rng;
    const precision = rng.weighted(PRECISIONS);
    const employer = company ?? null;
    const offGraph = employer ? null : rng.pick(OFF_GRAPH_EMPLOYERS);
    // Source quirks (current flag unknown, end date missing) only on employers outside the company graph,
    // so every graph stint is either current or a leaver with an end date.
    const explicitCurrent = current ? true : employer ? false : rng.weighted(OFF_GRAPH_CURRENT);
    return {
      company: employer ? employer.name : offGraph,
      company_url: employer ? employer.network_url : null,
      title,
      started_at: rng.chance(1) ? null : this.date(start, precision, rng.range(1, 28)),
      ended_at: end === null || (!employer && rng.chance(20)) ? null : this.date(end, precision, rng.range(1, 28)),
      tenure_months: null,
      is_current: explicitCurrent,
      role_family: family,
    };
  }

  /** A partial date's text at this precision (a full date on `day`). */
  private date(month: number, precision: number, day: number): string {
    return this.dates(month * 64 + (precision || day));
  }

  private headline(latest: Position | undefined, skills: string[], between: boolean): string | null {
    const rng = this.rng;
    if (!latest || rng.chance(4)) return null;
    if (between)
      return this.keep(
        rng.chance(50) ? `Former ${latest.title} at ${latest.company}` : `${latest.title} | Open to new opportunities`,
      );
    if (skills.length >= 2 && rng.chance(25)) return this.keep(`${latest.title} | ${skills[0]} | ${skills[1]}`);
    return this.keep(`${latest.title} at ${latest.company}`);
  }

  private exploring(latest: Position | undefined): {
    reasons: ExploringReason[];
    interpretation: Person["exploring_interpretation"];
  } {
    const rng = this.rng;
    const cues = rng.sample(EXPLORING_CUES, rng.range(1, 3));
    const reasons: ExploringReason[] = cues.map(([field, label, after], i) => ({
      field,
      label,
      before:
        field === "headline"
          ? latest?.title
            ? `${latest.title} at ${latest.company}`
            : null
          : field === "about"
            ? "Building great products with great people"
            : null,
      after,
      seen_at: isoDaysAgo(rng.range(2, 200) + i * 3, rng.range(0, 1439)),
    }));
    const quality = rng.weighted(INTERPRETATION_QUALITY);
    if (quality === "none") return { reasons, interpretation: null };
    const evidence: ExploringEvidence[] = reasons.map((r) => ({
      ...r,
      quote: r.after ?? r.label,
      side: "after",
      ...(rng.chance(50) ? { source: "snapshot" as const } : {}),
    }));
    const segments = [
      {
        text: "Recent profile edits suggest this person may be reconsidering their current role.",
        evidence_indices: evidence.map((_, i) => i),
      },
      {
        text: `The strongest signal is the ${evidence[0]!.field.replace("_", " ")} change.`,
        evidence_indices: [quality === "invalid" ? evidence.length + 2 : 0],
      },
    ];
    return { reasons, interpretation: { model: "explore-assessor", version: "2026-10", segments, evidence } };
  }

  private codehost(plan: PersonPlan, urlSlug: string): Codehost | null {
    const rng = this.rng;
    const technical = plan.family === "engineering" || plan.family === "data";
    if (!rng.chance(technical ? 45 : 5)) return null;
    const suffix = rng.chance(30) ? rng.range(1, 99) : null;
    const login = urlSlug.replace(/-/g, "").slice(0, 16) + (suffix === null ? "" : String(suffix));
    const candidateOnly = rng.chance(25);
    return {
      login: candidateOnly ? null : login,
      candidate_login: candidateOnly ? login : null,
      url: candidateOnly ? null : `https://code.example.com/${login}`,
      confidence: candidateOnly ? "low" : rng.pick(CONFIDENCES),
      score: rng.range(20, 100) / 100,
      signals: rng.sample(CODEHOST_SIGNALS, rng.range(1, 3)),
      hireable: rng.weighted(HIREABLE),
      blog: rng.chance(20) ? `https://${login}.blog.example.com` : null,
      twitter: rng.chance(20) ? login : null,
      reconciled_at: isoDaysAgo(rng.range(5, 300), rng.range(0, 1439)),
    };
  }

  private social(urlSlug: string): Social {
    const rng = this.rng;
    const handle = urlSlug.replace(/-/g, "_").slice(0, 15);
    const candidateOnly = rng.chance(30);
    return {
      handle: candidateOnly ? null : handle,
      candidate_handle: candidateOnly ? handle : null,
      url: candidateOnly ? null : `https://social.example.com/@${handle}`,
      confidence: candidateOnly ? "low" : rng.pick(CONFIDENCES),
      reconciled_at: isoDaysAgo(rng.range(5, 300), rng.range(0, 1439)),
    };
  }

  private education(plan: PersonPlan): Education[] {
    const rng = this.rng;
    const count = rng.weighted(EDUCATION_COUNTS);
    const out: Education[] = [];
    let year = 2026 - rng.range(2, 30);
    for (let i = 0; i < count; i++) {
      const school = rng.pick(SCHOOLS);
      const length = rng.range(1, 5);
      out.push({
        school,
        degree: rng.chance(85) ? rng.pick(DEGREES) : null,
        field: rng.chance(85) ? rng.pick(FIELDS[plan.family]!) : null,
        started_at: rng.chance(90) ? String(year - length) : null,
        ended_at: rng.chance(85) ? String(year) : null,
        school_url: rng.chance(80) ? SCHOOL_URLS.get(school)! : null,
      });
      year -= length + rng.range(0, 3);
    }
    return out;
  }

  /** A certification's issue year or month. */
  private issued(): string {
    const rng = this.rng;
    return rng.chance(50) ? String(rng.range(2012, 2026)) : monthToString(rng.range(2012 * 12, TODAY_MONTH - 1));
  }

  private languages(country: CountryInfo): string[] {
    const rng = this.rng;
    const langs = new Set<string>(country.languages.slice(0, rng.chance(70) ? country.languages.length : 1));
    if (!langs.has("English") && rng.chance(75)) langs.add("English");
    if (rng.chance(20)) langs.add(rng.pick(SECOND_LANGUAGES));
    return rng.chance(3) ? [] : [...langs];
  }

  private certifications(family: string): Certification[] {
    const rng = this.rng;
    if (!rng.chance(30)) return [];
    const fitting = CERTIFICATIONS_BY_FAMILY.get(family) ?? [];
    const pool = fitting.length > 0 && rng.chance(80) ? fitting : CERTIFICATIONS;
    return rng.sample(pool, rng.range(1, 3)).map(([name, authority]) => ({
      name,
      authority: rng.chance(20) ? null : authority,
      issued_at: rng.chance(25) ? null : this.issued(),
    }));
  }
}

/** The people the spec's examples use, on Northwind Labs. */
const EXAMPLE_PEOPLE: readonly (readonly [string, string, string, string])[] = [
  ["Priya", "Raman", "engineering", "India"],
  ["Jonas", "Weber", "data", "Germany"],
  ["Amara", "Okafor", "product", "Nigeria"],
];

export function generateGraphInput(opts: GenerateOptions): GraphInput {
  const { companies, people } = generateSource(opts);
  return { today: GRAPH_TODAY, companies, people: [...people] };
}

/** The companies and the people as a stream in graph order (each person made when it is read). */
function generateSource(opts: GenerateOptions): { companies: Company[]; people: Iterable<Person> } {
  const rng = new Prng(opts.seed);
  const companies = generateCompanies(rng.fork(), opts.companies);
  const gen = new PersonGenerator(rng.fork(), companies);
  function* people(): Generator<Person> {
    const firstAnchor = opts.people >= EXAMPLE_PEOPLE.length + ANCHORS.length ? opts.people - ANCHORS.length : Infinity;
    for (let idx = 0; idx < opts.people; idx++) {
      const example = EXAMPLE_PEOPLE[idx];
      const plan = gen.plan(idx >= firstAnchor ? ANCHORS[idx - firstAnchor] : undefined);
      if (example) {
        [plan.first, plan.last, plan.family] = [example[0], example[1], example[2]];
        plan.country = COUNTRIES.find((c) => c.name === example[3])!;
        plan.employer = companies[0];
      }
      yield gen.person(idx, plan);
    }
  }
  return { companies, people: people() };
}

const cache = new Map<string, Graph>();

/** The generated graph for these options (built once per process; the graph is read-only). */
export function generatedGraph(opts: GenerateOptions): Graph {
  const key = `${opts.seed}:${opts.people}:${opts.companies}`;
  let graph = cache.get(key);
  if (!graph) {
    graph = buildGraph({ today: GRAPH_TODAY, ...generateSource(opts) });
    cache.set(key, graph);
  }
  return graph;
}
