/**
 * The in-memory talent graph: people and companies plus the indexes the read endpoints use.
 * `buildGraph` takes source records (from the generator or a hand-made fixture), derives the fields the
 * reference defines as derived (is_between_roles, between_roles_since, is_exploring, exploring_since,
 * missing tenure_months) and builds the indexes. Nothing here changes after start-up: the graph is shared,
 * read-only, by every organization.
 */
import { monthToString, monthsBetween, periodEnd, periodStart } from "./dates.js";
import { textId } from "./text.js";
import { normalizeProfileUrl } from "./urls.js";
import type { Company, Person, PersonLocation, Position } from "./resources.js";

/** A location with lower-case values (graph records keep one precomputed). */
export interface LowerLocation {
  city: string | null;
  region: string | null;
  country: string | null;
}

function lowerLocation(loc: PersonLocation): LowerLocation {
  return {
    city: loc.city?.toLowerCase() ?? null,
    region: loc.region?.toLowerCase() ?? null,
    country: loc.country?.toLowerCase() ?? null,
  };
}

/** A collapsed position with its month interval and resolved company (what search and filtering read). */
export interface Stint {
  /** The position's company name, title and role family, as the source gives them. */
  readonly companyName: string | null;
  readonly title: string | null;
  readonly family: string | null;
  readonly company: Company | null;
  /** Lower-cased company name and URL for fragment matching, and its `textId` (search memoizes tests by it). */
  readonly companyText: string;
  readonly companyTextId: number;
  readonly start: number | null;
  /** Last month of the ended period; null when open (current, or no end recorded). */
  readonly end: number | null;
  readonly current: boolean;
  /** Explicitly non-current or with a recorded end date (the orbit's "alum" rule). */
  readonly alum: boolean;
  /** The source says the position is not current (`is_current === false`, not merely unknown). */
  readonly notCurrent: boolean;
  readonly months: number;
  readonly familyLc: string | null;
  /** Lower-case title ("" without a title) and its `textId`. */
  readonly titleLc: string;
  readonly titleId: number;
}

/**
 * One person of the graph: the full person (derived fields filled) and what search and filtering read,
 * lower-cased once. The graph's people are these records, in graph order: the one store every reader uses.
 */
export interface PersonRecord {
  readonly idx: number;
  readonly person: Person;
  /** Positions after overlapping duplicate rows are collapsed, in display order (current first, newest first). */
  readonly positions: Position[];
  readonly stints: Stint[];
  readonly continent: string | null;
  /** The person's own country text (as `person.location.country`). */
  readonly country: string | null;
  readonly locationLc: LowerLocation;
  readonly flagged: boolean;
  /** `is_open_to_work === true`, `is_between_roles`, `is_exploring`, `codehost.hireable === true`. */
  readonly openToWork: boolean;
  readonly betweenRoles: boolean;
  readonly exploring: boolean;
  readonly hireable: boolean;
  readonly nameLc: string;
  readonly headlineLc: string;
  readonly skillsLc: string[];
  readonly languagesLc: string[];
  /** Skills, employers and headline, lower-case, separated by a non-word character (skill-term matching). */
  readonly skillText: string;
  /** Lower-case school names of the education entries that have one. */
  readonly schoolsLc: string[];
  /** Name and authority of each certification, as the person has them and lower-cased. */
  readonly certifications: readonly CertificationName[];
  readonly certificationsLc: CertificationName[];
}

export interface CertificationName {
  name: string;
  authority: string | null;
}

/** Joins the parts of a skill text: not a word character, so no phrase or word runs across two parts. */
const SKILL_TEXT_SEPARATOR = "\u0001";

export interface CompanyStint {
  record: PersonRecord;
  stint: Stint;
}

