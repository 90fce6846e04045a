/**
 * GET /people semantics: the effective query (nl phrases + explicit parameters, explicit winning), the
 * rules OpenAPI cannot express, and the filters over the graph. Parameter types and bounds are already
 * checked by the spec-derived validator when this runs.
 */
import type { Graph, PersonRecord, Stint } from "../data/graph.js";
import type { Match, MatchRole } from "../data/resources.js";
import { invalidRequest } from "../contract/errors.js";
import { periodStart } from "../data/dates.js";
import { compilePlaces } from "./locations.js";
import { parseNl } from "./nl.js";
import { parseRoleTokens, titleMatcher } from "./roles.js";
import { parseCertificationList, parsePlaces, parseTermList, requireTerms } from "./terms.js";
import { planSearch, searchIndexOf, type SearchPlan } from "./search-index.js";
import { containsPhrase, hasWordPrefix, tokenize } from "../data/text.js";
import { QUERY_KEYS, SEARCH_RULES, type EffectiveQuery, type MatchMode, type SearchFilters } from "./search-query.js";

export {
  QUERY_KEYS,
  SEARCH_RULES,
  type EffectiveQuery,
  type MatchRules,
  type QueryKey,
  type SearchFilters,
} from "./search-query.js";

export interface ParsedSearch {
  query: EffectiveQuery;
  filters: SearchFilters;
  view: "full" | "compact";
  limit: number;
  offset: number;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const mode = (v: unknown): MatchMode => (v === "all" ? "all" : "any");

/** nl phrases become filters; an explicit parameter wins over the same key from nl. */
export function effectiveQuery(params: Record<string, unknown>, graph: Graph): EffectiveQuery {
  const fromNl = typeof params.nl === "string" ? parseNl(params.nl, graph) : {};
  const query: EffectiveQuery = {};
  for (const key of QUERY_KEYS) {
    const value = params[key] !== undefined ? params[key] : fromNl[key];
    if (value !== undefined && value !== null && value !== "") query[key] = value as string | number | boolean;
  }
  return query;
}

function terms(name: string, single: unknown, list: unknown): string[] {
  const given = [str(single), str(list)].filter((s): s is string => s !== null);
  return given.length === 0 ? [] : requireTerms(name, parseTermList(name, given.join(";")));
}

/** Everything OpenAPI cannot express about the search parameters; throws 400 naming the problem. */
export function buildFilters(q: EffectiveQuery, includeFlagged: boolean): SearchFilters {
  if (q.min_role_months !== undefined && q.role_family === undefined && q.roles === undefined) {
    throw invalidRequest("min_role_months requires role_family");
  }
  const activeDuring = str(q.company_active_during);
  if (activeDuring !== null && !/^\d{4}(-(0[1-9]|1[0-2]))?$/.test(activeDuring)) {
    throw invalidRequest("company_active_during must be YYYY or YYYY-MM");
  }
  const skillTerms = terms("skills", q.skill, q.skills);
  const languageTerms = terms("languages", q.language, q.languages);
  const certTerms = [
    ...(str(q.certification) ? [str(q.certification)!.trim()] : []),
    ...(str(q.certifications) ? parseCertificationList(str(q.certifications)!) : []),
  ];
  const certDistinct = [...new Map(certTerms.filter(Boolean).map((t) => [t.toLowerCase(), t])).values()];
  if (certDistinct.length > 10)
    throw invalidRequest(`certifications accepts at most 10 distinct terms, got ${certDistinct.length}`);
  const roles = str(q.roles) ? parseRoleTokens(str(q.roles)!) : [];
  return {
    company: str(q.company)?.toLowerCase() ?? null,
    minCompanyMonths: int(q.min_company_months),
    companyCurrent: bool(q.company_current) === true,
    leftMinMonthsAgo: int(q.company_left_min_months_ago),
    activeDuring: activeDuring === null ? null : periodStart(activeDuring),
    roleFamily: roles.length > 0 ? null : (str(q.role_family)?.toLowerCase() ?? null),
    minRoleMonths: int(q.min_role_months),
    roles,
    keywords: str(q.keywords) ? tokenize(str(q.keywords)!) : [],
    qIn: q.q_in === "name" || q.q_in === "headline" ? q.q_in : "people",
    school: str(q.school)?.toLowerCase() ?? null,
    skills: skillTerms.length > 0 ? { terms: skillTerms.map((t) => t.toLowerCase()), mode: mode(q.skill_match) } : null,
    languages:
      languageTerms.length > 0
        ? { terms: languageTerms.map((t) => t.toLowerCase()), mode: mode(q.language_match) }
        : null,
    excludeLanguages: terms("exclude_languages", q.exclude_languages, null).map((t) => t.toLowerCase()),
    certifications:
      certDistinct.length > 0
        ? { terms: certDistinct.map((t) => t.toLowerCase()), mode: mode(q.certification_match) }
        : null,
    locations: str(q.location)
      ? compilePlaces(requireTerms("location", parsePlaces("location", str(q.location)!)))
      : null,
    excludeLocations: str(q.exclude_locations)
      ? compilePlaces(requireTerms("exclude_locations", parsePlaces("exclude_locations", str(q.exclude_locations)!)))
      : null,
    openToWork: bool(q.open_to_work),
    betweenRoles: bool(q.between_roles),
    exploring: bool(q.exploring),
    codehostHireable: bool(q.codehost_hireable),
    includeFlagged,
  };
}

export function parseSearch(params: Record<string, unknown>, graph: Graph): ParsedSearch {
  const query = effectiveQuery(params, graph);
  const filters = buildFilters(query, params.include_flagged === true);
  // An nl search names a role ("staff engineers"): people who hold such a title now rank first.
  if (typeof params.nl === "string" && filters.roleFamily !== null) filters.rankFamily = filters.roleFamily;
  return {
    query,
    filters,
    view: params.view === "compact" ? "compact" : "full",
    limit: typeof params.limit === "number" ? params.limit : 25,
    offset: typeof params.offset === "number" ? params.offset : 0,
  };
}

export interface Hit {
  record: PersonRecord;
  match: Match;
  score: number;
}

/** A role key of a match (one literal for every producer, so its keys are always in this order). */
function matchRole(family: string, months: number, scope: MatchRole["scope"], company: string | null): MatchRole {
  return { family, months, scope, company };
}

// ---- the filters ----

const NO_MATCH: Readonly<Match> = Object.freeze({});

/** The stint is at a company whose name or URL contains the fragment. */
function atCompany(fragment: string, s: Stint): boolean {
  return s.companyText.includes(fragment);
}

function activeAt(s: Stint, month: number): boolean {
  return (s.start === null || s.start <= month) && (s.current || s.end === null || month <= s.end);
}

/** Company constraints; returns the match keys, or null when the person fails them. */
function companyMatch(
  rec: PersonRecord,
  f: SearchFilters,
  todayMonth: number,
): Pick<Match, "company" | "company_months"> | null {
  const anyCompanyRule =
    f.company !== null ||
    f.minCompanyMonths !== null ||
    f.companyCurrent ||
    f.leftMinMonthsAgo !== null ||
    f.activeDuring !== null;
  if (!anyCompanyRule) return NO_MATCH;
  const candidates = f.company === null ? rec.stints : rec.stints.filter((s) => atCompany(f.company!, s));
  if (candidates.length === 0) return null;
  let qualifying = candidates;
  if (f.leftMinMonthsAgo !== null) {
    if (f.company !== null && candidates.some((s) => s.current)) return null;
    qualifying = candidates.filter((s) => !s.current && s.end !== null && todayMonth - s.end >= f.leftMinMonthsAgo!);
  } else if (f.companyCurrent) {
    qualifying = candidates.filter((s) => s.current);
  }
  if (f.activeDuring !== null) qualifying = qualifying.filter((s) => activeAt(s, f.activeDuring!));
  if (qualifying.length === 0) return null;
  let months: number;
  if (f.company !== null) {
    months = candidates.reduce((sum, s) => sum + s.months, 0);
    if (f.minCompanyMonths !== null && months < f.minCompanyMonths) return null;
  } else {
    if (f.minCompanyMonths !== null) qualifying = qualifying.filter((s) => s.months >= f.minCompanyMonths!);
    if (qualifying.length === 0) return null;
    months = qualifying[0]!.months;
  }
  return { company: qualifying[0]!.companyName, company_months: months };
}

function sumMonths(stints: Stint[]): number {
  return stints.reduce((sum, s) => sum + s.months, 0);
}

function roleMatch(rec: PersonRecord, f: SearchFilters): Pick<Match, "role_months" | "roles"> | null {
  if (f.roleFamily === null && f.roles.length === 0) return NO_MATCH;
  const roles: MatchRole[] = [];
  if (f.roleFamily !== null) {
    const scoped = f.company !== null;
    // One pass over the stints (every search row runs this): the family's stints, within the company when
    // scoped, their months summed and the first kept.
    let first: Stint | null = null;
    let months = 0;
    for (const s of rec.stints) {
      if (s.familyLc !== f.roleFamily || (scoped && !atCompany(f.company!, s))) continue;
      first ??= s;
      months += s.months;
    }
    if (first === null || (f.minRoleMonths !== null && months < f.minRoleMonths)) return null;
    roles.push(matchRole(f.roleFamily, months, scoped ? "company" : "anywhere", scoped ? first.companyName : null));
  }
  for (const r of f.roles) {
    let stints: Stint[];
    let company: string | null = null;
    if (r.kind === "family") {
      stints = rec.stints.filter((s) => s.familyLc === r.family && (r.company === null || atCompany(r.company, s)));
      if (r.company !== null) company = stints[0]?.companyName ?? null;
    } else {
      stints = rec.stints.filter((s) => titleMatcher(r)(s.titleLc));
    }
    const months = sumMonths(stints);
    const required = r.months ?? f.minRoleMonths;
    if (stints.length === 0 || (required !== null && months < required)) return null;
    const family = r.kind === "family" ? r.family : (stints[0]!.family ?? r.titles[0]!);
    roles.push(matchRole(family, months, r.kind === "family" && r.company !== null ? "company" : "anywhere", company));
  }
  return roles.length === 0 ? {} : { role_months: roles[0]!.months, roles };
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

/** The current profile: name, headline, current titles and employers, location (what discovery's keywords read). */
function profileText(rec: PersonRecord): string {
  const loc = rec.locationLc;
  return [
    rec.nameLc,
    rec.headlineLc,
    ...rec.stints.filter((s) => s.current).map((s) => `${s.title ?? ""} ${s.companyName ?? ""}`),
    loc.city,
    loc.region,
    loc.country,
  ]
    .filter(Boolean)
    .join(" | ")
    .toLowerCase();
}

function keywordScore(rec: PersonRecord, f: SearchFilters): number | null {
  if (f.keywords.length === 0) return 0;
  if ((f.rules ?? SEARCH_RULES).keywords === "profile") {
    const haystack = profileText(rec);
    return f.keywords.every((t) => hasWordPrefix(haystack, t)) ? 0 : null;
  }
  let score = 0;
  for (const word of f.keywords) {
    const inName = f.qIn !== "headline" && hasWordPrefix(rec.nameLc, word);
    const inHeadline = f.qIn !== "name" && hasWordPrefix(rec.headlineLc, word);
    if (!inName && !inHeadline) return null;
    score += (inName ? 2 : 0) + (inHeadline ? 1 : 0);
  }
  return score;
}

function matchesMode(mode: MatchMode, terms: string[], test: (t: string) => boolean): boolean {
  return mode === "all" ? terms.every(test) : terms.some(test);
}

/** `phrase`: a skill term matches a skill, a current or past employer, or the headline (as whole words); `exact`: a skill. */
function skillTermMatches(rec: PersonRecord, term: string, rule: "phrase" | "exact"): boolean {
  return rule === "exact" ? rec.skillsLc.includes(term) : containsPhrase(rec.skillText, term);
}

function certTermMatches(rec: PersonRecord, term: string): boolean {
  return rec.certificationsLc.some((c) => c.name.includes(term) || (c.authority?.includes(term) ?? false));
}

function passesFlags(rec: PersonRecord, f: SearchFilters): boolean {
  if (rec.flagged && !f.includeFlagged) return false;
  if (f.openToWork !== null && rec.openToWork !== f.openToWork) return false;
  if (f.betweenRoles !== null && rec.betweenRoles !== f.betweenRoles) return false;
  if (f.exploring !== null && rec.exploring !== f.exploring) return false;
  if (f.codehostHireable !== null && rec.hireable !== f.codehostHireable) return false;
  return true;
}

/** Cheap checks on precomputed values (run first). */
function passesPlacesAndLanguages(rec: PersonRecord, f: SearchFilters): boolean {
  if (f.locations && !f.locations(rec.locationLc)) return false;
  if (f.excludeLocations && f.excludeLocations(rec.locationLc)) return false;
  if (f.languages && !matchesMode(f.languages.mode, f.languages.terms, (t) => rec.languagesLc.includes(t)))
    return false;
  if (f.excludeLanguages.some((t) => rec.languagesLc.includes(t))) return false;
  return true;
}

/** Text checks. */
function passesText(rec: PersonRecord, f: SearchFilters): boolean {
  if (f.school !== null && !rec.schoolsLc.some((s) => s.includes(f.school!))) return false;
  if (f.certifications && !matchesMode(f.certifications.mode, f.certifications.terms, (t) => certTermMatches(rec, t)))
    return false;
  const skillRule = (f.rules ?? SEARCH_RULES).skills;
  if (f.skills && !matchesMode(f.skills.mode, f.skills.terms, (t) => skillTermMatches(rec, t, skillRule))) return false;
  return true;
}

const titleContains = (title: string | null, terms: readonly string[]) =>
  title !== null && terms.some((t) => title.toLowerCase().includes(t));

function atEmployer(s: Stint, ids: string[]): boolean {
  return ids.some((id) => (s.company?.key ?? "") === id || s.companyText.includes(id));
}

/** Position and stint checks that carry no match keys (titles, current role family, recent changes, employers). */
function passesPositions(rec: PersonRecord, f: SearchFilters, todayMonth: number): boolean {
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
  if (f.employers?.some((e) => !rec.stints.some((s) => s.current === e.current && atEmployer(s, e.ids)))) return false;
  return true;
}

/** The match of one person, or null when a filter rejects them. */
export function matchPerson(rec: PersonRecord, f: SearchFilters, todayMonth: number): Hit | null {
  if (
    !passesFlags(rec, f) ||
    !passesPlacesAndLanguages(rec, f) ||
    !passesText(rec, f) ||
    !passesPositions(rec, f, todayMonth)
  )
    return null;
  const company = companyMatch(rec, f, todayMonth);
  if (company === null) return null;
  const role = roleMatch(rec, f);
  if (role === null) return null;
  const score = keywordScore(rec, f);
  if (score === null) return null;
  // One key order for every search match (a key left undefined is absent from the JSON, as the reference shows).
  const match: Match = {
    company: company.company,
    company_months: company.company_months,
    role_months: role.role_months,
    roles: role.roles,
    score: f.keywords.length > 0 ? score : undefined,
  };
  return { record: rec, match, score };
}

/**
 * The hits of a plan's candidates (the residual predicate on each), in graph order. `enough` stops the pass
 * once it holds that many hits (the candidates after it are not evaluated).
 */
function planHits(graph: Graph, plan: SearchPlan, enough = Infinity): Hit[] {
  const hits: Hit[] = [];
  for (const idx of plan.candidates) {
    if (hits.length >= enough) break;
    const hit = matchPerson(graph.people[idx]!, plan.residual, graph.todayMonth);
    if (hit) hits.push(hit);
  }
  return hits;
}

/** Whether the hits are ranked (by keyword score or by a current title in `rankFamily`) rather than in graph order. */
const isRanked = (f: SearchFilters) => f.keywords.length > 0 || f.rankFamily !== undefined;

/** 0 when the person's current position is in the family, else 1 (sorts title matches first). */
function titleRank(rec: PersonRecord, family: string | undefined): number {
  return family !== undefined && rec.stints.some((s) => s.current && s.familyLc === family) ? 0 : 1;
}

function byScore(hits: Hit[], f: SearchFilters): Hit[] {
  if (!isRanked(f)) return hits;
  const ranks = new Map(hits.map((h) => [h, titleRank(h.record, f.rankFamily)]));
  return hits.sort((a, b) => ranks.get(a)! - ranks.get(b)! || b.score - a.score || a.record.idx - b.record.idx);
}

/**
 * All hits in the stable order: a current title in `rankFamily` first (nl role nouns), then keyword score
 * (when keywords are used), then graph order. The indexes narrow the people to the candidates (graph order
 * kept); the exact predicate decides on each.
 */
export function searchPeople(graph: Graph, f: SearchFilters): Hit[] {
  return byScore(planHits(graph, planSearch(searchIndexOf(graph), f)), f);
}

export interface SearchPage {
  /** Number of hits: exact, or at least `countUpTo` when there are that many (counting stopped there). */
  total: number;
  /** The hits at [offset, offset + limit) of the stable order (the same as `searchPeople(...).slice(...)`). */
  hits: Hit[];
}

/**
 * One page of the search. When the plan decides every candidate (in the stable order), the total is the candidate
 * count and only the page's rows are evaluated (for their match); otherwise the candidates are evaluated in graph
 * order until the page is taken and `countUpTo` hits are counted (an answer that caps its total needs no count past
 * the cap; every candidate when the hits are ranked).
 */
export function searchPage(
  graph: Graph,
  f: SearchFilters,
  offset: number,
  limit: number,
  countUpTo = Infinity,
): SearchPage {
  const ranked = isRanked(f);
  const plan = planSearch(searchIndexOf(graph), f, ranked ? Infinity : offset + limit, ranked ? Infinity : countUpTo);
  if (!plan.decided) {
    const hits = byScore(planHits(graph, plan, ranked ? Infinity : Math.max(countUpTo, offset + limit)), f);
    return { total: hits.length, hits: hits.slice(offset, offset + limit) };
  }
  const hits = plan.candidates.slice(offset, offset + Math.max(0, limit)).map((idx) => {
    const hit = matchPerson(graph.people[idx]!, plan.residual, graph.todayMonth);
    if (!hit) throw new Error("search index and predicate disagree");
    return hit;
  });
  return { total: plan.total, hits };
}
