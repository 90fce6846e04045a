/**
 * One vocabulary for describing a violation in words, used for request violations (the mock, the sandbox)
 * and response violations (the contract tests): `limit must be <= 100`, `view must be one of: card, full`,
 * `body must have required property 'status'`, `body/name must NOT have fewer than 1 characters`.
 * The subject is the parameter's name for query, path and header parameters, `body` or `body/<path>` for a body.
 */

import { echoInput } from "./error-vocabulary.js";

export type ViolationLocation = "query" | "path" | "header" | "body";

export interface Violation {
  location: ViolationLocation;
  /** Parameter name (query, path, header), or the JSON pointer inside the body without its leading `/` ("" = the body). */
  name: string;
  /** What is wrong, without the subject: `must be <= 100`. */
  message: string;
}

/** `limit must be <= 100`, `body/name must ...`, `body must ...`; a missing parameter reads `query must have required property 'x'`. */
export function describeViolation(v: Violation): string {
  const subject = v.location === "body" ? (v.name ? `body/${v.name}` : "body") : v.name || v.location;
  return `${subject} ${v.message}`;
}

/** Several violations in one message, each once, joined by `; `. */
export function describeViolations(violations: readonly Violation[]): string {
  const unique = [...new Set(violations.map(describeViolation))];
  return unique.length > 0 ? unique.join("; ") : "invalid request";
}

/** `must be one of: card, full`: the words for a value outside an enum. */
export const mustBeOneOf = (values: readonly unknown[]): string => `must be one of: ${values.join(", ")}`;

/** The Ajv error fields this wording needs (kept structural so this module does not import Ajv). */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * The spec's pattern for "1-N characters after trimming" (`^\s*\S(?:[\s\S]{0,N-2}\S)?\s*$`, spec/DECISIONS.md
 * 34): a length rule JSON Schema can only say as a pattern, so its violation is worded as the reference says it.
 */
const TRIMMED_LENGTH = /^\^\\s\*\\S\(\?:\[\\s\\S\]\{0,(\d+)\}\\S\)\?\\s\*\$$/;

/** The pattern of a value that must not be blank ("blank after trimming is rejected", spec/DECISIONS.md 34). */
const NOT_BLANK = "\\S";

/** The words for a value that does not match `pattern`: the reference's for a trimmed length or a blank value, else Ajv's. */
export function patternWording(pattern: string): string {
  if (pattern === NOT_BLANK) return "must not be blank";
  const trimmed = TRIMMED_LENGTH.exec(pattern);
  return trimmed ? `must be 1-${Number(trimmed[1]) + 2} characters after trimming` : `must match pattern "${pattern}"`;
}

/**
 * A violation from an Ajv error raised while validating the `location` part of a request: for query/path/header
 * the validated value is an object of parameters, so the first path token is the parameter name.
 */
export function violationFromAjv(location: ViolationLocation, error: AjvLikeError): Violation {
  const path = error.instancePath.replace(/^\//, "");
  const p = error.params;
  if (error.keyword === "required") {
    const missing = `must have required property '${String(p.missingProperty)}'`;
    return location === "body" ? { location, name: path, message: missing } : { location, name: "", message: missing };
  }
  const name = location === "body" ? path : (path.split("/")[0] ?? "");
  if (error.keyword === "additionalProperties")
    return { location, name, message: `must NOT have additional property '${String(p.additionalProperty)}'` };
  if (error.keyword === "enum") return { location, name, message: mustBeOneOf(p.allowedValues as unknown[]) };
  if (error.keyword === "pattern") return { location, name, message: patternWording(String(p.pattern)) };
  return { location, name, message: error.message ?? "is invalid" };
}

/**
 * The sentences both servers answer with when a request cannot reach an operation or a `Prefer` asks for
 * something the spec does not document; `label` is `GET /v1/people`.
 */
export const requestWording = {
  /** 400 for a body that is not JSON; `detail` is the parser's message. */
  invalidJsonBody: (detail: string): string => `invalid JSON body: ${detail}`,
  /** 404 for a method and path that are not an operation; `basePath` adds a hint when the path lies outside it. */
  notAnOperation: (label: string, basePath?: string): string =>
    `${echoInput(label)} is not an operation of this API${basePath === undefined ? "" : ` (paths start with ${basePath})`}`,
  /** 400 for `Prefer: code=<status>` naming a status the operation does not document. */
  noDocumentedResponse: (label: string, code: number): string =>
    `${label} documents no ${code} response (Prefer code=${code})`,
  /** 400 for `Prefer: example=<name>` naming an example the operation (or that status) does not have. */
  noNamedExample: (label: string, example: string, code?: number): string =>
    `${label} has no example named "${example}"${code !== undefined ? ` for status ${code}` : ""} (Prefer example=; see mocks/prism/EXAMPLES.md)`,
} as const;
