/**
 * Discovery of a Target's members from the graph plus a few deterministic profiles that are
 * not in the index graph (the service discovers through providers, so some members use allocation).
 *
 * - company Targets: every unflagged person with a position at the resolved company (is_current true when a
 *   position there is current, false for alumni);
 * - people Targets: the stored provider filters (`query.filters`, mapped from input, app_query and query).
 *
 * The reference says what a people Target discovers only through its filters: "A Target is a standing
 * discovery of people, either from a people query or from a company network", and of app_query "keywords,
 * school, skills, languages, role titles and families, location and exclusions are used"; it does not say
 * how the provider reads them. The sandbox reads them as a search for people as they are now: keywords are
 * word prefixes of the current profile (name, headline, current titles and employers, location), titles and
 * role families are those of a current position, and off-graph profiles live in the Target's places.
 */
import type { components } from "../../../generated/schema.js";
import { isObj } from "../../../contract-core/portable.js";
import type { Graph, LowerLocation, PersonRecord } from "../data/graph.js";
import type { Company } from "../data/resources.js";
import { Prng } from "../data/prng.js";
import { ALL_TITLES, familyTitles, synthesizePerson } from "../data/synthesis.js";
import { slugify } from "../data/generate.js";
import type { FilterKey } from "../domain/filters.js";
import { compilePlaces } from "../domain/locations.js";
import {
  matchPerson,
  NO_FILTERS,
  profileKeywordTokens,
  type MatchRules,
  type SearchFilters,
} from "../domain/search.js";
import { hasWordPrefix } from "../data/text.js";
import { NETWORK_ORIGIN, normalizeProfileUrl } from "../data/urls.js";
import type { MemberProfile } from "./records.js";
import { unitFrom } from "./area-helpers.js";

export interface Enrichment {
  profile: MemberProfile;
  slug: string | null;
  picture: string | null;
}

export interface Candidate {
  key: string;
  network_url: string;
  in_graph: boolean;
  /** What discovery shows: graph people's fields; nothing yet for people outside the graph. */
  stub: MemberProfile;
  /** What enrichment fills in (the enriching phase, or a refresh_watch job). */
  enrichment: Enrichment;
}

export const EMPTY_PROFILE: MemberProfile = {
  full_name: null,
  headline: null,
  current_company: null,
  public_identifier: null,
  location: null,
  is_current: null,
};

/** Share of discovered profiles that are not in the index graph (at least one when anything is found). */
export const OFF_GRAPH_SHARE = 0.2;

// ---- people Target filters ----

/** A people Target's stored filters: the provider query, plus what the app_query mapping adds. */
export type PeopleFilters = components["schemas"]["TargetProviderQuery"] & {
  role_families?: string[];
  skills?: string[];
  skill_match?: "any" | "all";
  languages?: string[];
  language_match?: "any" | "all";
  exclude_languages?: string[];
  school?: string;
};

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim()) : [];
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const places = (v: unknown): string[] =>
  typeof v === "string"
    ? v
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const matchMode = (v: unknown): "any" | "all" | undefined => (v === "any" || v === "all" ? v : undefined);

function unique(values: string[]): string[] {
  const seen = new Map<string, string>();
  for (const v of values) if (!seen.has(v.toLowerCase())) seen.set(v.toLowerCase(), v);
  return [...seen.values()];
}

type AppQuery = components["schemas"]["AppQuery"];

/** How one search filter reaches a people Target: the app_query keys that carry it, or why none does. */
export type FilterMapping = { appQuery: readonly (keyof AppQuery)[]; reads: string } | { notMapped: string };

/**
 * Every search filter of the spec (the filter table's keys, domain/filters.ts) and what a people Target does
 * with it: typed by the same keys, so a filter added to the spec and the search table without a decision here
 * fails tsc naming it (discovery.test-d.ts). The reference states the mapping ("keywords, school, skills,
 * languages, role titles and families, location and exclusions are used"); what it does not list is not mapped.
 */
export type TargetFilterMapping<Keys extends string = FilterKey> = { readonly [K in Keys]: FilterMapping };

