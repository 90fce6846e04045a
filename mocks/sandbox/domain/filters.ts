/**
 * The people search's filters as one table: one entry per filter key of the spec (GET /people's filter
 * parameters, the PeopleSearchFilters object the answer echoes, the SavedQueryFilters allowlist), typed from
 * generated/ so that a key the spec has and the table lacks, or the reverse, is a tsc error naming it.
 *
 * An entry is a filter (`parse` from the effective query into its part of the compiled filters, `test` on one
 * person, and, where a list narrows the people cheaply, an `index` lookup giving a superset of the people who
 * pass) or a key another entry's `parse` reads (`readBy`: a match mode, a tenure, a scope). The search's
 * predicate is every filter's test; its plan is the people in every list the active filters' lookups give.
 * A rule between parameters (min_role_months needs role_family or roles) is the spec's `x-requires`,
 * enforced before the search runs.
 */
import type { components, operations } from "../../../generated/schema.js";
import type { SAVED_QUERY_KEYS } from "../../../generated/spec-constants.js";
import type { PersonRecord, Stint } from "../data/graph.js";
import type { Match, MatchRole } from "../data/resources.js";
import { periodStart } from "../data/dates.js";
import { containsPhrase, hasWordPrefix, leadingRun, tokenize, wordRuns } from "../data/text.js";
import { compilePlaces, type PlaceMatcher } from "./locations.js";
import { complement, intersect, union, type People } from "./postings.js";
import { parseRoleTokens, titleMatcher } from "./roles.js";
import { anyKey, inFamily, peopleWhere, type SearchIndex } from "./search-index.js";
import { SEARCH_RULES, type EffectiveQuery, type MatchMode, type SearchFilters } from "./search-query.js";
import { parseCertificationList, parsePlaces, parseTermList } from "./terms.js";

/** The spec's search filter keys: the keys of the effective (saveable) query GET /people echoes. */
export type FilterKey = keyof components["schemas"]["PeopleSearchFilters"];

/** GET /people's parameters that are not filters: paging, the row view, flagged profiles. */
type NotFilters = "view" | "limit" | "offset" | "include_flagged";
type SearchParameters = keyof NonNullable<operations["searchPeople"]["parameters"]["query"]>;

/** `true` when both key sets are the same; else what each lacks, named (the tsc error shows it). */
type SameKeys<A extends PropertyKey, B extends PropertyKey> = [Exclude<A, B>, Exclude<B, A>] extends [never, never]
  ? true
  : { notInPeopleSearchFilters: Exclude<A, B>; onlyInPeopleSearchFilters: Exclude<B, A> };

/** GET /people's filter parameters and the SavedQueryFilters allowlist are the filter keys. */
export const SPEC_KEYS_AGREE: [
  SameKeys<Exclude<SearchParameters, NotFilters>, FilterKey>,
  SameKeys<(typeof SAVED_QUERY_KEYS)[number], FilterKey>,
] = [true, true];

export interface Filter {
  /** The filter's part of the compiled filters ({} when the query does not use it); bad input is a 400. */
  parse(q: EffectiveQuery): Partial<SearchFilters>;
  /** Whether the person passes (true when the compiled filters do not use this filter). */
  test(rec: PersonRecord, f: SearchFilters, todayMonth: number): boolean;
  /** The people who can pass, ascending: a superset of those who do; undefined when it does not narrow. */
  index?(index: SearchIndex, f: SearchFilters): People | undefined;
}

/** A key that another entry's `parse` reads (nl: the effective query's phrases, read before every filter). */
export interface ReadBy {
  readBy: FilterKey | "effective query";
}

export const isFilter = (entry: Filter | ReadBy): entry is Filter => "test" in entry;

// ---- the per-person tests ----

const NO_MATCH: Readonly<Match> = Object.freeze({});

/** The stint is at a company whose name or URL contains the fragment. */
function atCompany(fragment: string, s: Stint): boolean {
  return s.companyText.includes(fragment);
}

function activeAt(s: Stint, month: number): boolean {
  return (s.start === null || s.start <= month) && (s.current || s.end === null || month <= s.end);
}

