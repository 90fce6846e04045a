/**
 * Indexes of the people search, built with the graph: the people per distinct value (company text, title,
 * school, certification, location, language, skill part, name and headline word, role family) and per flag,
 * as ascending lists. A search filter's `index` lookup (filters.ts) reads them to name the people who can pass
 * it (a superset); the search then runs the per-person test on those people only. Narrowing changes the work,
 * never an answer.
 *
 * Word indexes use the matchers' own word test (text.ts `wordRuns`): a phrase match at word boundaries
 * contains only whole words of the text, and a word-prefix match starts a whole word of the text.
 */
import type { Graph, PersonRecord } from "../data/graph.js";
import type { LowerLocation } from "./locations.js";
import { post, union, where, type People, type Postings } from "./postings.js";
import { wordRuns } from "../data/text.js";

/** Boolean properties of a person, as lists. */
const FLAGS = {
  openToWork: (rec: PersonRecord) => rec.openToWork,
  betweenRoles: (rec: PersonRecord) => rec.betweenRoles,
  exploring: (rec: PersonRecord) => rec.exploring,
  hireable: (rec: PersonRecord) => rec.hireable,
  /** A current stint. */
  employed: (rec: PersonRecord) => rec.stints.some((s) => s.current),
};

export interface SearchIndex {
  size: number;
  /** The graph's today (month index), which the company rules count from. */
  today: number;
  /**
   * Per person, over their stints: the longest stint's months, the earliest start (-Infinity: unknown), the
   * latest end (Infinity: current or open) and the earliest end of an ended stint (Infinity: none).
   */
  longest: Float64Array;
  firstStart: Float64Array;
  lastEnd: Float64Array;
  firstEnded: Float64Array;
  flags: Record<keyof typeof FLAGS, People>;
  /** Lower-case role family of any stint. */
  families: Postings;
  /** Beside each person of a family's list: the months of their stints in it. */
  familyMonths: Map<string, number[]>;
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
  /** Lower-case skill -> the people listing it, once per listing (built on first use; similar people). */
  skillHolders: () => Map<string, number[]>;
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
  const column = (fill: number) => new Float64Array(people.length).fill(fill);
  const [longest, firstStart, lastEnd, firstEnded] = [column(0), column(Infinity), column(-Infinity), column(Infinity)];
  for (const rec of people) {
    const idx = rec.idx;
    for (const [flag, test] of Object.entries(FLAGS)) if (test(rec)) flags[flag as keyof typeof FLAGS].push(idx);
    const months = new Map<string, number>();
    for (const s of rec.stints) {
      longest[idx] = Math.max(longest[idx]!, s.months);
      firstStart[idx] = Math.min(firstStart[idx]!, s.start ?? -Infinity);
      lastEnd[idx] = Math.max(lastEnd[idx]!, s.current || s.end === null ? Infinity : s.end);
      if (!s.current && s.end !== null) firstEnded[idx] = Math.min(firstEnded[idx]!, s.end);
      if (s.familyLc !== null) months.set(s.familyLc, (months.get(s.familyLc) ?? 0) + s.months);
      post(index.companyTexts, s.companyText, idx);
      if (s.current) post(index.currentCompanyTexts, s.companyText, idx);
      post(index.titles, s.titleLc, idx);
      post(index.skillParts, (s.companyName ?? "").toLowerCase(), idx);
    }
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
  return {
    ...index,
    size: people.length,
    today,
    longest,
    firstStart,
    lastEnd,
    firstEnded,
    flags,
    familyMonths,
    locations: [...locations.values()],
    skillHolders: once(() => buildSkillHolders(people)),
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

/** The people under any key the test accepts. */
export function anyKey(index: SearchIndex, postings: Postings, test: (key: string) => boolean): People {
  return union(index.size, where(postings, test));
}

/** The people of a role family, with at least `months` months in it when given (career-wide). */
export function inFamily(index: SearchIndex, family: string, months: number | null): People {
  const list = index.families.get(family) ?? [];
  const sums = index.familyMonths.get(family) ?? [];
  return months === null ? list : list.filter((_, k) => sums[k]! >= months);
}

/** The people who pass a test on their index, ascending. */
export function peopleWhere(index: SearchIndex, test: (idx: number) => boolean): People {
  const out: number[] = [];
  for (let idx = 0; idx < index.size; idx++) if (test(idx)) out.push(idx);
  return out;
}