export interface Graph {
  /** The graph's fixed "today" (YYYY-MM-DD): every relative date rule is computed against it. */
  today: string;
  todayMonth: number;
  companies: Company[];
  people: PersonRecord[];
  companyByKey: Map<string, Company>;
  bySlug: Map<string, PersonRecord>;
  /** Records by normalized profile URL (`normalizeProfileUrl`; the last record with a URL wins). */
  byUrl: Map<string, PersonRecord>;
  stintsByCompany: Map<string, CompanyStint[]>;
}

export interface GraphInput {
  today: string;
  companies: Company[];
  people: Person[];
  /** Country (lower-case) to continent name, for continent matching. */
  continentOf: (country: string) => string | null;
}

/** What `buildGraph` reads: the people may be a stream (each source person dropped once its record is built). */
export interface GraphSource extends Omit<GraphInput, "people"> {
  people: Iterable<Person>;
}

/**
 * Values made from two parts (a title and a company, a prefix and a title), kept per pair and looked up by
 * the parts: a repeated pair makes and hashes no new text.
 */
export class PairValues<A, B, V = string> {
  private readonly byA = new Map<A, Map<B, V>>();
  declare private readonly make: (a: A, b: B) => V;

  constructor(make: (a: A, b: B) => V) {
    this.make = make;
  }

  get(a: A, b: B): V {
    let byB = this.byA.get(a);
    if (!byB) this.byA.set(a, (byB = new Map()));
    let known = byB.get(b);
    if (known === undefined) byB.set(b, (known = this.make(a, b)));
    return known;
  }
}

/**
 * One string per distinct text: a graph repeats a few thousand company texts, titles, skills, languages,
 * schools and places across its people, and each lower-casing would otherwise keep its own copy.
 */
export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly lowered = new Map<string, string>();
  private readonly pairs = new PairValues((a: string, b: string) => this.string(`${a} ${b}`.toLowerCase()));

  string(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /** The kept lower-case form of a text (looked up by the text: a repeated text is lower-cased once). */
  lower(text: string): string {
    let known = this.lowered.get(text);
    if (known === undefined) this.lowered.set(text, (known = this.string(text.toLowerCase())));
    return known;
  }

  /** The kept lower-case form of `${a} ${b}`, looked up by its two parts (no text made for a repeated pair). */
  lowerPair(a: string, b: string): string {
    return this.pairs.get(a, b);
  }
}

/**
 * One object per distinct place and one array per distinct list of lower-case texts: languages, schools and
 * places repeat across people (a handful of values each), and a graph holds one copy of each.
 */
class SharedValues {
  private readonly places = new Map<string, LowerLocation>();
  private readonly lists = new Map<string, string[]>();

  place(loc: PersonLocation): LowerLocation {
    const lower = lowerLocation(loc);
    const key = `${lower.city}\u0001${lower.region}\u0001${lower.country}`;
    const known = this.places.get(key);
    if (known) return known;
    this.places.set(key, lower);
    return lower;
  }

  list(items: string[]): string[] {
    const key = items.join("\u0001");
    const known = this.lists.get(key);
    if (known) return known;
    this.lists.set(key, items);
    return items;
  }
}