const NO_APP_KEY = "app_query has no key for it";
export const TARGET_FILTER_MAPPING: TargetFilterMapping = {
  nl: { notMapped: "a Target takes no natural-language query: its input is the fallback keyword text" },
  company: { appQuery: ["company"], reads: "the derived name only: never company_ids" },
  min_company_months: { notMapped: NO_APP_KEY },
  company_active_during: { notMapped: NO_APP_KEY },
  company_current: { appQuery: ["companyCurrent"], reads: "nothing: never company_ids" },
  company_left_min_months_ago: {
    appQuery: ["companyLeftMinMonthsAgo"],
    reads: "a positive value: recently_changed_jobs",
  },
  role_family: { appQuery: ["roles"], reads: "each role's family: role_families" },
  min_role_months: { notMapped: "a role's minMonths is not mapped" },
  roles: { appQuery: ["roles"], reads: "each role's title and titles: titles" },
  q_in: { notMapped: NO_APP_KEY },
  keywords: { appQuery: ["keywords"], reads: "keywords (else the input)" },
  school: { appQuery: ["school"], reads: "school" },
  skill: { appQuery: ["skill"], reads: "skills" },
  skills: { appQuery: ["skills"], reads: "skills" },
  skill_match: { appQuery: ["skillMatch"], reads: "skill_match" },
  language: { appQuery: ["language"], reads: "languages" },
  languages: { appQuery: ["languages"], reads: "languages" },
  language_match: { appQuery: ["languageMatch"], reads: "language_match" },
  exclude_languages: { appQuery: ["excludeLanguages"], reads: "exclude_languages" },
  certification: { notMapped: "a Target refuses it: 400 certification_target_unsupported" },
  certifications: { notMapped: "a Target refuses it: 400 certification_target_unsupported" },
  certification_match: { notMapped: NO_APP_KEY },
  location: { appQuery: ["location"], reads: "location_ids" },
  exclude_locations: { appQuery: ["excludeLocations"], reads: "exclude_location_ids" },
  open_to_work: { notMapped: NO_APP_KEY },
  between_roles: { appQuery: ["betweenRoles"], reads: "true: recently_changed_jobs" },
  exploring: { notMapped: NO_APP_KEY },
  codehost_hireable: { notMapped: NO_APP_KEY },
};

/**
 * The reference's app_query mapping: keywords, school, skills, languages, role titles and families, location
 * and exclusions are used; a positive companyLeftMinMonthsAgo or betweenRoles true maps to
 * recently_changed_jobs true (the months are not kept); company and companyCurrent never become company_ids;
 * minMonths and scope are not mapped. The provider `query` keys override the mapped ones (query.keywords
 * overrides the keyword generated from input or app_query). Empty values are left out.
 */
export function mapPeopleFilters(input: string, app: AppQuery, providerQuery: unknown): PeopleFilters {
  // Only the provider keys below are read: any other key of `query` is dropped.
  const query = isObj(providerQuery) ? providerQuery : {};
  // Each role as sent: the schema's types are checked, but read defensively (unknown keys, odd items).
  const roles = (Array.isArray(app.roles) ? (app.roles as unknown[]) : []).filter(
    (r): r is Record<string, unknown> => typeof r === "object" && r !== null,
  );
  const mapped: PeopleFilters = {
    keywords: text(app.keywords) ?? input,
    titles: unique(roles.flatMap((r) => [...(text(r.title) ? [text(r.title)!] : []), ...strings(r.titles)])),
    role_families: unique(
      roles
        .map((r) => text(r.family))
        .filter((f): f is string => f !== undefined)
        .map((f) => f.toLowerCase()),
    ),
    skills: unique([...(text(app.skill) ? [text(app.skill)!] : []), ...strings(app.skills)]),
    skill_match: matchMode(app.skillMatch),
    languages: unique([...(text(app.language) ? [text(app.language)!] : []), ...strings(app.languages)]),
    language_match: matchMode(app.languageMatch),
    exclude_languages: unique(strings(app.excludeLanguages)),
    school: text(app.school),
    location_ids: unique(places(app.location)),
    exclude_location_ids: unique(places(app.excludeLocations)),
    recently_changed_jobs:
      (typeof app.companyLeftMinMonthsAgo === "number" && app.companyLeftMinMonthsAgo > 0) || app.betweenRoles === true
        ? true
        : undefined,
  };
  const provider: PeopleFilters = {
    keywords: text(query.keywords),
    titles: Array.isArray(query.titles) ? strings(query.titles) : undefined,
    past_titles: Array.isArray(query.past_titles) ? strings(query.past_titles) : undefined,
    seniorities: Array.isArray(query.seniorities) ? strings(query.seniorities) : undefined,
    location_ids: Array.isArray(query.location_ids) ? strings(query.location_ids) : undefined,
    exclude_location_ids: Array.isArray(query.exclude_location_ids) ? strings(query.exclude_location_ids) : undefined,
    recently_changed_jobs: typeof query.recently_changed_jobs === "boolean" ? query.recently_changed_jobs : undefined,
    company_ids: Array.isArray(query.company_ids) ? strings(query.company_ids) : undefined,
    past_company_ids: Array.isArray(query.past_company_ids) ? strings(query.past_company_ids) : undefined,
  };
  const merged: Record<string, unknown> = { ...mapped };
  for (const [k, v] of Object.entries(provider)) if (v !== undefined) merged[k] = v;
  for (const [k, v] of Object.entries(merged))
    if (v === undefined || (Array.isArray(v) && v.length === 0)) delete merged[k];
  return merged as PeopleFilters;
}

