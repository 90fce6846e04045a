/**
 * Indexes of the people search, built once with the graph. `candidatesOf(index, filters)` narrows a search
 * to the people who can match: every filter with an index contributes a set (looked up per distinct value:
 * company text, title, school, certification, location, language, word) and the sets are intersected. The
 * sets are supersets of the true matches (never smaller), so the exact per-person predicate still decides:
 * narrowing changes the work, never an answer.
 *
 * Word indexes use the matchers' own word test (text.ts `wordRuns`): a phrase match at word boundaries
 * contains only whole words of the text, and a word-prefix match starts a whole word of the text.
 */
import type { PersonRecord } from "../data/graph.js";
import type { LowerLocation } from "./locations.js";
import { emptySet, fullSet, intersectInto, Postings, setOf, subtractInto, unionInto, type PeopleSet } from "./postings.js";
import type { SearchFilters } from "./search.js";
import { leadingRun, wordRuns } from "./text.js";

export interface SearchIndex {
  size: number;
  unflagged: PeopleSet;
  openToWork: PeopleSet;
  betweenRoles: PeopleSet;
  exploring: PeopleSet;
  hireable: PeopleSet;
  /** Lower-case role family of any stint. */
  families: Postings;
  /** Stint company text (lower-case name and URL). */
  companyTexts: Postings;
  /** Lower-case stint title ("" without a title). */
  titles: Postings;
  schools: Postings;
  certificationNames: Postings;
  certificationAuthorities: Postings;
  languages: Postings;
  /** Whole words of the skill text (skills, employers, headline). */
  skillWords: Postings;
  nameWords: Postings;
  headlineWords: Postings;
  /** Distinct lower-case locations (key -> the location; the people are under the same key in `locationPeople`). */
  locations: Map<string, LowerLocation>;
  locationPeople: Postings;
}

const locationKey = (l: LowerLocation) => `${l.city ?? "\u0000"}\u0001${l.region ?? "\u0000"}\u0001${l.country ?? "\u0000"}`;

export function buildSearchIndex(people: readonly PersonRecord[]): SearchIndex {
  const size = people.length;
  const postings = () => new Postings(size);
  const flags = { unflagged: [] as number[], openToWork: [] as number[], betweenRoles: [] as number[], exploring: [] as number[], hireable: [] as number[] };
  const index: Omit<SearchIndex, keyof typeof flags> = {
    size,
    families: postings(),
    companyTexts: postings(),
    titles: postings(),
    schools: postings(),
    certificationNames: postings(),
    certificationAuthorities: postings(),
    languages: postings(),
    skillWords: postings(),
    nameWords: postings(),
    headlineWords: postings(),
    locations: new Map(),
    locationPeople: postings(),
  };
  for (const rec of people) {
    const { idx, person: p } = rec;
    if (!rec.flagged) flags.unflagged.push(idx);
    if (p.is_open_to_work === true) flags.openToWork.push(idx);
    if (p.is_between_roles) flags.betweenRoles.push(idx);
    if (p.is_exploring) flags.exploring.push(idx);
    if (p.codehost?.hireable === true) flags.hireable.push(idx);
    for (const s of rec.stints) {
      if (s.familyLc !== null) index.families.add(s.familyLc, idx);
      index.companyTexts.add(s.companyText, idx);
      index.titles.add(s.titleLc, idx);
    }
    for (const school of rec.schoolsLc) index.schools.add(school, idx);
    for (const c of rec.certificationsLc) {
      index.certificationNames.add(c.name, idx);
      if (c.authority !== null) index.certificationAuthorities.add(c.authority, idx);
    }
    for (const l of rec.languagesLc) index.languages.add(l, idx);
    for (const w of wordRuns(rec.skillText)) index.skillWords.add(w, idx);
    for (const w of wordRuns(rec.nameLc)) index.nameWords.add(w, idx);
    for (const w of wordRuns(rec.headlineLc)) index.headlineWords.add(w, idx);
    const key = locationKey(rec.locationLc);
    if (!index.locations.has(key)) index.locations.set(key, rec.locationLc);
    index.locationPeople.add(key, idx);
  }
  return {
    ...index,
    unflagged: setOf(size, flags.unflagged),
    openToWork: setOf(size, flags.openToWork),
    betweenRoles: setOf(size, flags.betweenRoles),
    exploring: setOf(size, flags.exploring),
    hireable: setOf(size, flags.hireable),
  };
}

