/**
 * Discovery of a Target's members from the graph plus a few deterministic profiles that are
 * not in the index graph (the service discovers through providers, so some members use allocation).
 *
 * - company Targets: every unflagged person with a position at the resolved company (is_current true when a
 *   position there is current, false for alumni);
 * - people Targets: the stored provider filters (`query.filters`, mapped from input, app_query and query).
 */
import type { Graph, PersonRecord } from "../data/graph.js";
import type { Company } from "../data/resources.js";
import { CONTINENTS } from "../data/geo.js";
import { Prng } from "../data/prng.js";
import { FAMILIES, NAMES } from "../data/vocab.js";
import { slugify } from "../data/generate.js";
import { matchesAnyPlace } from "../domain/locations.js";

import { hasWordPrefix, tokenize } from "../data/text.js";
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

export const EMPTY_PROFILE: MemberProfile = { full_name: null, headline: null, current_company: null, public_identifier: null, location: null, is_current: null };

/** Share of discovered profiles that are not in the index graph (at least one when anything is found). */
export const OFF_GRAPH_SHARE = 0.2;

// ---- people Target filters ----

export interface PeopleFilters {
  keywords?: string;
  titles?: string[];
  past_titles?: string[];
  seniorities?: string[];
  role_families?: string[];
  skills?: string[];
  skill_match?: "any" | "all";
  languages?: string[];
  language_match?: "any" | "all";
  exclude_languages?: string[];
  school?: string;
  location_ids?: string[];
  exclude_location_ids?: string[];
  recently_changed_jobs?: boolean;
  company_ids?: string[];
  past_company_ids?: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim()) : []);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const places = (v: unknown): string[] => (typeof v === "string" ? v.split(";").map((s) => s.trim()).filter(Boolean) : []);
const matchMode = (v: unknown): "any" | "all" | undefined => (v === "any" || v === "all" ? v : undefined);

function unique(values: string[]): string[] {
  const seen = new Map<string, string>();
  for (const v of values) if (!seen.has(v.toLowerCase())) seen.set(v.toLowerCase(), v);
  return [...seen.values()];
}

/**
 * The reference's app_query mapping: keywords, school, skills, languages, role titles and families, location
 * and exclusions are used; a positive companyLeftMinMonthsAgo or betweenRoles true maps to
 * recently_changed_jobs true (the months are not kept); company and companyCurrent never become company_ids;
 * minMonths and scope are not mapped. The provider `query` keys override the mapped ones (query.keywords
 * overrides the keyword generated from input or app_query). Empty values are left out.
 */
export function mapPeopleFilters(input: string, app: Record<string, unknown>, query: Record<string, unknown>): PeopleFilters {
  const roles = Array.isArray(app.roles) ? app.roles.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null) : [];
  const mapped: PeopleFilters = {
    keywords: text(app.keywords) ?? input,
    titles: unique(roles.flatMap((r) => [...(text(r.title) ? [text(r.title)!] : []), ...strings(r.titles)])),
    role_families: unique(roles.map((r) => text(r.family)).filter((f): f is string => f !== undefined).map((f) => f.toLowerCase())),
    skills: unique([...(text(app.skill) ? [text(app.skill)!] : []), ...strings(app.skills)]),
    skill_match: matchMode(app.skillMatch),
    languages: unique([...(text(app.language) ? [text(app.language)!] : []), ...strings(app.languages)]),
    language_match: matchMode(app.languageMatch),
    exclude_languages: unique(strings(app.excludeLanguages)),
    school: text(app.school),
    location_ids: unique(places(app.location)),
    exclude_location_ids: unique(places(app.excludeLocations)),
    recently_changed_jobs:
      (typeof app.companyLeftMinMonthsAgo === "number" && app.companyLeftMinMonthsAgo > 0) || app.betweenRoles === true ? true : undefined,
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
  for (const [k, v] of Object.entries(merged)) if (v === undefined || (Array.isArray(v) && v.length === 0)) delete merged[k];
  return merged as PeopleFilters;
}

/** The provider `query` of a people Target with unknown keys stripped. */
export function stripProviderQuery(query: unknown): Record<string, unknown> {
  if (typeof query !== "object" || query === null) return {};
  const keys = ["keywords", "titles", "past_titles", "seniorities", "location_ids", "exclude_location_ids", "recently_changed_jobs", "company_ids", "past_company_ids"];
  return Object.fromEntries(Object.entries(query).filter(([k]) => keys.includes(k)));
}

// ---- matching ----

const STOPWORDS = new Set(["a", "an", "and", "at", "for", "from", "in", "of", "on", "or", "the", "to", "with", "who", "people"]);

