/**
 * Indexes of the people search, built with the graph: the people per distinct value (company text, title,
 * school, certification, location, language, word) and per flag, as ascending lists, the long ones also as bits.
 * `planSearch(index, filters)` narrows a search to the people who can match: each filter with an index gives a
 * set, and the candidates are the people in every set (and-ed word by word, read in order) who pass the month
 * rules on the stint columns. Where every set is exact the plan is decided: the candidates are the hits and the
 * exact per-person predicate only builds the page's rows; elsewhere the sets are supersets of the true matches
 * and the predicate decides on each. Narrowing changes the work, never an answer.
 *
 * Word indexes use the matchers' own word test (text.ts `wordRuns`): a phrase match at word boundaries
 * contains only whole words of the text, and a word-prefix match starts a whole word of the text.
 */
import type { Graph, PersonRecord } from "../data/graph.js";
import type { LowerLocation } from "./locations.js";
import { common, count, has, peopleOf, post, union, where, type Bits, type People, type Postings } from "./postings.js";
import { titleMatcher } from "./roles.js";
import type { SearchFilters } from "./search-query.js";
import { containsPhrase, leadingRun, wordRuns } from "../data/text.js";

/** Boolean properties of a person, as lists. */
const FLAGS = {
  flagged: (rec: PersonRecord) => rec.flagged,
  openToWork: (rec: PersonRecord) => rec.openToWork,
  betweenRoles: (rec: PersonRecord) => rec.betweenRoles,
  exploring: (rec: PersonRecord) => rec.exploring,
  hireable: (rec: PersonRecord) => rec.hireable,
  /** A current stint. */
  employed: (rec: PersonRecord) => rec.stints.some((s) => s.current),
};

interface SearchIndex extends Record<keyof typeof FLAGS, People> {
  size: number;
  /** The graph's today (month index), which the company rules count from. */
  today: number;
  /** Every person. */
  everyone: People;
  /** Lower-case role family of any stint; `currentFamilies`: of current stints only. */
  families: Postings;
  /** Beside each person of a family's list: the months of their stints in it. */
  familyMonths: Map<string, number[]>;
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
  /** The parts of the skill text but the headline: lower-case skills and employers. */
  skillParts: Postings;
  nameWords: Postings;
  headlineWords: Postings;
  /** Lower-case headline of each person; the months of their longest stint. */
  headlines: string[];
  longest: number[];
  /** Lower-case skill -> the people listing it, once per listing (built on first use; similar people). */
  skillHolders: () => Map<string, number[]>;
  stints: StintColumns;
  /** The bits of every list longer than one person in 32 (then no larger than the list): or-ed word by word. */
  bits: Map<People, Bits>;
}

/**
 * Every stint's figures as columns (person `idx` has stints [from[idx], from[idx + 1])), so that the month rules
 * read arrays, not records: start (-Infinity: unknown), end (Infinity: current or open), months, current, lower-case
 * role family, company text, lower-case title.
 */
interface StintColumns {
  from: number[];
  start: number[];
  end: number[];
  months: number[];
  current: boolean[];
  family: (string | null)[];
  text: string[];
  title: string[];
}

const indexes = new WeakMap<Graph, SearchIndex>();

/** The people search's indexes of a graph, built on first use and kept with it (the core builds them at start). */
export function searchIndexOf(graph: Graph): SearchIndex {
  let index = indexes.get(graph);
  if (!index) indexes.set(graph, (index = buildSearchIndex(graph.people, graph.todayMonth)));
  return index;
}

