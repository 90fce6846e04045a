/**
 * GET /people semantics: the effective query (nl phrases + explicit parameters, explicit winning), compiled by
 * the filter table (filters.ts), and the search over the graph: the people the filters' index lookups leave,
 * each kept when every filter's test passes, in the stable order. Parameter types, bounds and the rules between
 * parameters (`x-requires`) are already checked by the spec-derived validator when this runs.
 */
import type { Graph, PersonRecord } from "../data/graph.js";
import type { Match } from "../data/resources.js";
import { tokenize } from "../data/text.js";
import { companyMatch, FILTERS, isFilter, keywordScore, QUERY_KEYS, roleMatch, TESTS } from "./filters.js";
import { parseNl } from "./nl.js";
import { intersect, type People } from "./postings.js";
import { searchIndexOf } from "./search-index.js";
import type { EffectiveQuery, SearchFilters } from "./search-query.js";

export { QUERY_KEYS } from "./filters.js";
export { SEARCH_RULES, type EffectiveQuery, type MatchRules, type SearchFilters } from "./search-query.js";

/** The query and its compiled filters (the page, its size and the view are the caller's: the spec gives their defaults). */
export interface ParsedSearch {
  query: EffectiveQuery;
  filters: SearchFilters;
}

/** nl phrases become filters; an explicit parameter wins over the same key from nl. */
export function effectiveQuery(params: Record<string, unknown>, graph: Graph): EffectiveQuery {
  const fromNl: Record<string, unknown> = typeof params.nl === "string" ? parseNl(params.nl, graph) : {};
  const query: Record<string, unknown> = {};
  for (const key of QUERY_KEYS) {
    const value = params[key] !== undefined ? params[key] : fromNl[key];
    if (value !== undefined && value !== null && value !== "") query[key] = value;
  }
  return query as EffectiveQuery;
}

/** The compiled filters when no filter is used. */
export const NO_FILTERS: SearchFilters = {
  company: null,
  minCompanyMonths: null,
  companyCurrent: false,
  leftMinMonthsAgo: null,
  activeDuring: null,
  roleFamily: null,
  minRoleMonths: null,
  roles: [],
  keywords: [],
  qIn: "people",
  school: null,
  skills: null,
  languages: null,
  excludeLanguages: [],
  certifications: null,
  locations: null,
  excludeLocations: null,
  openToWork: null,
  betweenRoles: null,
  exploring: null,
  codehostHireable: null,
  includeFlagged: false,
};

/** Every filter's part of the compiled filters; throws 400 naming what OpenAPI cannot express. */
export function buildFilters(q: EffectiveQuery, includeFlagged: boolean): SearchFilters {
  const parts = Object.values(FILTERS).flatMap((entry) => (isFilter(entry) ? [entry.parse(q)] : []));
  return Object.assign({ ...NO_FILTERS }, ...parts, { includeFlagged }) as SearchFilters;
}

export function parseSearch(params: Record<string, unknown>, graph: Graph): ParsedSearch {
  const query = effectiveQuery(params, graph);
  const filters = buildFilters(query, params.include_flagged === true);
  // An nl search names a role ("staff engineers"): people who hold such a title now rank first.
  if (typeof params.nl === "string" && filters.roleFamily !== null) filters.rankFamily = filters.roleFamily;
  return { query, filters };
}

export interface Hit {
  record: PersonRecord;
  match: Match;
  score: number;
}

const STOPWORDS = new Set([
  "a",
  "an",
  "and",
  "at",
  "for",
  "from",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
  "who",
  "people",
]);

