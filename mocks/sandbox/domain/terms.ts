/**
 * Term-list parameters (skills, languages, exclude_languages, certifications, location lists), split as their
 * `x-term-list` declares (contract-core/term-list.ts): distinct trimmed terms, case-insensitive, first spelling
 * kept. Their limits live in the spec, and the request check (core/validation.ts, the shared schema checker)
 * refuses a value past one before any filter reads it, in the words the mock uses: nothing here repeats them.
 */
import { termsOf, type TermSplit } from "../../../contract-core/portable.js";
import { invalidRequest } from "../contract/errors.js";

/** The distinct terms of `value` split as `split` says; the request check has already applied the limits. */
function split(name: string, kind: TermSplit, value: string): string[] {
  const found = termsOf({ split: kind, maxTerms: Infinity, maxTermLength: Infinity }, value);
  if (!found.ok) throw invalidRequest(`${name} ${found.message}`);
  return found.terms;
}

/** skills / languages / exclude_languages: separated by `;`, `,` or the word `or` (a single-term alias first). */
export function parseTermList(name: string, value: string): string[] {
  return split(name, "terms", value);
}

/** certifications: a string holding a JSON list of strings. */
export function parseCertificationList(value: string): string[] {
  return split("certifications", "json", value);
}

/** location / exclude_locations: `;`-separated places; commas stay inside a place. */
export function parsePlaces(name: string, value: string): string[] {
  return split(name, "places", value);
}

/** Distinct terms (case-insensitive, first spelling kept) of terms already split. */
export function distinctTerms(terms: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const t of terms.map((s) => s.trim()).filter(Boolean))
    if (!seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  return [...seen.values()];
}