function buildSearchIndex(people: readonly PersonRecord[], today: number): SearchIndex {
  const index = {
    families: new Map(),
    currentFamilies: new Map(),
    companyTexts: new Map(),
    currentCompanyTexts: new Map(),
    titles: new Map(),
    schools: new Map(),
    certificationNames: new Map(),
    certificationAuthorities: new Map(),
    languages: new Map(),
    skillParts: new Map(),
    nameWords: new Map(),
    headlineWords: new Map(),
  } satisfies Partial<Record<keyof SearchIndex, Postings>>;
  const flags = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, [] as number[]])) as Record<
    keyof typeof FLAGS,
    number[]
  >;
  const locations = new Map<string, { location: LowerLocation; people: number[] }>();
  const familyMonths = new Map<string, number[]>();
  const stints: StintColumns = {
    from: [],
    start: [],
    end: [],
    months: [],
    current: [],
    family: [],
    text: [],
    title: [],
  };
  for (const rec of people) {
    const idx = rec.idx;
    for (const [flag, test] of Object.entries(FLAGS)) if (test(rec)) flags[flag as keyof typeof FLAGS].push(idx);
    stints.from.push(stints.start.length);
    for (const s of rec.stints) {
      stints.start.push(s.start ?? -Infinity);
      stints.end.push(s.current || s.end === null ? Infinity : s.end);
      stints.months.push(s.months);
      stints.current.push(s.current);
      stints.family.push(s.familyLc);
      stints.text.push(s.companyText);
      stints.title.push(s.titleLc);
      if (s.familyLc !== null && s.current) post(index.currentFamilies, s.familyLc, idx);
      post(index.companyTexts, s.companyText, idx);
      if (s.current) post(index.currentCompanyTexts, s.companyText, idx);
      post(index.titles, s.titleLc, idx);
      post(index.skillParts, (s.companyName ?? "").toLowerCase(), idx);
    }
    const months = new Map<string, number>();
    for (const s of rec.stints)
      if (s.familyLc !== null) months.set(s.familyLc, (months.get(s.familyLc) ?? 0) + s.months);
    for (const [family, sum] of months) {
      post(index.families, family, idx);
      (familyMonths.get(family) ?? familyMonths.set(family, []).get(family)!).push(sum);
    }
    for (const school of rec.schoolsLc) post(index.schools, school, idx);
    for (const c of rec.certificationsLc) {
      post(index.certificationNames, c.name, idx);
      if (c.authority !== null) post(index.certificationAuthorities, c.authority, idx);
    }
    for (const l of rec.languagesLc) post(index.languages, l, idx);
    for (const skill of rec.skillsLc) post(index.skillParts, skill, idx);
    for (const w of wordRuns(rec.headlineLc)) post(index.headlineWords, w, idx);
    for (const w of wordRuns(rec.nameLc)) post(index.nameWords, w, idx);
    const l = rec.locationLc;
    const place = JSON.stringify([l.city, l.region, l.country]);
    const group = locations.get(place) ?? locations.set(place, { location: l, people: [] }).get(place)!;
    group.people.push(idx);
  }
  stints.from.push(stints.start.length);
  const everyone = people.map((rec) => rec.idx);
  const lists = [everyone, ...Object.values(flags), ...[...locations.values()].map((g) => g.people)];
  for (const postings of Object.values(index)) lists.push(...postings.values());
  const bits = new Map<People, Bits>();
  for (const list of lists) if (list.length > people.length / 32) bits.set(list, union(people.length, [list]));
  return {
    ...index,
    ...flags,
    size: people.length,
    today,
    everyone,
    familyMonths,
    bits,
    headlines: people.map((rec) => rec.headlineLc),
    longest: people.map((rec) => Math.max(...rec.stints.map((s) => s.months))),
    locations: [...locations.values()],
    skillHolders: once(() => buildSkillHolders(people)),
    stints,
  };
}

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

/**
 * The search plan: the candidates (a superset of the matches, ascending unless decided) and the residual
 * filters the exact per-person predicate still has to check. Filters whose index list is exact (flags,
 * flagged, places, languages, school, certifications, skill phrases) are decided by the lists alone; the
 * company rules and role months by the stint columns. The company, role and keyword filters stay in the
 * residual (they also produce the match and the score). `decided`: every candidate matches (the residual only
 * computes the match); its candidates come in the search's order (a ranked one: a current title in
 * `rankFamily` first, then keyword score, then graph order), at least the first `pageEnd`, and `total` counts
 * them: exact, or at least `countUpTo` when there are that many.
 */
export interface SearchPlan {
  candidates: People;
  total: number;
  residual: SearchFilters;
  decided: boolean;
}

