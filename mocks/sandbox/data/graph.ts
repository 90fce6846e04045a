/**
 * The in-memory talent graph: people and companies plus the indexes the read endpoints use.
 * `buildGraph` takes source records (from the generator or a hand-made fixture), derives the fields the
 * reference defines as derived (is_between_roles, between_roles_since, is_exploring, exploring_since,
 * missing tenure_months) and builds the indexes. Nothing here changes after start-up: the graph is shared,
 * read-only, by every organization.
 */
import { monthToString, monthsBetween, periodEnd, periodStart } from "./dates.js";
import { textId, textOf } from "./text.js";
import { normalizeProfileUrl } from "./urls.js";
import type { Company, Person, PersonLocation, Position } from "./resources.js";

/** A location with lower-case values (graph records keep one precomputed). */
export interface LowerLocation {
  city: string | null;
  region: string | null;
  country: string | null;
}

export function lowerLocation(loc: PersonLocation): LowerLocation {
  return {
    city: loc.city?.toLowerCase() ?? null,
    region: loc.region?.toLowerCase() ?? null,
    country: loc.country?.toLowerCase() ?? null,
  };
}

/**
 * A collapsed position with its month interval and resolved company. A class, so every stint has one
 * compact shape (a large graph holds several per person); it also serves as its company's `{ record, stint }`
 * entry, so the company lists hold the stints themselves. It keeps the position's few texts the read paths
 * use, not the position: a record's positions are made again from its person when a view asks for them.
 */
export class Stint implements CompanyStint {
  /** The person (set once the person's record exists); private, so a stint serializes without its person. */
  #record!: PersonRecord;
  /**
   * `current` (bit 0), `alum` (bit 1), `is_current === false` (bit 2) and `months` (the rest) in one small
   * integer: a large graph holds millions of stints.
   */
  readonly #bits: number;
  /** The position's company name, as the source gives it (`position.company`). */
  readonly companyName: string | null;
  /** The position's title, as the source gives it (`position.title`). */
  readonly title: string | null;
  /** The position's role family, as the source gives it (`position.role_family`). */
  readonly family: string | null;
  declare readonly company: Company | null;
  /** The `textId` of the lower-cased company name and URL (`companyText`). */
  declare readonly companyTextId: number;
  declare readonly start: number | null;
  /** Last month of the ended period; null when open (current, or no end recorded). */
  declare readonly end: number | null;
  declare readonly familyLc: string | null;
  /** The `textId` of the lower-case title (`titleLc`). */
  declare readonly titleId: number;

  constructor(
    position: Position,
    company: Company | null,
    companyTextId: number,
    start: number | null,
    end: number | null,
    current: boolean,
    alum: boolean,
    months: number,
    familyLc: string | null,
    titleId: number,
  ) {
    this.company = company;
    this.companyTextId = companyTextId;
    this.start = start;
    this.end = end;
    this.familyLc = familyLc;
    this.titleId = titleId;
    if (!Number.isInteger(months) || Math.abs(months) >= 2 ** 27) throw new RangeError(`stint months ${months}`);
    this.#bits = months * 8 + (position.is_current === false ? 4 : 0) + (alum ? 2 : 0) + (current ? 1 : 0);
    this.companyName = position.company;
    this.title = position.title;
    this.family = position.role_family;
  }

  /** Lower-cased company name and URL for fragment matching. */
  get companyText(): string {
    return textOf(this.companyTextId);
  }

  /** Lower-case title ("" without a title). */
  get titleLc(): string {
    return textOf(this.titleId);
  }