/** Keyword tokens: stopwords dropped, a plural "s" removed ("engineers" finds "Engineer"). */
export function keywordTokens(value: string): string[] {
  return tokenize(value)
    .filter((t) => !STOPWORDS.has(t))
    .map((t) => (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

function profileText(rec: PersonRecord): string {
  const p = rec.person;
  return [p.full_name, p.headline, ...rec.positions.map((x) => `${x.title ?? ""} ${x.company ?? ""}`), p.location.city, p.location.region, p.location.country, ...p.skills]
    .filter(Boolean)
    .join(" | ")
    .toLowerCase();
}

const includesAny = (value: string | null, needles: string[]) => value !== null && needles.some((n) => value.toLowerCase().includes(n.toLowerCase()));

function byMode(mode: "any" | "all" | undefined, terms: string[], test: (t: string) => boolean): boolean {
  return mode === "all" ? terms.every(test) : terms.some(test);
}

function companyMatches(rec: PersonRecord, ids: string[], current: boolean): boolean {
  return rec.stints.some(
    (s) => s.current === current && ids.some((id) => (s.company?.key ?? "") === id.toLowerCase() || s.companyText.includes(id.toLowerCase())),
  );
}

export function matchesPeopleFilters(graph: Graph, rec: PersonRecord, f: PeopleFilters): boolean {
  const p = rec.person;
  if (f.keywords) {
    const haystack = profileText(rec);
    if (!keywordTokens(f.keywords).every((t) => hasWordPrefix(haystack, t))) return false;
  }
  const current = rec.positions.filter((x) => x.is_current === true);
  const past = rec.positions.filter((x) => x.is_current !== true);
  if (f.titles && !current.some((x) => includesAny(x.title, f.titles!))) return false;
  if (f.past_titles && !past.some((x) => includesAny(x.title, f.past_titles!))) return false;
  if (f.seniorities && !current.some((x) => includesAny(x.title, f.seniorities!))) return false;
  if (f.role_families && !rec.stints.some((s) => s.family !== null && f.role_families!.includes(s.family.toLowerCase()))) return false;
  if (f.skills && !byMode(f.skill_match, f.skills, (t) => rec.skillsLc.includes(t.toLowerCase()))) return false;
  if (f.languages && !byMode(f.language_match, f.languages, (t) => rec.languagesLc.includes(t.toLowerCase()))) return false;
  if (f.exclude_languages?.some((t) => rec.languagesLc.includes(t.toLowerCase()))) return false;
  if (f.school && !p.education.some((e) => includesAny(e.school, [f.school!]))) return false;
  if (f.location_ids && !matchesAnyPlace(p.location, f.location_ids)) return false;
  if (f.exclude_location_ids && matchesAnyPlace(p.location, f.exclude_location_ids)) return false;
  if (f.recently_changed_jobs && !recentlyChanged(graph, rec)) return false;
  if (f.company_ids && !companyMatches(rec, f.company_ids, true)) return false;
  if (f.past_company_ids && !companyMatches(rec, f.past_company_ids, false)) return false;
  return true;
}

/** A position started or ended within the last 24 months of the graph's today. */
function recentlyChanged(graph: Graph, rec: PersonRecord): boolean {
  return rec.stints.some((s) => (s.start !== null && graph.todayMonth - s.start <= 24) || (s.end !== null && graph.todayMonth - s.end <= 24));
}

// ---- candidates ----

export function locationText(loc: { city?: string | null; region?: string | null; country?: string | null }): string | null {
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
  return { key, network_url: `https://${key}`, in_graph: true, stub: profile, enrichment: { profile, slug: p.slug, picture: p.profile_picture_url } };
}

interface SyntheticSpec {
  title: string;
  company: string | null;
  isCurrent: boolean | null;
}

/** Profiles outside the index graph, deterministic per Target (a retry finds the same ones again). */
function offGraphCandidates(graph: Graph, salt: string, count: number, spec: (rng: Prng) => SyntheticSpec): Candidate[] {
  const rng = new Prng(Math.floor(unitFrom(salt) * 0x1_0000_0000));
  const countries = Object.values(CONTINENTS).flat();
  const out: Candidate[] = [];
  for (let i = 0; out.length < count && i < count * 4; i++) {
    const country = rng.pick(countries);
    const [city, region] = rng.pick(country.cities);
    const pool = NAMES[country.names];
    const name = `${rng.pick(pool.first)} ${rng.pick(pool.last)}`;
    const slug = `${slugify(name)}-${Math.floor(unitFrom(`${salt}:${i}`) * 0xffffff).toString(16).padStart(6, "0")}`;
    const key = normalizeProfileUrl(`${NETWORK_ORIGIN}/in/${slug}`)!;
    if (graph.byUrl.has(key) || out.some((c) => c.key === key)) continue;
    const s = spec(rng);
    const profile: MemberProfile = {
      full_name: name,
      headline: s.company ? `${s.title} at ${s.company}` : s.title,
      current_company: s.isCurrent === false ? null : s.company,
      public_identifier: slug,
      location: locationText({ city, region, country: country.name }),
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
  const found = [...seen.entries()].sort((a, b) => a[0].idx - b[0].idx).map(([rec, current]) => graphCandidate(rec, current));
  const titles = Object.values(FAMILIES).flatMap((f) => f.titles);
  const extra = offGraphCandidates(graph, salt, offGraphCount(found.length), (rng) => {
    const current = rng.chance(60);
    return { title: rng.pick(titles), company: company.name, isCurrent: current };
  });
  return [...found, ...extra].slice(0, limit);
}

export function peopleCandidates(graph: Graph, filters: PeopleFilters, salt: string, limit: number): Candidate[] {
  const found = graph.people.filter((rec) => !rec.flagged && matchesPeopleFilters(graph, rec, filters)).map((rec) => graphCandidate(rec, null));
  const family = filters.role_families?.find((f) => FAMILIES[f]);
  const titles = filters.titles ?? (family ? [...FAMILIES[family]!.titles] : [titleCase(filters.keywords ?? "Professional")]);
  const extra = offGraphCandidates(graph, salt, offGraphCount(found.length), (rng) => ({ title: rng.pick(titles), company: "Stealth Startup", isCurrent: null }));
  return [...found, ...extra].slice(0, limit);
}

function titleCase(s: string): string {
  return s.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

/** The network id enrichment records (deterministic). */
export function networkIdFor(key: string): string {
  return `tgn_${Math.floor(unitFrom(`network-id:${key}`) * 0xffffffff).toString(36)}`;
}
