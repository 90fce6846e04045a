/**
 * Indexes of the people search, built with the graph (word indexes included). `planSearch(index,
 * filters)` narrows a search to the people who can match: every filter with an index contributes a set
 * (looked up per distinct value: company text, title, school, certification, location, language, word) and
 * the sets are intersected. The sets are supersets of the true matches (never smaller), so the exact
 * per-person predicate still decides: narrowing changes the work, never an answer.
 *
 * Word indexes use the matchers' own word test (text.ts `wordRuns`): a phrase match at word boundaries
 * contains only whole words of the text, and a word-prefix match starts a whole word of the text.
 */
import type { Graph, PersonRecord } from "../data/graph.js";
import type { LowerLocation } from "./locations.js";
import {
  addPeople,
  emptySet,
  intersectInto,
  Postings,
  SetPool,
  type PostingList,
  MAX_ALL,
  MAX_ANY,
  subtractInto,
  unionInto,
  type Conjunction,
  type PeopleSet,
} from "./postings.js";
import { titleMatcher } from "./roles.js";
import type { SearchFilters } from "./search-query.js";
import { leadingRun, wordRuns } from "../data/text.js";

/** Boolean properties of a person, as sets. */
const FLAGS = {
  unflagged: (rec: PersonRecord) => !rec.flagged,
  openToWork: (rec: PersonRecord) => rec.openToWork,
  betweenRoles: (rec: PersonRecord) => rec.betweenRoles,
  exploring: (rec: PersonRecord) => rec.exploring,
  hireable: (rec: PersonRecord) => rec.hireable,
  /** A current stint. */
  employed: (rec: PersonRecord) => rec.stints.some((s) => s.current),
};

export interface SearchIndex extends Record<keyof typeof FLAGS, PeopleSet> {
  size: number;
  /** Lower-case role family of any stint; `currentFamilies`: of current stints only. */
  families: Postings;
  currentFamilies: Postings;
  /** Stint company text (lower-case name and URL); `currentCompanyTexts`: of current stints only. */
  companyTexts: Postings;
  currentCompanyTexts: Postings;
  /** Lower-case stint title ("" without a title). */
  titles: Postings;
  schools: Postings;
  certificationNames: Postings;
  certificationAuthorities: Postings;
  languages: Postings;
  /** People by distinct lower-case location. */
  locations: { location: LowerLocation; people: number[] }[];
  /** The word indexes (built with the others, so the first keyword or skill search pays nothing extra). */
  words: () => WordIndexes;
  /** Lower-case skill -> the people listing it, once per listing (built on first use; similar people). */
  skillHolders: () => Map<string, number[]>;
}

export interface WordIndexes {
  /** Whole words of the skill text (skills, employers, headline). */
  skill: Postings;
  name: Postings;
  headline: Postings;
}

const indexes = new WeakMap<Graph, SearchIndex>();

/** The people search's indexes of a graph, built on first use and kept with it (the core builds them at start). */
export function searchIndexOf(graph: Graph): SearchIndex {
  let index = indexes.get(graph);
  if (!index) indexes.set(graph, (index = buildSearchIndex(graph.people)));
  return index;
}

