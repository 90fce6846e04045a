/**
 * Term-list parameters (skills, languages, exclude_languages, certifications, location lists). Limits are
 * counted in distinct terms (case-insensitive); breaking one is a 400 naming the parameter.
 */
import { invalidRequest } from "../contract/errors.js";

export interface TermLimits {
  maxTerms: number;
  maxTermLength: number;
}

export const SKILL_LIMITS: TermLimits = { maxTerms: 8, maxTermLength: 64 };
export const CERTIFICATION_LIMITS: TermLimits = { maxTerms: 10, maxTermLength: 200 };
export const PLACE_LIMITS: TermLimits = { maxTerms: 20, maxTermLength: 120 };

/** Distinct (case-insensitive, first spelling kept) trimmed non-empty terms, checked against the limits. */
export function distinctTerms(name: string, raw: readonly string[], limits: TermLimits): string[] {
  const seen = new Map<string, string>();
  for (const t of raw.map((s) => s.trim()).filter(Boolean)) {
    // Characters as the spec's maxLength counts them: code points (an emoji is one, not two UTF-16 units).
    if ([...t].length > limits.maxTermLength)
      throw invalidRequest(`${name} terms must be at most ${limits.maxTermLength} characters`);
    if (!seen.has(t.toLowerCase())) seen.set(t.toLowerCase(), t);
  }
  if (seen.size > limits.maxTerms)
    throw invalidRequest(`${name} accepts at most ${limits.maxTerms} distinct terms, got ${seen.size}`);
  return [...seen.values()];
}

/** skills / languages / exclude_languages: separated by `;`, `,` or the word `or`. */
export function parseTermList(name: string, value: string, limits: TermLimits = SKILL_LIMITS): string[] {
  return distinctTerms(name, value.split(/\s*[;,]\s*|\s+or\s+/i), limits);
}

/** certifications: a string holding a JSON list of strings. */
export function parseCertificationList(value: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalidRequest('certifications must be a JSON list of strings, e.g. ["Certified Scrum Master"]');
  }
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === "string")) {
    throw invalidRequest('certifications must be a JSON list of strings, e.g. ["Certified Scrum Master"]');
  }
  if (parsed.some((t: string) => t.trim() === ""))
    throw invalidRequest("certifications terms must be 1-200 characters");
  return distinctTerms("certifications", parsed, CERTIFICATION_LIMITS);
}

/** location / exclude_locations: `;`-separated places; commas stay inside a place. */
export function parsePlaces(name: string, value: string): string[] {
  return distinctTerms(name, value.split(";"), PLACE_LIMITS);
}

/** A supplied term-list parameter must name at least one term (e.g. `skills=;` or `location=;;` is a 400). */
export function requireTerms(name: string, terms: string[]): string[] {
  if (terms.length === 0) throw invalidRequest(`${name} must contain at least one term`);
  return terms;
}