export function planSearch(index: SearchIndex, f: SearchFilters, pageEnd = Infinity, countUpTo = Infinity): SearchPlan {
  /** The candidates are in every `keep` list and in no `drop` list. */
  const keep: Bits[] = [];
  const drop: Bits[] = [];
  const get = (postings: Postings, key: string): People => postings.get(key) ?? [];
  const any = (sets: (People | Bits)[]) => union(index.size, sets, index.bits);
  const bits = (list: People) => index.bits.get(list) ?? any([list]);
  const containing = (postings: Postings, fragment: string) => any(where(postings, (t) => t.includes(fragment)));
  const byMode = (mode: "any" | "all", sets: Bits[]) => keep.push(...(mode === "all" ? sets : [any(sets)]));
  const flag = (list: People, wanted: boolean | null) => {
    if (wanted !== null) (wanted ? keep : drop).push(bits(list));
  };
  const places = (matches: (l: LowerLocation) => boolean) =>
    any(index.locations.filter((g) => matches(g.location)).map((g) => g.people));

  flag(index.openToWork, f.openToWork);
  flag(index.betweenRoles, f.betweenRoles);
  flag(index.exploring, f.exploring);
  flag(index.hireable, f.codehostHireable);
  if (f.locations) keep.push(places(f.locations));
  if (f.excludeLocations) drop.push(places(f.excludeLocations));
  if (f.languages)
    byMode(
      f.languages.mode,
      f.languages.terms.map((t) => bits(get(index.languages, t))),
    );
  drop.push(...f.excludeLanguages.map((t) => bits(get(index.languages, t))));
  if (f.school !== null) keep.push(containing(index.schools, f.school));
  if (f.certifications)
    byMode(
      f.certifications.mode,
      f.certifications.terms.map((t) =>
        any([containing(index.certificationNames, t), containing(index.certificationAuthorities, t)]),
      ),
    );

  // A skill term's people (the phrase rule, on a skill text's parts: skills, employers, headline): a skill or
  // employer containing it, or a headline containing it among those holding its words (all of them for a
  // one-word term). null (left to the predicate): a term without a word, or one holding the parts' separator.
  const skillPeople = (term: string): Bits | null => {
    const words = wordRuns(term);
    if (words.length === 0 || term.includes("\u0001")) return null;
    const heads = words.map((w) => bits(get(index.headlineWords, w)));
    const inHeadline = common(bits(index.everyone), heads, []);
    const oneWord = words.length === 1 && words[0] === term;
    return any([
      ...where(index.skillParts, (part) => containsPhrase(part, term)),
      oneWord ? inHeadline : peopleOf(inHeadline, Infinity, (idx) => containsPhrase(index.headlines[idx]!, term)),
    ]);
  };
  let skills = f.skills;
  if (skills) {
    const lists = skills.terms.map(skillPeople);
    const open = skills.terms.filter((_, i) => lists[i] === null);
    if (skills.mode === "all" || open.length === 0)
      byMode(
        skills.mode,
        lists.filter((l) => l !== null),
      );
    skills = open.length === 0 ? null : skills.mode === "all" ? { terms: open, mode: "all" } : skills;
  }

  if (f.company !== null) keep.push(containing(index.companyTexts, f.company));
  // company_current (unless company_left_min_months_ago wins): a current stint, at the company when given.
  if (f.companyCurrent && f.leftMinMonthsAgo === null)
    keep.push(f.company === null ? bits(index.employed) : containing(index.currentCompanyTexts, f.company));
  // A role family's people, with at least `months` months in it when given (exact, unless scoped to a company).
  const inFamily = (family: string, months: number | null) => {
    const list = get(index.families, family);
    const sums = index.familyMonths.get(family) ?? [];
    return months === null ? bits(list) : any([list.filter((_, k) => sums[k]! >= months)]);
  };
  if (f.roleFamily !== null) keep.push(inFamily(f.roleFamily, f.company === null ? f.minRoleMonths : null));
  for (const r of f.roles) {
    if (r.kind === "title") keep.push(any(where(index.titles, titleMatcher(r))));
    else keep.push(inFamily(r.family, r.company === null ? (r.months ?? f.minRoleMonths) : null));
    if (r.kind === "family" && r.company !== null) keep.push(containing(index.companyTexts, r.company));
  }
  // A keyword's people have a name or headline word starting with its leading run (none: nothing to look up).
  // When every keyword is one run, these are exactly its people, and the lists give the score (name 2, headline 1).
  const oneRuns = f.keywords.length > 0 && f.keywords.every((word) => leadingRun(word) === word);
  const scores = oneRuns ? new Float64Array(index.size) : null;
  for (const word of f.keywords) {
    const run = leadingRun(word);
    if (run === "") continue;
    const starts = (w: string) => w.startsWith(run);
    const name = any(f.qIn === "headline" ? [] : where(index.nameWords, starts));
    const headline = any(f.qIn === "name" ? [] : where(index.headlineWords, starts));
    keep.push(any([name, headline]));
    if (scores) for (const idx of peopleOf(name)) scores[idx]! += 2;
    if (scores) for (const idx of peopleOf(headline)) scores[idx]! += 1;
  }

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
  if (!f.includeFlagged) drop.push(bits(index.flagged));
  const decided = skills === null && (f.keywords.length === 0 || scores !== null);
  // Role lists are exact unless a title counts months or a role is scoped to a company: those take the stint scan.
  const months =
    f.roles.some((r) => (r.kind === "title" ? (r.months ?? f.minRoleMonths) !== null : r.company !== null)) ||
    (f.roleFamily !== null && f.company !== null);
  const scan = months || f.minCompanyMonths !== null || f.leftMinMonthsAgo !== null || f.activeDuring !== null;
  const test = scan ? monthRules(index, f) : () => true;
  // The people in every keep set and in no drop set, read in order: all of them unless decided; a decided plan's
  // candidates are its hits, read until they hold the page (and the count when the month rules decide each).
  const set = common(bits(index.everyone), keep, drop);
  const candidates = peopleOf(set, !decided ? Infinity : scan ? Math.max(pageEnd, countUpTo) : pageEnd, test);
  const total = scan ? candidates.length : count(set);
  if (!decided || (f.rankFamily === undefined && scores === null)) return { candidates, total, residual, decided };
  // Ranked as the predicate's hits are: a current title in `rankFamily` first, then score, then graph order.
  const byScore = (list: People) =>
    scores === null ? list : [...list].sort((a, b) => scores[b]! - scores[a]! || a - b);
  // People whose current position is in `rankFamily`, then the others.
  const holding = bits(get(index.currentFamilies, f.rankFamily ?? ""));
  const ranks = [true, false].map((wanted) => byScore(candidates.filter((idx) => has(holding, idx) === wanted)));
  return { candidates: ranks.flat(), total, residual, decided };
}