export function buildSearchIndex(people: readonly PersonRecord[]): SearchIndex {
  const size = people.length;
  const postings = () => new Postings(size);
  const index = {
    size,
    families: postings(),
    currentFamilies: postings(),
    companyTexts: postings(),
    currentCompanyTexts: postings(),
    titles: postings(),
    schools: postings(),
    certificationNames: postings(),
    certificationAuthorities: postings(),
    languages: postings(),
  };
  const words: WordIndexes = { skill: postings(), name: postings(), headline: postings() };
  // Skills, employers and headlines repeat across people and are shared strings (their hash is known):
  // each distinct one is split and its words' lists looked up once. A skill text is its parts joined by a
  // non-word character, so its runs are the runs of its parts: the lower-case skills, the lower-cased
  // employer of each stint, the headline.
  const skillLists = keptLists(words.skill, (text) => wordRuns(text));
  const employerLists = keptLists(words.skill, (text) => wordRuns(text.toLowerCase()));
  const headlineLists = keptLists(words.headline, (text) => wordRuns(text));
  for (const rec of people) {
    const idx = rec.idx;
    for (const s of rec.stints) {
      if (s.familyLc !== null) index.families.add(s.familyLc, idx);
      if (s.familyLc !== null && s.current) index.currentFamilies.add(s.familyLc, idx);
      const companyText = s.companyText;
      index.companyTexts.add(companyText, idx);
      if (s.current) index.currentCompanyTexts.add(companyText, idx);
      index.titles.add(s.titleLc, idx);
    }
    for (const school of rec.schoolsLc) index.schools.add(school, idx);
    for (const c of rec.certificationsLc) {
      index.certificationNames.add(c.name, idx);
      if (c.authority !== null) index.certificationAuthorities.add(c.authority, idx);
    }
    for (const l of rec.languagesLc) index.languages.add(l, idx);
    for (const skill of rec.skillsLc) for (const list of skillLists(skill)) list.add(idx);
    for (const s of rec.stints) for (const list of employerLists(s.companyName ?? "")) list.add(idx);
    for (const list of skillLists(rec.headlineLc)) list.add(idx);
    for (const list of headlineLists(rec.headlineLc)) list.add(idx);
    // Names are mostly distinct: split directly (a cache would only grow).
    for (const w of wordRuns(rec.nameLc)) words.name.add(w, idx);
  }
  const locations = new Map<string, { location: LowerLocation; people: number[] }>();
  const groupOf = new Map<LowerLocation, { location: LowerLocation; people: number[] }>();
  for (const rec of people) {
    // Graph records share one location object per distinct place: its group is found by identity first.
    const l = rec.locationLc;
    let group = groupOf.get(l);
    if (!group) {
      const key = JSON.stringify([l.city, l.region, l.country]);
      group = locations.get(key);
      if (!group) locations.set(key, (group = { location: l, people: [] }));
      groupOf.set(l, group);
    }
    group.people.push(rec.idx);
  }
  // Set bit by bit: no list of up to every person is made per flag.
  const flagSet = (test: (rec: PersonRecord) => boolean) => {
    const set = emptySet(size);
    for (const rec of people) if (test(rec)) set[rec.idx >>> 5]! |= 1 << (rec.idx & 31);
    return set;
  };
  return {
    ...index,
    unflagged: flagSet(FLAGS.unflagged),
    openToWork: flagSet(FLAGS.openToWork),
    betweenRoles: flagSet(FLAGS.betweenRoles),
    exploring: flagSet(FLAGS.exploring),
    hireable: flagSet(FLAGS.hireable),
    employed: flagSet(FLAGS.employed),
    locations: [...locations.values()],
    words: () => words,
    skillHolders: once(() => buildSkillHolders(people)),
  };
}

/** The lists of a text's words (`split`) in one postings, remembered per distinct text (up to RUNS_KEPT texts). */
function keptLists(postings: Postings, split: (text: string) => string[]): (text: string) => PostingList[] {
  const lists = new Map<string, PostingList[]>();
  return (text) => {
    let found = lists.get(text);
    if (found === undefined) {
      found = split(text).map((w) => postings.listOf(w));
      if (lists.size < RUNS_KEPT) lists.set(text, found);
    }
    return found;
  };
}

/** Most distinct texts whose word lists are kept while the indexes are built. */
const RUNS_KEPT = 200_000;

