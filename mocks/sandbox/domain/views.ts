/** Person views and the reference's hydration rules (dossier, search rows, orbit rows, compact). */
import type { PersonRecord } from "../data/graph.js";
import type { CompactPerson, Match, Person } from "../data/resources.js";
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
/** A row's UTF-8 JSON before and after the match value. */
type RowBytes = readonly [before: Uint8Array, after: Uint8Array];
/** Per record and hydration: the row's bytes around the match (null: not splittable). */
let rowBytes = new WeakMap<PersonRecord, (RowBytes | null)[]>();
/** Bytes held by rowBytes; past the cap the cache starts over (memory stays bounded on any graph). */
let cachedBytes = 0;
export const MAX_CACHED_BYTES = 16_000_000;

/** Bytes the row cache holds now (at most MAX_CACHED_BYTES plus one row). */
export function rowCacheBytes(): number {
  return cachedBytes;
}

function rowBytesOf(rec: PersonRecord, hydrate: RowHydration): RowBytes | null {
  const variant = (hydrate.skills ? 1 : 0) | (hydrate.languages ? 2 : 0) | (hydrate.certifications ? 4 : 0);
  let parts = rowBytes.get(rec);
  if (!parts) rowBytes.set(rec, (parts = []));
  let split = parts[variant];
  if (split === undefined) {
    const json = JSON.stringify(rowPerson(rec, MATCH_MARK as Match, hydrate));
    const at = json.indexOf(MATCH_MARK_JSON);
    const unique = at >= 0 && json.indexOf(MATCH_MARK_JSON, at + 1) < 0;
    split = unique ? [utf8(json.slice(0, at + MATCH_KEY.length)), utf8(json.slice(at + MATCH_MARK_JSON.length))] : null;
    const size = split ? split[0].length + split[1].length : 0;
    cachedBytes += size;
    if (cachedBytes > MAX_CACHED_BYTES) {
      rowBytes = new WeakMap();
      rowBytes.set(rec, (parts = []));
      cachedBytes = size;
    }
    parts[variant] = split;
  }
  return split;
}

/**
 * Appends the UTF-8 JSON of `rowPerson(rec, match, hydrate)`, byte-identical to encoding its `JSON.stringify`:
 * everything but the match is serialized and encoded once per record and hydration, so a search page only
 * serializes matches and copies bytes.
 */
export function writeRowPerson(out: Utf8Chunks, rec: PersonRecord, match: Match, hydrate: RowHydration = {}): void {
  const split = rowBytesOf(rec, hydrate);
  if (split) out.bytes(split[0]).text(JSON.stringify(match)).bytes(split[1]);
  else out.text(JSON.stringify(rowPerson(rec, match, hydrate)));
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
