/**
 * Term lists: a string parameter that holds several terms (`skills=go;rust`, `location=Berlin;Europe`,
 * `certifications=["aws"]`), declared in the spec with `x-term-list` on its schema (spec/EXTENSIONS.md). The one
 * reading of that declaration: how the value splits into distinct terms and which limits the terms obey. The
 * shared schema checker (schema-check.ts) applies it wherever the schema is checked, so the mock and the sandbox
 * refuse the same values in the same words, and the sandbox's filters split with `termsOf` and keep no limit.
 */
import { isObj } from "./pointer.js";

/** How a value splits: `terms` on `;`, `,` or the word `or`; `places` on `;` only; `json` a JSON list of strings. */
export type TermSplit = "terms" | "places" | "json";

export interface TermListRule {
  split: TermSplit;
  /** At most this many distinct terms (trimmed, case-insensitive). */
  maxTerms: number;
  /** Each term at most this many characters (code points, as maxLength counts them). */
  maxTermLength: number;
  /** A single-term alias parameter (`certification`) whose value counts as one more term of this list. */
  alias?: string;
}

const SPLIT: readonly TermSplit[] = ["terms", "places", "json"];

/** The `x-term-list` of a schema, or undefined; throws naming the schema's problem on a malformed one (fail closed). */
export function termListRule(schema: unknown): TermListRule | undefined {
  if (!isObj(schema) || schema["x-term-list"] === undefined) return undefined;
  const rule = schema["x-term-list"];
  const whole = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v > 0;
  if (
    !isObj(rule) ||
    !SPLIT.includes(rule.split as TermSplit) ||
    !whole(rule.maxTerms) ||
    !whole(rule.maxTermLength) ||
    (rule.alias !== undefined && typeof rule.alias !== "string")
  )
    throw new Error(
      `x-term-list must be { split: ${SPLIT.join(" | ")}, maxTerms: <integer>, maxTermLength: <integer>, alias?: <name> }, got ${JSON.stringify(rule)}`,
    );
  return rule as unknown as TermListRule;
}

/** The words for a JSON list that is not one. */
const NOT_A_JSON_LIST = 'must be a JSON list of strings, e.g. ["Certified Scrum Master"]';

/** The raw (untrimmed) terms of `value`, or the problem (without the subject). */
function rawTerms(split: TermSplit, value: string): string[] | { problem: string } {
  if (split === "places") return value.split(";");
  if (split === "terms") return value.split(/\s*[;,]\s*|\s+or\s+/i);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { problem: NOT_A_JSON_LIST };
  }
  if (!Array.isArray(parsed) || !parsed.every((t) => typeof t === "string")) return { problem: NOT_A_JSON_LIST };
  return parsed as string[];
}

export type TermsResult = { ok: true; terms: string[] } | { ok: false; message: string };

/**
 * The distinct terms of `value` (trimmed, blank ones dropped, case-insensitive, first spelling kept), with the
 * alias's value first when given, or the problem as a message without the subject: `accepts at most 8 distinct
 * terms, got 9`, `terms must be at most 64 characters`, `must contain at least one term` (a `;`-style list
 * only: an empty JSON list is no filter).
 */
export function termsOf(rule: TermListRule, value: string | undefined, aliasValue?: string): TermsResult {
  const raw: string[] = aliasValue === undefined ? [] : [aliasValue];
  if (value !== undefined) {
    const split = rawTerms(rule.split, value);
    if (!Array.isArray(split)) return { ok: false, message: split.problem };
    // A JSON list states its terms one by one: a blank one is refused, as a blank alias value is.
    if (rule.split === "json" && split.some((t) => t.trim() === ""))
      return { ok: false, message: `terms must be 1-${rule.maxTermLength} characters` };
    raw.push(...split);
  }
  const seen = new Map<string, string>();
  for (const term of raw.map((t) => t.trim()).filter(Boolean)) {
    if ([...term].length > rule.maxTermLength)
      return { ok: false, message: `terms must be at most ${rule.maxTermLength} characters` };
    if (!seen.has(term.toLowerCase())) seen.set(term.toLowerCase(), term);
  }
  if (seen.size > rule.maxTerms)
    return { ok: false, message: `accepts at most ${rule.maxTerms} distinct terms, got ${seen.size}` };
  if (seen.size === 0 && value !== undefined && rule.split !== "json")
    return { ok: false, message: "must contain at least one term" };
  return { ok: true, terms: [...seen.values()] };
}
