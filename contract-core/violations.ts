/**
 * One vocabulary for describing a violation in words, used for request violations (the mock, the sandbox)
 * and response violations (the contract tests): `limit must be <= 100`, `view must be one of: card, full`,
 * `body must have required property 'status'`, `body/name must NOT have fewer than 1 characters`.
 * The subject is the parameter's name for query, path and header parameters, `body` or `body/<path>` for a body.
 */

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

/** The Ajv error fields this wording needs (kept structural so this module does not import Ajv). */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
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
  const name = location === "body" ? path : path.split("/")[0] ?? "";
  if (error.keyword === "additionalProperties") return { location, name, message: `must NOT have additional property '${String(p.additionalProperty)}'` };
  if (error.keyword === "enum") return { location, name, message: `must be one of: ${(p.allowedValues as unknown[]).join(", ")}` };
  return { location, name, message: error.message ?? "is invalid" };
}