  get current(): boolean {
    return (this.#bits & 1) !== 0;
  }

  /** Explicitly non-current or with a recorded end date (the orbit's "alum" rule). */
  get alum(): boolean {
    return (this.#bits & 2) !== 0;
  }

  /** The source says the position is not current (`is_current === false`, not merely unknown). */
  get notCurrent(): boolean {
    return (this.#bits & 4) !== 0;
  }

  get months(): number {
    return this.#bits >> 3;
  }

  get record(): PersonRecord {
    return this.#record;
  }

  set record(record: PersonRecord) {
    this.#record = record;
  }

  get stint(): Stint {
    return this;
  }
}

export interface PersonRecord {
  idx: number;
  /** The full person (on a generated graph made again on demand: read the fields below where they suffice). */
  person: Person;
  /** Positions after overlapping duplicate rows are collapsed, in display order (current first, newest first). */
  positions: Position[];
  stints: Stint[];
  continent: string | null;
  /** The person's own country text (as `person.location.country`). */
  country: string | null;
  locationLc: LowerLocation;
  flagged: boolean;
  /** `is_open_to_work === true`, `is_between_roles`, `is_exploring`, `codehost.hireable === true`. */
  openToWork: boolean;
  betweenRoles: boolean;
  exploring: boolean;
  hireable: boolean;
  nameLc: string;
  headlineLc: string;
  skillsLc: string[];
  languagesLc: string[];
  /** Skills, employers and headline, lower-case, separated by a non-word character (skill-term matching). */
  skillText: string;
  /** Lower-case school names of the education entries that have one. */
  schoolsLc: string[];
  /** Name and authority of each certification, as the person has them. */
  certifications: readonly CertificationName[];
  certificationsLc: CertificationName[];
}

export interface CertificationName {
  name: string;
  authority: string | null;
}

/**
 * The full people of a graph: kept as given (a hand-made source), or made again from the source's
 * `personAt` when asked, with the most recently made ones kept (a large graph holds no Person objects).
 */
class PersonStore {
  private readonly made = new Map<number, Person>();
  /** Collapsed positions by person, made again from the person when asked (stints keep no positions). */
  private readonly collapsed = new Map<number, Position[]>();
  declare private readonly remake: ((idx: number) => Person) | undefined;
  declare private readonly todayMonth: number;
  /** The graph's kept lower-case form of a text (records make their skill text from kept parts). */
  declare readonly lower: (text: string) => string;

  constructor(remake: ((idx: number) => Person) | undefined, todayMonth: number, lower: (text: string) => string) {
    this.remake = remake;
    this.todayMonth = todayMonth;
    this.lower = lower;
  }

  /** Called once per person in graph order, when the store cannot make it again. */
  add(idx: number, person: Person): void {
    this.made.set(idx, person);
  }

  at(idx: number): Person {
    let person = this.made.get(idx);
    if (person === undefined) {
      if (!this.remake) throw new RangeError(`no person ${idx}`);
      if (this.made.size >= PEOPLE_KEPT) this.made.clear();
      this.made.set(idx, (person = derivePerson(this.remake(idx), this.todayMonth)));
    }
    return person;
  }

  /** The person's positions after collapsing, in display order: the positions its stints were built from. */
  positions(idx: number): Position[] {
    let positions = this.collapsed.get(idx);
    if (positions === undefined) {
      if (this.collapsed.size >= PEOPLE_KEPT) this.collapsed.clear();
      positions = collapsePositions(this.at(idx).positions, this.todayMonth, this.lower);
      this.collapsed.set(idx, positions);
    }
    return positions;
  }
}

/** Most people a store keeps made at once (a default-sized graph keeps every person once asked). */
const PEOPLE_KEPT = 10_000;

/** A graph's record of one person: the fields search and filtering read, and the full person on demand. */
class GraphPersonRecord implements PersonRecord {
  declare private readonly store: PersonStore;
  declare readonly idx: number;
  declare readonly stints: Stint[];
  declare readonly continent: string | null;
  declare readonly country: string | null;
  declare readonly locationLc: LowerLocation;
  /** The boolean fields below as bits (one field instead of five, on every record). */
  declare private readonly flags: number;
  declare readonly nameLc: string;
  declare readonly headlineLc: string;
  /** The profile URL is the graph's own URL of the slug (`byUrl` finds the record through `bySlug`). */
  declare readonly urlFromSlug: boolean;
  declare readonly skillsLc: string[];
  declare readonly languagesLc: string[];
  declare readonly schoolsLc: string[];
  declare readonly certifications: readonly CertificationName[];
  declare readonly certificationsLc: CertificationName[];

  constructor(
    store: PersonStore,
    idx: number,
    stints: Stint[],
    continent: string | null,
    country: string | null,
    locationLc: LowerLocation,
    flags: number,
    nameLc: string,
    headlineLc: string,
    urlFromSlug: boolean,
    skillsLc: string[],
    languagesLc: string[],
    schoolsLc: string[],
    certifications: readonly CertificationName[],
    certificationsLc: CertificationName[],
  ) {
    this.store = store;
    this.idx = idx;
    this.stints = stints;
    this.continent = continent;
    this.country = country;
    this.locationLc = locationLc;
    this.flags = flags;
    this.nameLc = nameLc;
    this.headlineLc = headlineLc;
    this.urlFromSlug = urlFromSlug;
    this.skillsLc = skillsLc;
    this.languagesLc = languagesLc;
    this.schoolsLc = schoolsLc;
    this.certifications = certifications;
    this.certificationsLc = certificationsLc;
  }

  get person(): Person {
    return this.store.at(this.idx);
  }

  /** Made again from the person when read (a large graph would otherwise keep millions of positions). */
  get positions(): Position[] {
    return this.store.positions(this.idx);
  }

  get flagged(): boolean {
    return (this.flags & FLAGGED) !== 0;
  }

  get openToWork(): boolean {
    return (this.flags & OPEN_TO_WORK) !== 0;
  }

  get betweenRoles(): boolean {
    return (this.flags & BETWEEN_ROLES) !== 0;
  }

  get exploring(): boolean {
    return (this.flags & EXPLORING) !== 0;
  }

  get hireable(): boolean {
    return (this.flags & HIREABLE) !== 0;
  }

  /** Made when read (a per-person text would otherwise stay alive for every person of the graph). */
  get skillText(): string {
    const parts = [...this.skillsLc];
    for (const s of this.stints) parts.push(this.store.lower(s.companyName ?? ""));
    parts.push(this.headlineLc);
    return parts.join(SKILL_TEXT_SEPARATOR);
  }
}

const FLAGGED = 1;
const OPEN_TO_WORK = 2;
const BETWEEN_ROLES = 4;
const EXPLORING = 8;
const HIREABLE = 16;

/** Joins the parts of a skill text: not a word character, so no phrase or word runs across two parts. */
const SKILL_TEXT_SEPARATOR = "\u0001";

/** The normalized profile URL of a slug on the graph's own network. */
const SLUG_URL_PREFIX = "network.example.com/in/";

/**
 * Records by normalized profile URL, as a map of every URL would give (the last record with a URL wins).
 * A URL that is the graph's own URL of its record's slug (almost every generated person) is found through
 * the slug map, so a large graph keeps no URL text and no map entry per person; others are kept.
 */
export class ProfileUrls {
  private readonly others = new Map<string, PersonRecord>();
  declare private readonly bySlug: ReadonlyMap<string, PersonRecord>;

  constructor(bySlug: ReadonlyMap<string, PersonRecord>) {
    this.bySlug = bySlug;
  }

  get(url: string): PersonRecord | undefined {
    return this.others.get(url) ?? this.throughSlug(url);
  }

  has(url: string): boolean {
    return this.get(url) !== undefined;
  }

  private throughSlug(url: string): PersonRecord | undefined {
    if (!url.startsWith(SLUG_URL_PREFIX)) return undefined;
    const rec = this.bySlug.get(url.slice(SLUG_URL_PREFIX.length));
    return rec instanceof GraphPersonRecord && rec.urlFromSlug ? rec : undefined;
  }

  /**
   * Before `record` takes `slug` in the slug map: a record that was found through it keeps its URL (the URL
   * text is made only then: slugs rarely change hands).
   */
  bySlugChanging(slug: string, record: PersonRecord): void {
    const found = this.bySlug.get(slug);
    if (!(found instanceof GraphPersonRecord && found.urlFromSlug) || found === record) return;
    const url = `${SLUG_URL_PREFIX}${slug}`;
    if (!this.others.has(url)) this.others.set(url, found);
  }

  /** Records the URL of a record already in the slug map (in graph order). */
  add(url: string, record: PersonRecord): void {
    if (!(record instanceof GraphPersonRecord && record.urlFromSlug)) this.others.set(url, record);
    else if (this.others.size > 0) this.others.delete(url);
  }
}

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
  /** Records by normalized profile URL (`normalizeProfileUrl`). */
  byUrl: ProfileUrls;
  stintsByCompany: Map<string, CompanyStint[]>;
}

export interface GraphInput {
  today: string;
  companies: Company[];
  people: Person[];
  /** Country (lower-case) to continent name, for continent matching. */
  continentOf: (country: string) => string | null;
}

/**
 * What `buildGraph` reads: the people may be a stream, so a generated source person is dropped as soon as
 * its record is built (only the derived person stays alive, never both copies of the whole graph).
 */
export interface GraphSource extends Omit<GraphInput, "people"> {
  people: Iterable<Person>;
  /**
   * The source person `idx` of the stream made again (equal to the one streamed): given, the graph keeps
   * no Person objects and makes a person when one is read.
   */
  personAt?: (idx: number) => Person;
}

/**
 * Values made from two parts (a title and a company, a prefix and a title, a name and an authority), kept
 * per pair and looked up by the parts: the parts are shared strings whose hash is known, so a repeated
 * pair makes and hashes no new text.
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
 * One string per distinct text: a large graph repeats a few thousand company texts, titles,
 * skills, languages, schools and places across its people, and each lower-casing or concatenation would
 * otherwise keep its own copy alive for the life of the process.
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

  /**
   * The kept lower-case form of a text, looked up by the text itself: graph texts are mostly shared strings
   * whose hash is already known, so a repeated text costs no lower-casing and no hashing of a new string.
   */
  lower(text: string): string {
    let known = this.lowered.get(text);
    if (known === undefined) this.lowered.set(text, (known = this.string(text.toLowerCase())));
    return known;
  }

  /** The kept lower-case form of `${a} ${b}`, looked up by its two parts. */
  lowerPair(a: string, b: string): string {
    return this.pairs.get(a, b);
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

  const bySlug = new Map<string, PersonRecord>();
  const graph: Graph = {
    today: input.today,
    todayMonth,
    companies: input.companies,
    people: [],
    companyByKey,
    bySlug,
    byUrl: new ProfileUrls(bySlug),
    stintsByCompany: new Map(input.companies.map((c) => [c.key, []])),
  };

  const intern = new Interner();
  const lower = (text: string) => intern.lower(text);
  // The kept lower-case forms: a position's company and URL are shared strings, so no text is made per row.
  const resolveCompany = (p: Position): Company | null =>
    (p.company_url ? companyByUrl.get(lower(p.company_url)) : undefined) ??
    (p.company ? companyByName.get(lower(p.company)) : undefined) ??
    null;
  // One lower-case location per distinct place and one certification pair per distinct name and authority
  // (absent and null parts are the same place).
  const places = new PairValues<string | null, string | null, Map<string | null, LowerLocation>>(() => new Map());
  const placeOf = (loc: PersonLocation): LowerLocation => {
    const byCountry = places.get(loc.city ?? null, loc.region ?? null);
    let known = byCountry.get(loc.country ?? null);
    if (!known) byCountry.set(loc.country ?? null, (known = lowerLocation(loc)));
    return known;
  };
  const certifications = new PairValues((name: string, authority: string | null) => ({
    name: lower(name),
    authority: authority === null ? null : lower(authority),
  }));
  const originalCertifications = new PairValues((name: string, authority: string | null) => ({ name, authority }));
  const store = new PersonStore(input.personAt, todayMonth, lower);
  const lists = new SharedLists();
  let idx = 0;
  for (const person of input.people) {
    // The derived person is made only when the store keeps it: a record reads the derived fields it needs.
    if (!input.personAt) store.add(idx, derivePerson(person, todayMonth));
    // Collapsed from the source rows as they are: a stint reads each row's tenure through tenureOf, so no
    // tenure-filled copy of every row is made (derivePerson's positions are the display's, made on demand).
    const sourcePositions = person.positions;
    const positions = collapsePositions(sourcePositions, todayMonth, lower);
    const stints = positions.map((position) => toStint(position, resolveCompany(position), todayMonth, intern));
    const country = person.location.country ?? null;
    const slug = person.slug?.toLowerCase();
    const url = normalizeProfileUrl(person.network_url);
    const record = new GraphPersonRecord(
      store,
      idx,
      stints,
      country ? input.continentOf(lower(country)) : null,
      country,
      placeOf(person.location),
      (person.dq_flags.length > 0 ? FLAGGED : 0) |
        (person.is_open_to_work === true ? OPEN_TO_WORK : 0) |
        (isBetweenRoles(sourcePositions) ? BETWEEN_ROLES : 0) |
        (isExploring(person) ? EXPLORING : 0) |
        (person.codehost?.hireable === true ? HIREABLE : 0),
      (person.full_name ?? "").toLowerCase(),
      lower(person.headline ?? ""),
      !!slug && url === `${SLUG_URL_PREFIX}${slug}`,
      kept(person.skills.map(lower)),
      lists.shared(person.languages.map(lower)),
      lists.shared(person.education.filter((e) => typeof e.school === "string").map((e) => lower(e.school!))),
      lists.shared(person.certifications.map((c) => originalCertifications.get(c.name, c.authority ?? null))),
      lists.shared(person.certifications.map((c) => certifications.get(c.name, c.authority ?? null))),
    );
    graph.people.push(record);
    if (slug) graph.byUrl.bySlugChanging(slug, record);
    if (slug) bySlug.set(slug, record);
    if (url) graph.byUrl.add(url, record);
    for (const stint of stints) {
      stint.record = record;
      if (stint.company) graph.stintsByCompany.get(stint.company.key)!.push(stint);
    }
    idx++;
  }
  return graph;
}

/** One shared empty array for every empty list (most people have no certifications, some no skills). */
const NONE: never[] = Object.freeze([]) as never[];

function kept<T>(items: T[]): T[] {
  return items.length === 0 ? NONE : items;
}

/**
 * One frozen array per distinct list of kept values (languages, schools, certifications repeat across
 * people: most lists have one or two entries from a small vocabulary). Lists are told apart by the identity
 * of their items (kept strings and interned pairs), up to LISTS_KEPT distinct lists; later new ones stay
 * the person's own.
 */
class SharedLists {
  /** The kept lists as a tree keyed by item, one level per position (no key text made per list). */
  private readonly root: ListNode = { list: undefined, next: undefined };
  private size = 0;

  shared<T>(items: T[]): T[] {
    if (items.length === 0) return NONE;
    let node = this.root;
    for (const item of items) {
      let child = node.next?.get(item);
      if (child === undefined) {
        // Past the bound, a new list stays the person's own and adds no node.
        if (this.size >= LISTS_KEPT) return items;
        (node.next ??= new Map()).set(item, (child = { list: undefined, next: undefined }));
      }
      node = child;
    }
    if (node.list !== undefined) return node.list as T[];
    if (this.size >= LISTS_KEPT) return items;
    this.size++;
    node.list = Object.freeze(items);
    return items;
  }
}

interface ListNode {
  list: readonly unknown[] | undefined;
  next: Map<unknown, ListNode> | undefined;
}

const LISTS_KEPT = 100_000;

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
  return new Stint(
    position,
    company,
    textId(companyText),
    start,
    end,
    current,
    position.is_current === false || position.ended_at !== null,
    tenureOf(position, todayMonth) ?? (start !== null ? monthsBetween(start, end ?? todayMonth) : 0),
    position.role_family == null ? null : intern.lower(position.role_family),
    textId(titleLc),
  );
}