/** Combines per-term sets: any -> union, all -> intersection. */
function combine(size: number, mode: "any" | "all", sets: PeopleSet[]): PeopleSet {
  if (mode === "all") return sets.reduce((a, b) => intersectInto(a, b));
  return sets.reduce((a, b) => unionInto(a, b), emptySet(size));
}

/** People with a skill text containing every word of the term (null: the term has no word to look up). */
function skillTermSet(index: SearchIndex, term: string): PeopleSet | null {
  const words = wordRuns(term);
  if (words.length === 0) return null;
  return words.map((w) => index.skillWords.get(w)).reduce((a, b) => intersectInto(a, b));
}

/** People with a name or headline word starting with the keyword's leading run (null: no run). */
function keywordSet(index: SearchIndex, word: string, qIn: SearchFilters["qIn"]): PeopleSet | null {
  const run = leadingRun(word);
  if (run === "") return null;
  const set = emptySet(index.size);
  if (qIn !== "headline") unionInto(set, index.nameWords.withPrefix(run));
  if (qIn !== "name") unionInto(set, index.headlineWords.withPrefix(run));
  return set;
}

function certificationTermSet(index: SearchIndex, term: string): PeopleSet {
  return unionInto(index.certificationNames.where((n) => n.includes(term)), index.certificationAuthorities.where((a) => a.includes(term)));
}

function locationSet(index: SearchIndex, matches: (l: LowerLocation) => boolean): PeopleSet {
  return index.locationPeople.where((key) => matches(index.locations.get(key)!));
}

/**
 * The people who can match the filters, in a set (a superset of the matches), or null when no filter
 * narrows the search (every person is a candidate).
 */
export function candidatesOf(index: SearchIndex, f: SearchFilters): PeopleSet | null {
  let set: PeopleSet | null = null;
  const narrow = (s: PeopleSet | null) => {
    if (s !== null) set = set === null ? s : intersectInto(set, s);
  };
  const drop = (s: PeopleSet) => {
    set = subtractInto(set ?? fullSet(index.size), s);
  };
  /** A boolean filter: true keeps the flagged people, false drops them. */
  const flag = (s: PeopleSet, wanted: boolean | null) => (wanted === null ? undefined : wanted ? narrow(s.slice()) : drop(s));
  if (!f.includeFlagged) narrow(index.unflagged.slice());
  flag(index.openToWork, f.openToWork);
  flag(index.betweenRoles, f.betweenRoles);
  flag(index.exploring, f.exploring);
  flag(index.hireable, f.codehostHireable);
  if (f.company !== null) narrow(index.companyTexts.where((t) => t.includes(f.company!)));
  if (f.roleFamily !== null) narrow(index.families.get(f.roleFamily));
  for (const r of f.roles) {
    if (r.kind === "family") {
      narrow(index.families.get(r.family));
      if (r.company !== null) narrow(index.companyTexts.where((t) => t.includes(r.company!)));
    } else {
      narrow(index.titles.where((title) => r.titles.some((t) => (r.mode === "exact" ? title === t : title.includes(t)))));
    }
  }
  if (f.locations) narrow(locationSet(index, f.locations));
  if (f.excludeLocations) drop(locationSet(index, f.excludeLocations));
  if (f.languages) narrow(combine(index.size, f.languages.mode, f.languages.terms.map((t) => index.languages.get(t))));
  if (f.excludeLanguages.length > 0) drop(combine(index.size, "any", f.excludeLanguages.map((t) => index.languages.get(t))));
  if (f.school !== null) narrow(index.schools.where((s) => s.includes(f.school!)));
  if (f.certifications) narrow(combine(index.size, f.certifications.mode, f.certifications.terms.map((t) => certificationTermSet(index, t))));
  if (f.skills) {
    const sets = f.skills.terms.map((t) => skillTermSet(index, t));
    if (f.skills.mode === "all") sets.forEach(narrow);
    else if (sets.every((s) => s !== null)) narrow(combine(index.size, "any", sets as PeopleSet[]));
  }
  for (const word of f.keywords) narrow(keywordSet(index, word, f.qIn));
  return set;
}
