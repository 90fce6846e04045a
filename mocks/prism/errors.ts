// Error bodies in the reference's shapes, and the wording of Prism's request violations.
// Application errors: { error: { type, message } }. Rate limiting uses the framework shape, which
// the spec's own 429 examples carry, so it is not built here.

export interface ErrorBody {
  error: { type: string; message: string };
}

export interface MockReply {
  status: number;
  headers: Record<string, string | number>;
  body?: unknown;
}

/** A Prism diagnostic, as found in `validations.input` or in a 422's `additional.validation`. */
export interface Violation {
  message: string;
  severity: number | string;
  code?: string | number;
  path?: string[];
  location?: string[];
}

/** Fallback 401 message, used only when the spec's 401 example is not in the reference's shape. */
export const UNAUTHORIZED_MESSAGE =
  "Missing or invalid API key: send a valid key in the Authorization header (Authorization: Bearer <API_KEY>)";

/** The spec's `Error.message` is at most 2000 characters. */
const MAX_MESSAGE = 2000;

export function errorReply(status: number, type: string, message: string): MockReply {
  const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message;
  const body: ErrorBody = { error: { type, message: text } };
  return { status, headers: { "content-type": "application/json" }, body };
}

export const invalidRequest = (message: string): MockReply => errorReply(400, "invalid_request", message);

/** 404 for a method and path that are not an operation of the spec (e.g. `GET /v1/peoples`). */
export const noRoute = (label: string, hint = ""): MockReply =>
  errorReply(404, "not_found", `${label} is not an operation of this API${hint}`);

/** Prism reports severity as a number (DiagnosticSeverity.Error = 0) or as its name. */
export function isError(v: Violation): boolean {
  return v.severity === 0 || v.severity === "Error";
}

export function isSecurityViolation(v: Violation): boolean {
  return v.code === 401 || v.code === "401";
}

/**
 * One message naming every violated constraint, e.g.
 * `query parameter limit must be <= 100; body must have required property 'status'`.
 * Prism words each one as "Request <where> <what>"; the prefix adds nothing for a client.
 */
export function describeViolations(violations: readonly Violation[]): string {
  const messages = violations.filter(isError).map((v) => v.message.replace(/^Request /, ""));
  const unique = [...new Set(messages)];
  return unique.length > 0 ? unique.join("; ") : "invalid request";
}

/** True when a body has the reference's application-error shape with the given type. */
export function hasErrorShape(body: unknown, type: string): body is ErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return false;
  const { type: t, message } = error as { type?: unknown; message?: unknown };
  return t === type && typeof message === "string" && message.length > 0;
}