function buildSkillHolders(people: readonly PersonRecord[]): Map<string, number[]> {
  const holders = new Map<string, number[]>();
  for (const rec of people) {
    for (const skill of rec.skillsLc) {
      const list = holders.get(skill);
      if (list) list.push(rec.idx);
      else holders.set(skill, [rec.idx]);
    }
  }
  return holders;
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** Intersects per-term sets (read, never changed) into a pooled set. */
function intersectAll(pool: SetPool, sets: PeopleSet[]): PeopleSet {
  return sets.slice(1).reduce((a, b) => intersectInto(a, b), pool.copy(sets[0]!));
}

/** The set of a key (read only: it may be the postings' own; a pooled set when sparse or absent). */
function peek(pool: SetPool, postings: Postings, key: string): PeopleSet {
  return postings.peek(key, () => pool.empty()) ?? pool.empty();
}

/**
 * People with a skill text containing every word of the term (null: the term has no word to look up; the
 * set may be the index's own: read only). Exact when the term is a single word (phrase match of a word =
 * a whole word of the text).
 */
function skillTermSet(index: SearchIndex, pool: SetPool, term: string): { set: PeopleSet | null; exact: boolean } {
  const words = wordRuns(term);
  if (words.length === 0) return { set: null, exact: false };
  return {
    set:
      words.length === 1
        ? peek(pool, index.words().skill, words[0]!)
        : intersectAll(
            pool,
            words.map((w) => peek(pool, index.words().skill, w)),
          ),
    exact: words.length === 1 && words[0] === term,
  };
}

/** People with a name or headline word starting with the keyword's leading run (null: no run). */
function keywordSet(index: SearchIndex, pool: SetPool, word: string, qIn: SearchFilters["qIn"]): PeopleSet | null {
  const run = leadingRun(word);
  if (run === "") return null;
  const set = pool.empty();
  if (qIn !== "headline") index.words().name.withPrefix(run, set);
  if (qIn !== "name") index.words().headline.withPrefix(run, set);
  return set;
}

function certificationTermSet(index: SearchIndex, pool: SetPool, term: string): PeopleSet {
  const set = index.certificationNames.where((n) => n.includes(term), pool.empty());
  return index.certificationAuthorities.where((a) => a.includes(term), set);
}

/** Each index's working sets (one plan at a time: a plan is used up before the next one starts). */
const pools = new WeakMap<SearchIndex, SetPool>();

/** Most distinct place sets kept per index (a continent or country filter repeats across requests). */
const PLACE_SETS_KEPT = 256;
const placeSets = new WeakMap<SearchIndex, Map<string, PeopleSet>>();
const matcherSets = new WeakMap<SearchIndex, WeakMap<(l: LowerLocation) => boolean, PeopleSet>>();

/**
 * People whose location the matcher accepts: a shared set (read only), kept per distinct choice of location
 * groups, so a repeated place filter costs one test per group instead of one bit per person.
 */
function locationSet(index: SearchIndex, matches: (l: LowerLocation) => boolean): PeopleSet {
  // A repeated filter brings the same (kept) matcher: its set is found without testing the groups again.
  let byMatcher = matcherSets.get(index);
  if (!byMatcher) matcherSets.set(index, (byMatcher = new WeakMap()));
  let known = byMatcher.get(matches);
  if (!known) byMatcher.set(matches, (known = groupsSet(index, matches)));
  return known;
}

function groupsSet(index: SearchIndex, matches: (l: LowerLocation) => boolean): PeopleSet {
  let key = "";
  for (let g = 0; g < index.locations.length; g++) if (matches(index.locations[g]!.location)) key += `${g},`;
  let kept = placeSets.get(index);
  if (!kept) placeSets.set(index, (kept = new Map()));
  let set = kept.get(key);
  if (!set) {
    set = emptySet(index.size);
    for (const g of key.split(",")) if (g !== "") addPeople(set, index.locations[Number(g)]!.people);
    if (kept.size >= PLACE_SETS_KEPT) kept.clear();
    kept.set(key, set);
  }
  return set;
}

/** The people in any of `sets` (an empty list: nobody), or, when `negate`, the people in none of them. */
interface Factor {
  sets: PeopleSet[];
  negate: boolean;
}

/** The factors of a plan, as its filters add them (methods, not per-plan closures: no function per request). */
class Factors {
  readonly list: Factor[] = [];

  /** Keeps the people in the set (null: the filter has nothing to look up). */
  keep(s: PeopleSet | null): void {
    if (s !== null) this.list.push({ sets: [s], negate: false });
  }

  keepAny(sets: PeopleSet[]): void {
    this.list.push({ sets, negate: false });
  }

  drop(...sets: PeopleSet[]): void {
    this.list.push({ sets, negate: true });
  }

  /** A boolean filter: true keeps the people in the set, false drops them. */
  flag(s: PeopleSet, wanted: boolean | null): void {
    if (wanted !== null) {
      if (wanted) this.keep(s);
      else this.drop(s);
    }
  }

  /** "all": every set; "any": at least one. */
  byMode(mode: "any" | "all", sets: PeopleSet[]): void {
    if (mode === "all") for (const s of sets) this.keep(s);
    else this.keepAny(sets);
  }
}

/**
 * The factors as one conjunction: single sets and the first small union are read in place; any other union
 * or exclusion is built in a pooled set, and ANDed sets past MAX_ALL are merged into one pooled set.
 */
function conjunctionOf(pool: SetPool, factors: Factor[]): Conjunction {
  const all: PeopleSet[] = [];
  let any: PeopleSet[] = [];
  for (const { sets, negate } of factors) {
    if (negate) all.push(sets.reduce((set, s) => subtractInto(set, s), pool.full()));
    else if (sets.length === 1) all.push(sets[0]!);
    else if (any.length === 0 && sets.length > 1 && sets.length <= MAX_ANY) any = sets;
    else all.push(sets.reduce((set, s) => unionInto(set, s), pool.empty()));
  }
  if (all.length === 0) all.push(pool.full());
  if (all.length > MAX_ALL) all.push(intersectAll(pool, all.splice(MAX_ALL - 1)));
  return { all, any };
}

/**
 * The search plan: the candidates (a superset of the matches: the people in every factor; null = everyone)
 * and the residual filters the exact per-person predicate still has to check. Filters whose index set is
 * exact (flags, flagged, places, languages, school, certifications, one-word skills) are decided by the sets
 * alone. The company, role and keyword filters stay in the residual (they also produce the match and the
 * score). `decided`: every candidate matches (the residual only computes the match), so the total is the
 * candidate count.
 */
export interface SearchPlan {
  candidates: Conjunction | null;
  residual: SearchFilters;
  decided: boolean;
}

export function planSearch(index: SearchIndex, f: SearchFilters): SearchPlan {
  // Index-owned sets are only read: the factors name them and the sets this plan builds in the index's pool
  // (no allocation that grows with the graph); counting and paging AND them word by word in one pass.
  let pool = pools.get(index);
  if (!pool) pools.set(index, (pool = new SetPool(index.size)));
  pool.reset();
  const blank = pool.empty.bind(pool);
  const factors = new Factors();
  if (!f.includeFlagged) factors.keep(index.unflagged);
  factors.flag(index.openToWork, f.openToWork);
  factors.flag(index.betweenRoles, f.betweenRoles);
  factors.flag(index.exploring, f.exploring);
  factors.flag(index.hireable, f.codehostHireable);
  if (f.locations) factors.keep(locationSet(index, f.locations));
  if (f.excludeLocations) factors.drop(locationSet(index, f.excludeLocations));
  if (f.languages)
    factors.byMode(
      f.languages.mode,
      f.languages.terms.map((t) => peek(pool, index.languages, t)),
    );
  if (f.excludeLanguages.length > 0) factors.drop(...f.excludeLanguages.map((t) => peek(pool, index.languages, t)));
  if (f.school !== null) factors.keep(index.schools.where((s) => s.includes(f.school!), blank()));
  if (f.certifications)
    factors.byMode(
      f.certifications.mode,
      f.certifications.terms.map((t) => certificationTermSet(index, pool, t)),
    );

  let skills = f.skills;
  if (skills) {
    const terms = skills.terms.map((t) => ({ term: t, ...skillTermSet(index, pool, t) }));
    if (skills.mode === "all") {
      terms.forEach((t) => factors.keep(t.set));
      const open = terms.filter((t) => !t.exact).map((t) => t.term);
      skills = open.length > 0 ? { terms: open, mode: "all" } : null;
    } else if (terms.every((t) => t.set !== null)) {
      factors.keepAny(terms.map((t) => t.set!));
      if (terms.every((t) => t.exact)) skills = null;
    }
  }

  if (f.company !== null) factors.keep(index.companyTexts.where((t) => t.includes(f.company!), blank()));
  // company_current (unless company_left_min_months_ago wins): a current stint, at the company when given.
  const current = f.companyCurrent && f.leftMinMonthsAgo === null;
  if (current) {
    if (f.company === null) factors.keep(index.employed);
    else factors.keep(index.currentCompanyTexts.where((t) => t.includes(f.company!), blank()));
  }
  if (f.roleFamily !== null) factors.keep(peek(pool, index.families, f.roleFamily));
  let rolesExact = f.roleFamily === null || (f.company === null && f.minRoleMonths === null);
  for (const r of f.roles) {
    const months = r.months ?? f.minRoleMonths;
    if (r.kind === "family") {
      factors.keep(peek(pool, index.families, r.family));
      if (r.company !== null) factors.keep(index.companyTexts.where((t) => t.includes(r.company!), blank()));
      rolesExact &&= r.company === null && months === null;
    } else {
      factors.keep(index.titles.where(titleMatcher(r), blank()));
      rolesExact &&= months === null;
    }
  }
  for (const word of f.keywords) factors.keep(keywordSet(index, pool, word, f.qIn));

  const companyExact = f.minCompanyMonths === null && f.leftMinMonthsAgo === null && f.activeDuring === null;
  const residual: SearchFilters = {
    ...f,
    includeFlagged: true,
    openToWork: null,
    betweenRoles: null,
    exploring: null,
    codehostHireable: null,
    locations: null,
    excludeLocations: null,
    languages: null,
    excludeLanguages: [],
    school: null,
    certifications: null,
    skills,
  };
  return {
    candidates: factors.list.length === 0 ? null : conjunctionOf(pool, factors.list),
    residual,
    decided: companyExact && rolesExact && skills === null && f.keywords.length === 0,
  };
}

/**
 * A plan's candidates (null: everyone) split in two: the people whose current position is in `family`, then
 * the others (a ranking by title that pages each part in graph order). Valid until the next plan.
 */
export function splitByCurrentFamily(
  index: SearchIndex,
  candidates: Conjunction | null,
  family: string,
): [Conjunction, Conjunction] {
  const pool = pools.get(index)!;
  const holding = peek(pool, index.currentFamilies, family);
  const others = subtractInto(pool.full(), holding);
  const and = (set: PeopleSet): Conjunction => {
    if (candidates === null) return { all: [set], any: [] };
    const all = [...candidates.all, set];
    if (all.length > MAX_ALL) all.push(intersectAll(pool, all.splice(MAX_ALL - 1)));
    return { all, any: candidates.any };
  };
  return [and(holding), and(others)];
}