// ---- matching (the people matcher of domain/search.ts, on discovery's rules) ----

const DISCOVERY_RULES: MatchRules = { keywords: "profile", skills: "exact" };
/** "Recently changed jobs": a position started or ended within the last 24 months of the graph's today. */
const RECENT_CHANGE_MONTHS = 24;

/** A people Target's filters as the shared matcher's filters (terms lower-cased; unflagged people only). */
export function discoveryFilters(f: PeopleFilters): SearchFilters {
  const lower = (values: string[]) => values.map((v) => v.toLowerCase());
  const currentTitles = [f.titles, f.seniorities].filter((g): g is string[] => g !== undefined).map(lower);
  const employers = [
    ...(f.company_ids ? [{ ids: lower(f.company_ids), current: true }] : []),
    ...(f.past_company_ids ? [{ ids: lower(f.past_company_ids), current: false }] : []),
  ];
  return {
    ...NO_FILTERS,
    keywords: f.keywords ? profileKeywordTokens(f.keywords) : [],
    school: f.school ? f.school.toLowerCase() : null,
    skills: f.skills ? { terms: lower(f.skills), mode: f.skill_match ?? "any" } : null,
    languages: f.languages ? { terms: lower(f.languages), mode: f.language_match ?? "any" } : null,
    excludeLanguages: lower(f.exclude_languages ?? []),
    locations: f.location_ids ? compilePlaces(f.location_ids) : null,
    excludeLocations: f.exclude_location_ids ? compilePlaces(f.exclude_location_ids) : null,
    rules: DISCOVERY_RULES,
    ...(currentTitles.length > 0 ? { currentTitles } : {}),
    ...(f.past_titles ? { pastTitles: lower(f.past_titles) } : {}),
    ...(f.role_families ? { currentRoleFamilies: lower(f.role_families) } : {}),
    ...(f.recently_changed_jobs ? { changedWithinMonths: RECENT_CHANGE_MONTHS } : {}),
    ...(employers.length > 0 ? { employers } : {}),
  };
}

// ---- candidates ----

export function locationText(loc: {
  city?: string | null;
  region?: string | null;
  country?: string | null;
}): string | null {
  const parts: string[] = [];
  for (const part of [loc.city, loc.region, loc.country]) if (part && !parts.includes(part)) parts.push(part);
  return parts.length > 0 ? parts.join(", ") : null;
}

function graphCandidate(rec: PersonRecord, isCurrent: boolean | null): Candidate {
  const p = rec.person;
  const key = normalizeProfileUrl(p.network_url)!;
  const profile: MemberProfile = {
    full_name: p.full_name,
    headline: p.headline,
    current_company: rec.positions.find((x) => x.is_current === true)?.company ?? null,
    public_identifier: p.slug,
    location: locationText(p.location),
    is_current: isCurrent,
  };
  return {
    key,
    network_url: `https://${key}`,
    in_graph: true,
    stub: profile,
    enrichment: { profile, slug: p.slug, picture: p.profile_picture_url },
  };
}

interface SyntheticSpec {
  title: string;
  company: string | null;
  isCurrent: boolean | null;
  /** The Target's keywords: a profile gets, at the end of its headline, those its other fields lack. */
  keywords?: string;
}

/**
 * The words of `keywords` whose tokens are not word prefixes of `profile` (the `profile` keyword rule a graph
 * member passes: name, headline, current title and employer, location), in their given spelling.
 */
function missingKeywords(keywords: string | undefined, profile: string): string[] {
  if (!keywords) return [];
  const haystack = profile.toLowerCase();
  return keywords.split(/\s+/).filter((word) => profileKeywordTokens(word).some((t) => !hasWordPrefix(haystack, t)));
}