/** Company constraints; returns the match keys, or null when the person fails them. */
export function companyMatch(
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

/** A role key of a match (one literal for every producer, so its keys are always in this order). */
function matchRole(family: string, months: number, scope: MatchRole["scope"], company: string | null): MatchRole {
  return { family, months, scope, company };
}

/** Role constraints (role_family, roles, min_role_months); returns the match keys, or null when the person fails. */
export function roleMatch(rec: PersonRecord, f: SearchFilters): Pick<Match, "role_months" | "roles"> | null {
  if (f.roleFamily === null && f.roles.length === 0) return NO_MATCH;
  const roles: MatchRole[] = [];
  if (f.roleFamily !== null) {
    const scoped = f.company !== null;
    // One pass over the stints: the family's stints, within the company when scoped, their months summed and
    // the first kept.
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
    const months = stints.reduce((sum, s) => sum + s.months, 0);
    const required = r.months ?? f.minRoleMonths;
    if (stints.length === 0 || (required !== null && months < required)) return null;
    const family = r.kind === "family" ? r.family : (stints[0]!.family ?? r.titles[0]!);
    roles.push(matchRole(family, months, r.kind === "family" && r.company !== null ? "company" : "anywhere", company));
  }
  return roles.length === 0 ? {} : { role_months: roles[0]!.months, roles };
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

/** The keyword score (name 2, headline 1 per keyword; 0 under the profile rule), or null when a keyword misses. */
export function keywordScore(rec: PersonRecord, f: SearchFilters): number | null {
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

/** The people of each term, combined by the match mode; undefined when a term has no lookup (any) or none has. */
function byMode(index: SearchIndex, mode: MatchMode, lists: (People | undefined)[]): People | undefined {
  const known = lists.filter((l) => l !== undefined);
  if (mode === "all") return intersect(known);
  return known.length === lists.length ? union(index.size, known) : undefined;
}

// ---- parsing helpers ----

const mode = (v: unknown): MatchMode => (v === "all" ? "all" : "any");

/** A term list from a single-term alias and a list parameter (their limits were checked with the request). */
function terms(name: string, single: string | undefined, list: string | undefined): string[] {
  const given = [single, list].filter((s): s is string => s !== undefined);
  return given.length === 0 ? [] : parseTermList(name, given.join(";"));
}

const lower = (values: string[]) => values.map((v) => v.toLowerCase());
const places = (name: string, value: string | undefined) =>
  value === undefined ? null : compilePlaces(parsePlaces(name, value));

/** The people at the places the matcher accepts. */
const placePeople = (index: SearchIndex, matches: PlaceMatcher) =>
  union(
    index.size,
    index.locations.filter((g) => matches(g.location)).map((g) => g.people),
  );

/** A flag filter: true or false must equal the person's flag (the flag's list, or the people not in it). */
function flag(
  key: "open_to_work" | "between_roles" | "exploring" | "codehost_hireable",
  field: "openToWork" | "betweenRoles" | "exploring" | "codehostHireable",
  of: (rec: PersonRecord) => boolean,
  list: keyof SearchIndex["flags"],
): Filter {
  return {
    parse: (q) => (q[key] === undefined ? {} : { [field]: q[key] }),
    test: (rec, f) => f[field] === null || of(rec) === f[field],
    index: (index, f) =>
      f[field] === null ? undefined : f[field] ? index.flags[list] : complement(index.size, index.flags[list]),
  };
}

/** A skill term's people (the phrase rule): a skill or employer containing it, or a headline holding its words. */
function skillPeople(index: SearchIndex, term: string): People | undefined {
  const words = wordRuns(term);
  // A term without a word, or one holding the parts' separator, is left to the test.
  if (words.length === 0 || term.includes("\u0001")) return undefined;
  const inHeadline = intersect(words.map((w) => index.headlineWords.get(w) ?? []))!;
  return union(index.size, [anyKey(index, index.skillParts, (part) => containsPhrase(part, term)), inHeadline]);
}

const containing = (index: SearchIndex, postings: Map<string, number[]>, fragment: string) =>
  anyKey(index, postings, (key) => key.includes(fragment));

// ---- the table ----

/**
 * One entry per filter key of the spec, in the order the answer echoes the effective query. The search tests
 * the filters from the last entry up (the flags and places, cheapest, first).
 */
export const FILTERS: { [K in FilterKey]: Filter | ReadBy } = {
  nl: { readBy: "effective query" },
  company: {
    // company_active_during's form (YYYY or YYYY-MM) is the spec's pattern, checked before this runs.
    parse: (q) => ({
      company: q.company?.toLowerCase() ?? null,
      minCompanyMonths: q.min_company_months ?? null,
      companyCurrent: q.company_current === true,
      leftMinMonthsAgo: q.company_left_min_months_ago ?? null,
      activeDuring: q.company_active_during === undefined ? null : periodStart(q.company_active_during),
    }),
    test: (rec, f, todayMonth) => companyMatch(rec, f, todayMonth) !== null,
    index(index, f) {
      const lists: People[] = [];
      if (f.company !== null) lists.push(containing(index, index.companyTexts, f.company));
      // company_current (unless company_left_min_months_ago wins): a current stint, at the company when given.
      if (f.companyCurrent && f.leftMinMonthsAgo === null)
        lists.push(f.company === null ? index.flags.employed : containing(index, index.currentCompanyTexts, f.company));
      // The month rules on each person's stint extremes (a qualifying stint lies within them).
      const { minCompanyMonths: least, leftMinMonthsAgo: left, activeDuring: during } = f;
      if (least !== null && f.company === null) lists.push(peopleWhere(index, (i) => index.longest[i]! >= least));
      if (left !== null) lists.push(peopleWhere(index, (i) => index.firstEnded[i]! <= index.today - left));
      if (during !== null)
        lists.push(peopleWhere(index, (i) => index.firstStart[i]! <= during && during <= index.lastEnd[i]!));
      return intersect(lists);
    },
  },
  min_company_months: { readBy: "company" },
  company_active_during: { readBy: "company" },
  company_current: { readBy: "company" },
  company_left_min_months_ago: { readBy: "company" },
  role_family: {
    parse(q) {
      const roles = q.roles === undefined ? [] : parseRoleTokens(q.roles);
      return {
        roles,
        roleFamily: roles.length > 0 ? null : (q.role_family?.toLowerCase() ?? null),
        minRoleMonths: q.min_role_months ?? null,
      };
    },
    test: (rec, f) => roleMatch(rec, f) !== null,
    // Career-wide months: at least the months a company-scoped rule counts, so the lists stay supersets.
    index(index, f) {
      const lists: People[] = [];
      if (f.roleFamily !== null) lists.push(inFamily(index, f.roleFamily, f.minRoleMonths));
      for (const r of f.roles) {
        if (r.kind === "title") lists.push(anyKey(index, index.titles, titleMatcher(r)));
        else lists.push(inFamily(index, r.family, r.months ?? f.minRoleMonths));
        if (r.kind === "family" && r.company !== null) lists.push(containing(index, index.companyTexts, r.company));
      }
      return intersect(lists);
    },
  },
  min_role_months: { readBy: "role_family" },
  roles: { readBy: "role_family" },
  q_in: { readBy: "keywords" },
  keywords: {
    parse: (q) => ({
      keywords: q.keywords === undefined ? [] : tokenize(q.keywords),
      qIn: q.q_in === "name" || q.q_in === "headline" ? q.q_in : "people",
    }),
    test: (rec, f) => keywordScore(rec, f) !== null,
    // A keyword's people have a name or headline word starting with its leading run (none: no lookup).
    index(index, f) {
      if ((f.rules ?? SEARCH_RULES).keywords !== "name-headline") return undefined;
      const lists: People[] = [];
      for (const word of f.keywords) {
        const run = leadingRun(word);
        if (run === "") continue;
        const starts = (w: string) => w.startsWith(run);
        const where = [
          ...(f.qIn === "headline" ? [] : [anyKey(index, index.nameWords, starts)]),
          ...(f.qIn === "name" ? [] : [anyKey(index, index.headlineWords, starts)]),
        ];
        lists.push(union(index.size, where));
      }
      return intersect(lists);
    },
  },
  school: {
    parse: (q) => (q.school === undefined ? {} : { school: q.school.toLowerCase() }),
    test: (rec, f) => f.school === null || rec.schoolsLc.some((s) => s.includes(f.school!)),
    index: (index, f) => (f.school === null ? undefined : containing(index, index.schools, f.school)),
  },
  skill: { readBy: "skills" },
  skills: {
    parse(q) {
      const list = terms("skills", q.skill, q.skills);
      return list.length === 0 ? {} : { skills: { terms: lower(list), mode: mode(q.skill_match) } };
    },
    // `phrase`: a term is a phrase of the skills, employers or headline; `exact`: a term equals one skill.
    test(rec, f) {
      if (f.skills === null) return true;
      const exact = (f.rules ?? SEARCH_RULES).skills === "exact";
      const has = (t: string) => (exact ? rec.skillsLc.includes(t) : containsPhrase(rec.skillText, t));
      return matchesMode(f.skills.mode, f.skills.terms, has);
    },
    index: (index, f) =>
      f.skills === null || (f.rules ?? SEARCH_RULES).skills !== "phrase"
        ? undefined
        : byMode(
            index,
            f.skills.mode,
            f.skills.terms.map((t) => skillPeople(index, t)),
          ),
  },
  skill_match: { readBy: "skills" },
  language: { readBy: "languages" },
  languages: {
    parse(q) {
      const list = terms("languages", q.language, q.languages);
      return list.length === 0 ? {} : { languages: { terms: lower(list), mode: mode(q.language_match) } };
    },
    test: (rec, f) =>
      f.languages === null || matchesMode(f.languages.mode, f.languages.terms, (t) => rec.languagesLc.includes(t)),
    index: (index, f) =>
      f.languages === null
        ? undefined
        : byMode(
            index,
            f.languages.mode,
            f.languages.terms.map((t) => index.languages.get(t) ?? []),
          ),
  },
  language_match: { readBy: "languages" },
  exclude_languages: {
    parse: (q) => ({ excludeLanguages: lower(terms("exclude_languages", q.exclude_languages, undefined)) }),
    test: (rec, f) => !f.excludeLanguages.some((t) => rec.languagesLc.includes(t)),
    index: (index, f) =>
      f.excludeLanguages.length === 0
        ? undefined
        : complement(
            index.size,
            union(
              index.size,
              f.excludeLanguages.map((t) => index.languages.get(t) ?? []),
            ),
          ),
  },
  certification: { readBy: "certifications" },
  certifications: {
    parse(q) {
      const given = [
        ...(q.certification ? [q.certification.trim()] : []),
        ...(q.certifications ? parseCertificationList(q.certifications) : []),
      ];
      // The count with the alias (x-term-list's `alias`) was checked with the request.
      const distinct = [...new Map(given.filter(Boolean).map((t) => [t.toLowerCase(), t])).values()];
      return distinct.length === 0
        ? {}
        : { certifications: { terms: lower(distinct), mode: mode(q.certification_match) } };
    },
    test: (rec, f) =>
      f.certifications === null ||
      matchesMode(f.certifications.mode, f.certifications.terms, (t) =>
        rec.certificationsLc.some((c) => c.name.includes(t) || (c.authority?.includes(t) ?? false)),
      ),
    index: (index, f) =>
      f.certifications === null
        ? undefined
        : byMode(
            index,
            f.certifications.mode,
            f.certifications.terms.map((t) =>
              union(index.size, [
                containing(index, index.certificationNames, t),
                containing(index, index.certificationAuthorities, t),
              ]),
            ),
          ),
  },
  certification_match: { readBy: "certifications" },
  location: {
    parse: (q) => ({ locations: places("location", q.location) }),
    test: (rec, f) => f.locations === null || f.locations(rec.locationLc),
    index: (index, f) => (f.locations === null ? undefined : placePeople(index, f.locations)),
  },
  exclude_locations: {
    parse: (q) => ({ excludeLocations: places("exclude_locations", q.exclude_locations) }),
    test: (rec, f) => f.excludeLocations === null || !f.excludeLocations(rec.locationLc),
    index: (index, f) =>
      f.excludeLocations === null ? undefined : complement(index.size, placePeople(index, f.excludeLocations)),
  },
  open_to_work: flag("open_to_work", "openToWork", (rec) => rec.openToWork, "openToWork"),
  between_roles: flag("between_roles", "betweenRoles", (rec) => rec.betweenRoles, "betweenRoles"),
  exploring: flag("exploring", "exploring", (rec) => rec.exploring, "exploring"),
  codehost_hireable: flag("codehost_hireable", "codehostHireable", (rec) => rec.hireable, "hireable"),
};

/** The filter keys, in echo order (the effective query, the saved-query allowlist). */
export const QUERY_KEYS = Object.keys(FILTERS) as FilterKey[];

/** The filters, cheapest first (the order the search tests them in). */
export const TESTS: readonly Filter[] = Object.values(FILTERS).filter(isFilter).reverse();