export function buildGraph(input: GraphSource): Graph {
  const todayMonth = periodStart(input.today);
  if (todayMonth === null) throw new Error(`graph today must be a date, got ${input.today}`);
  const companyByKey = new Map(input.companies.map((c) => [c.key, c]));
  const companyByUrl = new Map(
    input.companies.filter((c) => c.network_url).map((c) => [c.network_url!.toLowerCase(), c]),
  );
  const companyByName = new Map(input.companies.map((c) => [c.name.toLowerCase(), c]));
  const graph: Graph = {
    today: input.today,
    todayMonth,
    companies: input.companies,
    people: [],
    companyByKey,
    bySlug: new Map(),
    byUrl: new Map(),
    stintsByCompany: new Map(input.companies.map((c) => [c.key, []])),
  };
  const intern = new Interner();
  const shared = new SharedValues();
  const lower = (text: string) => intern.lower(text);
  const resolveCompany = (p: Position): Company | null =>
    (p.company_url ? companyByUrl.get(lower(p.company_url)) : undefined) ??
    (p.company ? companyByName.get(lower(p.company)) : undefined) ??
    null;
  for (const source of input.people) {
    const person = derivePerson(source, todayMonth);
    const positions = collapsePositions(person.positions, todayMonth, lower);
    const stints = positions.map((position) => toStint(position, resolveCompany(position), todayMonth, intern));
    const country = person.location.country ?? null;
    const skillsLc = person.skills.map(lower);
    const headlineLc = lower(person.headline ?? "");
    const certifications = person.certifications.map((c) => ({ name: c.name, authority: c.authority ?? null }));
    const record: PersonRecord = {
      idx: graph.people.length,
      person,
      positions,
      stints,
      continent: country ? input.continentOf(lower(country)) : null,
      country,
      locationLc: shared.place(person.location),
      flagged: person.dq_flags.length > 0,
      openToWork: person.is_open_to_work === true,
      betweenRoles: person.is_between_roles,
      exploring: person.is_exploring,
      hireable: person.codehost?.hireable === true,
      nameLc: (person.full_name ?? "").toLowerCase(),
      headlineLc,
      skillsLc,
      languagesLc: shared.list(person.languages.map(lower)),
      skillText: [...skillsLc, ...stints.map((s) => lower(s.companyName ?? "")), headlineLc].join(SKILL_TEXT_SEPARATOR),
      schoolsLc: shared.list(person.education.filter((e) => typeof e.school === "string").map((e) => lower(e.school!))),
      certifications,
      certificationsLc: certifications.map((c) => ({
        name: lower(c.name),
        authority: c.authority === null ? null : lower(c.authority),
      })),
    };
    graph.people.push(record);
    const slug = person.slug?.toLowerCase();
    if (slug) graph.bySlug.set(slug, record);
    const url = normalizeProfileUrl(person.network_url);
    if (url) graph.byUrl.set(url, record);
    for (const stint of stints) {
      if (stint.company) graph.stintsByCompany.get(stint.company.key)!.push({ record, stint });
    }
  }
  return graph;
}

/** Fills the derived fields so they always agree with the source fields. */
function derivePerson(source: Person, todayMonth: number): Person {
  const positions = positionsWithTenure(source, todayMonth);
  const isBetween = isBetweenRoles(positions);
  let lastEnd = -1;
  for (const p of positions) lastEnd = Math.max(lastEnd, periodStart(p.ended_at) ?? -1);
  const interpretation = source.exploring_interpretation;
  const valid = isExploring(source);
  const evidenceDates = valid ? interpretation!.evidence.map((e) => e.seen_at.slice(0, 10)).sort() : [];
  return {
    ...source,
    positions,
    is_between_roles: isBetween,
    between_roles_since: isBetween && lastEnd >= 0 ? monthToString(lastEnd) : null,
    is_exploring: valid,
    exploring_interpretation: valid ? interpretation : null,
    exploring_since: evidenceDates[0] ?? null,
  };
}

/** The source positions with their missing tenure filled (derivePerson's `positions`). */
function positionsWithTenure(source: Person, todayMonth: number): Position[] {
  return source.positions.map((p) => withTenure(p, todayMonth));
}

/** derivePerson's `is_between_roles`: a history and no current position. */
function isBetweenRoles(positions: readonly Position[]): boolean {
  return positions.length > 0 && !positions.some((p) => p.is_current === true);
}

/** derivePerson's `is_exploring`: a valid interpretation. */
function isExploring(source: Person): boolean {
  const interpretation = source.exploring_interpretation;
  return interpretation !== null && isValidInterpretation(interpretation);
}

function isValidInterpretation(i: NonNullable<Person["exploring_interpretation"]>): boolean {
  return (
    i.segments.length > 0 &&
    i.evidence.length > 0 &&
    i.segments.every((s) => s.evidence_indices.every((n) => Number.isInteger(n) && n >= 0 && n < i.evidence.length))
  );
}