/** Profiles outside the index graph, deterministic per Target (a retry finds the same ones again). */
function offGraphCandidates(
  graph: Graph,
  salt: string,
  count: number,
  spec: (rng: Prng) => SyntheticSpec,
  within?: (place: LowerLocation) => boolean,
): Candidate[] {
  const rng = new Prng(Math.floor(unitFrom(salt) * 0x1_0000_0000));
  const out: Candidate[] = [];
  for (let i = 0; out.length < count && i < count * 4; i++) {
    const { fullName: name, city, region, country } = synthesizePerson(rng, within);
    const slug = `${slugify(name)}-${Math.floor(unitFrom(`${salt}:${i}`) * 0xffffff)
      .toString(16)
      .padStart(6, "0")}`;
    const key = normalizeProfileUrl(`${NETWORK_ORIGIN}/in/${slug}`)!;
    if (graph.byUrl.has(key) || out.some((c) => c.key === key)) continue;
    const s = spec(rng);
    const role = s.company ? `${s.title} at ${s.company}` : s.title;
    const where = locationText({ city, region, country });
    const missing = missingKeywords(s.keywords, [name, role, where].join(" | "));
    const profile: MemberProfile = {
      full_name: name,
      headline: missing.length > 0 ? `${role} · ${missing.join(" ")}` : role,
      current_company: s.isCurrent === false ? null : s.company,
      public_identifier: slug,
      location: where,
      is_current: s.isCurrent,
    };
    out.push({
      key,
      network_url: `https://${key}`,
      in_graph: false,
      stub: EMPTY_PROFILE,
      enrichment: { profile, slug, picture: `https://media.network.example.com/profile/${slug}.jpg` },
    });
  }
  return out;
}

const offGraphCount = (found: number) => (found === 0 ? 0 : Math.max(1, Math.round(found * OFF_GRAPH_SHARE)));

export function companyCandidates(graph: Graph, company: Company, salt: string, limit: number): Candidate[] {
  const seen = new Map<PersonRecord, boolean>();
  for (const { record, stint } of graph.stintsByCompany.get(company.key) ?? []) {
    if (record.flagged) continue;
    seen.set(record, (seen.get(record) ?? false) || stint.current);
  }
  const found = [...seen.entries()]
    .sort((a, b) => a[0].idx - b[0].idx)
    .map(([rec, current]) => graphCandidate(rec, current));
  const extra = offGraphCandidates(graph, salt, offGraphCount(found.length), (rng) => {
    const current = rng.chance(60);
    return { title: rng.pick(ALL_TITLES), company: company.name, isCurrent: current };
  });
  return [...found, ...extra].slice(0, limit);
}

export function peopleCandidates(graph: Graph, filters: PeopleFilters, salt: string, limit: number): Candidate[] {
  const f = discoveryFilters(filters);
  const found = graph.people
    .filter((rec) => matchPerson(rec, f, graph.todayMonth) !== null)
    .map((rec) => graphCandidate(rec, null));
  const family = filters.role_families?.map(familyTitles).find((t) => t !== undefined);
  const titles = filters.titles ?? (family ? [...family] : [titleCase(filters.keywords ?? "Professional")]);
  const extra = offGraphCandidates(
    graph,
    salt,
    offGraphCount(found.length),
    (rng) => ({
      title: withSeniority(rng.pick(titles), filters.seniorities, rng),
      // A Target that names current employers finds people who work there now.
      company: filters.company_ids ? rng.pick(filters.company_ids) : "Stealth Startup",
      isCurrent: null,
      keywords: filters.keywords,
    }),
    placeTest(filters),
  );
  return [...found, ...extra].slice(0, limit);
}

/** The Target's places and exclusions as one test (undefined when it names none): off-graph people live there. */
function placeTest(f: PeopleFilters): ((place: LowerLocation) => boolean) | undefined {
  if (!f.location_ids && !f.exclude_location_ids) return undefined;
  const inside = f.location_ids ? compilePlaces(f.location_ids) : null;
  const outside = f.exclude_location_ids ? compilePlaces(f.exclude_location_ids) : null;
  return (place) => (inside === null || inside(place)) && (outside === null || !outside(place));
}

/**
 * A title that passes the Target's seniorities as a graph person's must (a current title containing one of
 * them): kept when it already names one, else one of them put first ("Junior Data Engineer").
 */
function withSeniority(title: string, seniorities: readonly string[] | undefined, rng: Prng): string {
  if (!seniorities?.length || seniorities.some((s) => title.toLowerCase().includes(s.toLowerCase()))) return title;
  return `${titleCase(rng.pick(seniorities))} ${title}`;
}

function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** The network id enrichment records (deterministic). */
export function networkIdFor(key: string): string {
  return `tgn_${Math.floor(unitFrom(`network-id:${key}`) * 0xffffffff).toString(36)}`;
}