/** `matchPerson`'s company rules and role months (companyMatch, roleMatch) on the stint columns. */
function monthRules(index: SearchIndex, f: SearchFilters): (idx: number) => boolean {
  const { from, start, end, months, current, family, text, title } = index.stints;
  const { minCompanyMonths, leftMinMonthsAgo: left, activeDuring: during } = f;
  // The company texts containing a fragment (null: any company).
  const at = (fragment: string | null) =>
    fragment === null ? null : new Set([...index.companyTexts.keys()].filter((t) => t.includes(fragment)));
  const company = at(f.company);
  const companyRules =
    company !== null || minCompanyMonths !== null || f.companyCurrent || left !== null || during !== null;
  const lastEnd = left === null ? Infinity : index.today - left;
  const wantsCurrent = left === null && f.companyCurrent;
  // Each role: the stints it counts (at least one) and the months they must sum to.
  const inFamily = (name: string, there: Set<string> | null) => (i: number) =>
    family[i] === name && (there === null || there.has(text[i]!));
  const inTitle = (matches: (title: string) => boolean) => (i: number) => matches(title[i]!);
  const roles = f.roles.map((r) => ({
    counts: r.kind === "title" ? inTitle(titleMatcher(r)) : inFamily(r.family, at(r.company)),
    required: r.months ?? f.minRoleMonths,
  }));
  if (f.roleFamily !== null) roles.push({ counts: inFamily(f.roleFamily, company), required: f.minRoleMonths });
  return (idx) => {
    if (company === null && minCompanyMonths !== null && index.longest[idx]! < minCompanyMonths) return false;
    for (const r of roles) {
      let counted = false;
      let sum = 0;
      for (let i = from[idx]!; i < from[idx + 1]!; i++) {
        if (!r.counts(i)) continue;
        counted = true;
        sum += months[i]!;
      }
      if (!counted || (r.required !== null && sum < r.required)) return false;
    }
    if (!companyRules) return true;
    let currentThere = false;
    let qualifies = false;
    let companyMonths = 0;
    for (let i = from[idx]!; i < from[idx + 1]!; i++) {
      if (company !== null && !company.has(text[i]!)) continue;
      currentThere ||= current[i]!;
      companyMonths += months[i]!;
      qualifies ||=
        end[i]! <= lastEnd &&
        (!wantsCurrent || current[i]!) &&
        (during === null || (start[i]! <= during && during <= end[i]!)) &&
        (company !== null || minCompanyMonths === null || months[i]! >= minCompanyMonths);
    }
    return (
      qualifies &&
      !(company !== null && left !== null && currentThere) &&
      (company === null || minCompanyMonths === null || companyMonths >= minCompanyMonths)
    );
  };
}