/** A position's tenure: its own, else months from start to now (current) or to its end; null when unknown. */
function tenureOf(p: Position, todayMonth: number): number | null {
  if (p.tenure_months !== null) return p.tenure_months;
  const start = periodStart(p.started_at);
  if (start === null) return null;
  const end = p.is_current ? todayMonth : periodStart(p.ended_at);
  return end === null ? null : monthsBetween(start, end);
}

function withTenure(p: Position, todayMonth: number): Position {
  if (p.tenure_months !== null) return p;
  const months = tenureOf(p, todayMonth);
  return months === null ? p : { ...p, tenure_months: months };
}

/**
 * Source rows of the same company and title whose intervals overlap are one position: earliest start,
 * latest end (open when any row is current). Result in display order: current first, then newest start.
 */
export function collapsePositions(
  rows: Position[],
  todayMonth: number,
  /** Lower-cases a company or title (a graph passes its kept forms: no new text per row). */
  lower: (text: string) => string = (text) => text.toLowerCase(),
): Position[] {
  const out: Position[] = [];
  /** Lower-case company and title of each `out` entry (a merge keeps them). */
  const keys: [company: string, title: string][] = [];
  for (const row of rows) {
    const company = lower(row.company ?? "");
    const title = lower(row.title ?? "");
    const same = out.findIndex(
      (p, i) => keys[i]![0] === company && keys[i]![1] === title && overlaps(p, row, todayMonth),
    );
    if (same < 0) {
      out.push(row);
      keys.push([company, title]);
      continue;
    }
    const a = out[same]!;
    const current = a.is_current === true || row.is_current === true;
    const started = earlier(a.started_at, row.started_at);
    const ended = current ? null : later(a.ended_at, row.ended_at);
    out[same] = withTenure(
      { ...a, started_at: started, ended_at: ended, is_current: current, tenure_months: null },
      todayMonth,
    );
  }
  return out.sort(
    (a, b) =>
      Number(b.is_current === true) - Number(a.is_current === true) ||
      (periodStart(b.started_at) ?? -1) - (periodStart(a.started_at) ?? -1),
  );
}

function interval(p: Position, todayMonth: number): [number, number] | null {
  const start = periodStart(p.started_at);
  if (start === null) return null;
  return [start, p.is_current ? todayMonth : (periodEnd(p.ended_at) ?? todayMonth)];
}

function overlaps(a: Position, b: Position, todayMonth: number): boolean {
  const x = interval(a, todayMonth);
  const y = interval(b, todayMonth);
  return x !== null && y !== null && x[0] <= y[1] && y[0] <= x[1];
}

function earlier(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return (periodStart(a) ?? 0) <= (periodStart(b) ?? 0) ? a : b;
}

function later(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return (periodEnd(a) ?? 0) >= (periodEnd(b) ?? 0) ? a : b;
}

function toStint(position: Position, company: Company | null, todayMonth: number, intern: Interner): Stint {
  const current = position.is_current === true;
  const companyText = intern.lowerPair(position.company ?? "", position.company_url ?? "");
  const titleLc = intern.lower(position.title ?? "");
  const start = periodStart(position.started_at);
  const end = current ? null : periodEnd(position.ended_at);
  return {
    companyName: position.company,
    title: position.title,
    family: position.role_family,
    company,
    companyText,
    companyTextId: textId(companyText),
    start,
    end,
    current,
    alum: position.is_current === false || position.ended_at !== null,
    notCurrent: position.is_current === false,
    months: tenureOf(position, todayMonth) ?? (start !== null ? monthsBetween(start, end ?? todayMonth) : 0),
    familyLc: position.role_family == null ? null : intern.lower(position.role_family),
    titleLc,
    titleId: textId(titleLc),
  };
}
