/** Person views and the reference's hydration rules (dossier, search rows, orbit rows, compact). */
import type { PersonRecord } from "../data/graph.js";
import type { CompactPerson, Match, Person } from "../data/resources.js";
import { SearchMatch, sameSearchMatch } from "./search-match.js";
import { utf8, Utf8Chunks } from "./utf8-chunks.js";

/** GET /people/{slug}: every collapsed position, education, skills, languages, certifications. */
export function fullPerson(rec: PersonRecord, match: Match = {}): Person {
  return { ...rec.person, positions: rec.positions, match };
}

export interface RowHydration {
  skills?: boolean;
  languages?: boolean;
  certifications?: boolean;
}

/**
 * Search rows (and orbit, coworker, similar rows): at most two positions, education empty; skills,
 * languages and certifications only when asked (search: when their filters are used).
 */
export function rowPerson(rec: PersonRecord, match: Match, hydrate: RowHydration = {}): Person {
  const p = rec.person;
  return {
    ...p,
    positions: rec.positions.slice(0, 2),
    education: [],
    skills: hydrate.skills ? p.skills : [],
    languages: hydrate.languages ? p.languages : [],
    certifications: hydrate.certifications ? p.certifications : [],
    match,
  };
}

/** Stands in for the match while a row is serialized once (a string JSON cannot otherwise produce there). */
const MATCH_MARK = "\u0000match\u0000";
const MATCH_MARK_JSON = `"match":${JSON.stringify(MATCH_MARK)}`;
const MATCH_KEY = `"match":`;
/**
 * A row's UTF-8 JSON with the match it was last written with: a row is mostly asked again with the same
 * match (the same query, its next page, a refresh), and then its bytes are copied whole.
 */
interface RowBytes {
  bytes: Uint8Array;
  /** The JSON of the match in `bytes` ("" before the first write, which no match serializes to). */
  match: string;
  /** The search match last written, when it was one (compared by value, without serializing the next). */
  searchMatch: SearchMatch | null;
  /** Where the match's bytes start in `bytes`, and how many there are. */
  readonly at: number;
  matchLength: number;
}
/** Per record and hydration: the row's bytes (null: not splittable around its match). */
let rowBytes = new WeakMap<PersonRecord, (RowBytes | null)[]>();
/** Bytes held by rowBytes; past the cap the cache starts over (memory stays bounded on any graph). */
let cachedBytes = 0;
export const MAX_CACHED_BYTES = 16_000_000;

/** Bytes the row cache holds now (at most MAX_CACHED_BYTES plus one row). */
export function rowCacheBytes(): number {
  return cachedBytes;
}

/** Counts `delta` more cached bytes for a row; past the cap the cache starts over with only that row. */
function account(rec: PersonRecord, variant: number, row: RowBytes | null, delta: number): void {
  cachedBytes += delta;
  if (cachedBytes > MAX_CACHED_BYTES) {
    const parts: (RowBytes | null)[] = [];
    parts[variant] = row;
    rowBytes = new WeakMap([[rec, parts]]);
    cachedBytes = row ? row.bytes.length : 0;
  }
}

function variantOf(hydrate: RowHydration): number {
  return (hydrate.skills ? 1 : 0) | (hydrate.languages ? 2 : 0) | (hydrate.certifications ? 4 : 0);
}

function rowBytesOf(rec: PersonRecord, variant: number, hydrate: RowHydration): RowBytes | null {
  let parts = rowBytes.get(rec);
  if (!parts) rowBytes.set(rec, (parts = []));
  let row = parts[variant];
  if (row === undefined) {
    const json = JSON.stringify(rowPerson(rec, MATCH_MARK as Match, hydrate));
    const at = json.indexOf(MATCH_MARK_JSON);
    const unique = at >= 0 && json.indexOf(MATCH_MARK_JSON, at + 1) < 0;
    if (unique) {
      const before = utf8(json.slice(0, at + MATCH_KEY.length));
      const after = utf8(json.slice(at + MATCH_MARK_JSON.length));
      const bytes = new Uint8Array(before.length + after.length);
      bytes.set(before);
      bytes.set(after, before.length);
      row = { bytes, match: "", searchMatch: null, at: before.length, matchLength: 0 };
    } else row = null;
    parts[variant] = row;
    account(rec, variant, row, row ? row.bytes.length : 0);
  }
  return row;
}

/** Puts `match` (its JSON) in the row's bytes in place of the one there. */
function setMatch(rec: PersonRecord, variant: number, row: RowBytes, match: string): void {
  const encoded = utf8(match);
  const old = row.bytes;
  const bytes = new Uint8Array(old.length - row.matchLength + encoded.length);
  bytes.set(old.subarray(0, row.at));
  bytes.set(encoded, row.at);
  bytes.set(old.subarray(row.at + row.matchLength), row.at + encoded.length);
  row.bytes = bytes;
  row.match = match;
  row.matchLength = encoded.length;
  account(rec, variant, row, bytes.length - old.length);
}

/**
 * Appends the UTF-8 JSON of `rowPerson(rec, match, hydrate)`, byte-identical to encoding its `JSON.stringify`:
 * everything but the match is serialized and encoded once per record and hydration, so a search page only
 * serializes matches and copies bytes (one copy per row when its match is the one it was last written with;
 * a search match is then compared by value, not serialized).
 */
export function writeRowPerson(out: Utf8Chunks, rec: PersonRecord, match: Match, hydrate: RowHydration = {}): void {
  const variant = variantOf(hydrate);
  const row = rowBytesOf(rec, variant, hydrate);
  if (!row) {
    out.text(JSON.stringify(rowPerson(rec, match, hydrate)));
    return;
  }
  const search = match instanceof SearchMatch ? match : null;
  if (search === null || row.searchMatch === null || !sameSearchMatch(search, row.searchMatch)) {
    const json = JSON.stringify(match);
    if (json !== row.match) setMatch(rec, variant, row, json);
    row.searchMatch = search;
  }
  out.bytes(row.bytes);
}

export function compactPerson(rec: PersonRecord, match: Match): CompactPerson {
  const p = rec.person;
  const shown = rec.positions.find((pos) => pos.is_current === true) ?? rec.positions[0];
  const out: CompactPerson = {
    slug: p.slug,
    name: p.full_name,
    headline: p.headline,
    network_url: p.network_url,
    current: shown ? { company: shown.company, title: shown.title, months: shown.tenure_months } : null,
    open_to_work: p.is_open_to_work,
    between_roles: p.is_between_roles,
    exploring: p.is_exploring,
    codehost_hireable: p.codehost?.hireable ?? null,
  };
  if (match.company || match.company_months) {
    out.match = {};
    if (match.company !== undefined) out.match.company = match.company;
    if (match.company_months !== undefined) out.match.months = match.company_months;
  }
  return out;
}