/** Keyword tokens for the `profile` keyword rule: stopwords dropped, a plural "s" removed ("engineers" finds "Engineer"). */
export function profileKeywordTokens(value: string): string[] {
  return tokenize(value)
    .filter((t) => !STOPWORDS.has(t))
    .map((t) => (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

const titleContains = (title: string | null, terms: readonly string[]) =>
  title !== null && terms.some((t) => title.toLowerCase().includes(t));

/** Target discovery's options, which no search parameter sets (titles, current role family, changes, employers). */
function passesDiscoveryOptions(rec: PersonRecord, f: SearchFilters, todayMonth: number): boolean {
  if (f.currentTitles?.some((terms) => !rec.stints.some((s) => s.current && titleContains(s.title, terms))))
    return false;
  if (f.pastTitles && !rec.stints.some((s) => !s.current && titleContains(s.title, f.pastTitles!))) return false;
  const families = f.currentRoleFamilies;
  if (families && !rec.stints.some((s) => s.current && s.familyLc !== null && families.includes(s.familyLc)))
    return false;
  const within = f.changedWithinMonths;
  if (
    within !== undefined &&
    !rec.stints.some(
      (s) => (s.start !== null && todayMonth - s.start <= within) || (s.end !== null && todayMonth - s.end <= within),
    )
  ) {
    return false;
  }
  const atEmployer = (ids: string[]) => (s: PersonRecord["stints"][number]) =>
    ids.some((id) => (s.company?.key ?? "") === id || s.companyText.includes(id));
  return !f.employers?.some((e) => !rec.stints.some((s) => s.current === e.current && atEmployer(e.ids)(s)));
}

/** The search's predicate: unflagged (unless asked), every filter's test, discovery's options. */
export function passes(rec: PersonRecord, f: SearchFilters, todayMonth: number): boolean {
  if (rec.flagged && !f.includeFlagged) return false;
  for (const filter of TESTS) if (!filter.test(rec, f, todayMonth)) return false;
  return passesDiscoveryOptions(rec, f, todayMonth);
}

/** The hit of a person who passes: the match keys (company, roles, keyword score) in one key order. */
function hitOf(rec: PersonRecord, f: SearchFilters, todayMonth: number): Hit {
  const company = companyMatch(rec, f, todayMonth)!;
  const role = roleMatch(rec, f)!;
  const score = keywordScore(rec, f)!;
  // A key left undefined is absent from the JSON, as the reference shows.
  const match: Match = {
    company: company.company,
    company_months: company.company_months,
    role_months: role.role_months,
    roles: role.roles,
    score: f.keywords.length > 0 ? score : undefined,
  };
  return { record: rec, match, score };
}

/** The match of one person, or null when a filter rejects them. */
export function matchPerson(rec: PersonRecord, f: SearchFilters, todayMonth: number): Hit | null {
  return passes(rec, f, todayMonth) ? hitOf(rec, f, todayMonth) : null;
}

/** The people who can match: in every list the filters' index lookups give (undefined: everyone). */
export function candidatesOf(graph: Graph, f: SearchFilters): People | undefined {
  const index = searchIndexOf(graph);
  return intersect(TESTS.map((filter) => filter.index?.(index, f)).filter((list) => list !== undefined));
}

/** Whether the hits are ranked (by keyword score or by a current title in `rankFamily`) rather than in graph order. */
const isRanked = (f: SearchFilters) => f.keywords.length > 0 || f.rankFamily !== undefined;

/** 0 when the person's current position is in the family, else 1 (sorts title matches first). */
function titleRank(rec: PersonRecord, family: string | undefined): number {
  return family !== undefined && rec.stints.some((s) => s.current && s.familyLc === family) ? 0 : 1;
}

/** The people who pass, in graph order, until `enough` of them. */
function passing(graph: Graph, f: SearchFilters, enough: number): PersonRecord[] {
  const candidates = candidatesOf(graph, f);
  const size = candidates?.length ?? graph.people.length;
  const out: PersonRecord[] = [];
  for (let i = 0; i < size && out.length < enough; i++) {
    const rec = graph.people[candidates ? candidates[i]! : i]!;
    if (passes(rec, f, graph.todayMonth)) out.push(rec);
  }
  return out;
}

/** A current title in `rankFamily` first, then keyword score (highest first), then graph order. */
function ranked(people: PersonRecord[], f: SearchFilters): PersonRecord[] {
  const keys = new Map(people.map((rec) => [rec, [titleRank(rec, f.rankFamily), keywordScore(rec, f)!] as const]));
  return people.sort((a, b) => {
    const [ka, kb] = [keys.get(a)!, keys.get(b)!];
    return ka[0] - kb[0] || kb[1] - ka[1] || a.idx - b.idx;
  });
}

export interface SearchPage {
  /** Number of hits: exact, or at least `countUpTo` when there are that many (counting stopped there). */
  total: number;
  /** The hits at [offset, offset + limit) of the stable order (the same as `searchPeople(...).slice(...)`). */
  hits: Hit[];
}

/**
 * One page of the search in the stable order. Unranked, the people are tested in graph order until the page is
 * taken and `countUpTo` hits are counted (an answer that caps its total needs no count past the cap); ranked,
 * every candidate is tested. Only the page's rows get their match.
 */
export function searchPage(
  graph: Graph,
  f: SearchFilters,
  offset: number,
  limit: number,
  countUpTo = Infinity,
): SearchPage {
  const order = isRanked(f);
  const found = passing(graph, f, order ? Infinity : Math.max(countUpTo, offset + limit));
  const page = (order ? ranked(found, f) : found).slice(offset, offset + Math.max(0, limit));
  return { total: found.length, hits: page.map((rec) => hitOf(rec, f, graph.todayMonth)) };
}

/** All hits in the stable order. */
export function searchPeople(graph: Graph, f: SearchFilters): Hit[] {
  return searchPage(graph, f, 0, Infinity).hits;
}
