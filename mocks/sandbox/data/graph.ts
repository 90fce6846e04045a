/**
 * The in-memory talent graph: people and companies plus the indexes the read endpoints use.
 * `buildGraph` takes source records (from the generator or a hand-made fixture), derives the fields the
 * reference defines as derived (is_between_roles, between_roles_since, is_exploring, exploring_since,
 * missing tenure_months) and builds the indexes. Nothing here changes after start-up: the graph is shared,
 * read-only, by every organization.
 */
import { monthToString, monthsBetween, periodEnd, periodStart } from "./dates.js";
import { memo } from "./text.js";
import { normalizeProfileUrl } from "./urls.js";
import { faultOn } from "./proof-faults.js";
import type { Company, Person, Position } from "./resources.js";

/** A location with lower-case values (graph records keep one precomputed). */
export interface LowerLocation {
  city: string | null;
  region: string | null;
  country: string | null;
}

/** A collapsed position with its month interval and resolved company (what search and filtering read). */
export interface Stint {
  /** The position's company name, title and role family, as the source gives them. */
  readonly companyName: string | null;
  readonly title: string | null;
  readonly family: string | null;
  readonly company: Company | null;
  /** Lower-cased company name and URL for fragment matching. */
  readonly companyText: string;
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
  /** Lower-case title ("" without a title). */
  readonly titleLc: string;
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
  /** The graph's fixed "today" as a month index: every relative date rule is computed against it. */
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
}

/** What `buildGraph` reads: the people may be a stream (each source person dropped once its record is built). */
export type GraphSource = Omit<GraphInput, "people"> & { people: Iterable<Person> };

type Lower = (text: string) => string;

export function buildGraph(input: GraphSource): Graph {
  const todayMonth = periodStart(input.today);
  if (todayMonth === null) throw new Error(`graph today must be a date, got ${input.today}`);
  const companyByUrl = new Map(
    input.companies.filter((c) => c.network_url).map((c) => [c.network_url!.toLowerCase(), c]),
  );
  const companyByName = new Map(input.companies.map((c) => [c.name.toLowerCase(), c]));
  const graph: Graph = {
    todayMonth,
    companies: input.companies,
    people: [],
    companyByKey: new Map(input.companies.map((c) => [c.key, c])),
    bySlug: new Map(),
    byUrl: new Map(),
    stintsByCompany: new Map(input.companies.map((c) => [c.key, []])),
  };
  // Titles, skills, places and companies repeat across people: each source text is lowered once (looking up the
  // generator's shared strings is cheaper than lowering them again) and the records hold one copy per text.
  const lower = memo((text: string) => text.toLowerCase());
  const lowerOrNull = (text: string | null | undefined) => (text == null ? null : lower(text));
  const resolveCompany = (p: Position): Company | null =>
    (p.company_url ? companyByUrl.get(lower(p.company_url)) : undefined) ??
    (p.company ? companyByName.get(lower(p.company)) : undefined) ??
    null;
  for (const source of input.people) {
    const person = derivePerson(source, todayMonth);
    const positions = collapsePositions(person.positions, todayMonth, lower);
    const stints = positions.map((position) => toStint(position, resolveCompany(position), todayMonth, lower));
    const skillsLc = person.skills.map(lower);
    const headlineLc = lower(person.headline ?? "");
    const certifications = person.certifications.map((c) => ({ name: c.name, authority: c.authority ?? null }));
    const { city, region, country } = person.location;
    const record: PersonRecord = {
      idx: graph.people.length,
      person,
      positions,
      stints,
      country: country ?? null,
      locationLc: { city: lowerOrNull(city), region: lowerOrNull(region), country: lowerOrNull(country) },
      flagged: person.dq_flags.length > 0,
      openToWork: person.is_open_to_work === true,
      betweenRoles: person.is_between_roles,
      exploring: person.is_exploring,
      hireable: person.codehost?.hireable === true,
      nameLc: (person.full_name ?? "").toLowerCase(),
      headlineLc,
      skillsLc,
      languagesLc: person.languages.map(lower),
      skillText: [...skillsLc, ...stints.map((s) => lower(s.companyName ?? "")), headlineLc].join(SKILL_TEXT_SEPARATOR),
      schoolsLc: person.education.flatMap((e) => (typeof e.school === "string" ? [lower(e.school)] : [])),
      certifications,
      certificationsLc: certifications.map((c) => ({ name: lower(c.name), authority: lowerOrNull(c.authority) })),
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
  const positions = source.positions.map((p) => withTenure(p, todayMonth));
  const isBetween = positions.length > 0 && !positions.some((p) => p.is_current === true);
  const lastEnd = Math.max(-1, ...positions.map((p) => periodStart(p.ended_at) ?? -1));
  const i = source.exploring_interpretation;
  // Valid: segments and evidence, and every segment's evidence index points into the evidence.
  const valid =
    i !== null &&
    i.segments.length > 0 &&
    i.evidence.length > 0 &&
    i.segments.every((s) => s.evidence_indices.every((n) => Number.isInteger(n) && n >= 0 && n < i.evidence.length));
  return {
    ...source,
    positions,
    is_between_roles: isBetween,
    between_roles_since: isBetween && lastEnd >= 0 ? monthToString(lastEnd) : null,
    is_exploring: valid,
    exploring_interpretation: valid ? i : null,
    exploring_since:
      valid && !faultOn("exploring-since-null") ? i.evidence.map((e) => e.seen_at.slice(0, 10)).sort()[0]! : null,
  };
}

/** The position with its missing tenure filled: months from start to now (current) or to its end, when known. */
function withTenure(p: Position, todayMonth: number): Position {
  const start = periodStart(p.started_at);
  if (p.tenure_months !== null || start === null) return p;
  const end = p.is_current ? todayMonth : periodStart(p.ended_at);
  return end === null ? p : { ...p, tenure_months: monthsBetween(start, end) };
}

/**
 * Source rows of the same company and title whose intervals overlap are one position: earliest start,
 * latest end (open when any row is current). Result in display order: current first, then newest start.
 */
function collapsePositions(rows: Position[], todayMonth: number, lower: Lower): Position[] {
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

function toStint(position: Position, company: Company | null, todayMonth: number, lower: Lower): Stint {
  const current = position.is_current === true;
  const companyText = lower(`${position.company ?? ""} ${position.company_url ?? ""}`);
  const titleLc = lower(position.title ?? "");
  const start = periodStart(position.started_at);
  const end = current ? null : periodEnd(position.ended_at);
  return {
    companyName: position.company,
    title: position.title,
    family: position.role_family,
    company,
    companyText,
    start,
    end,
    current,
    alum: position.is_current === false || position.ended_at !== null,
    notCurrent: position.is_current === false,
    months: position.tenure_months ?? (start !== null ? monthsBetween(start, end ?? todayMonth) : 0),
    familyLc: position.role_family == null ? null : lower(position.role_family),
    titleLc,
  };
}
