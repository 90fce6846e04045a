// The mock's error replies in the reference's shapes, and Prism's request diagnostics turned into the
// core's violation wording (`limit must be <= 100`), so the mock and the sandbox describe a violation alike.
// Rate limiting uses the framework shape, which the spec's own 429 examples carry, so it is not built here.
import {
  describeViolations as describeCoreViolations,
  errorBody,
  patternWording,
  requestWording,
  type AnswerErrorType,
  type Violation as CoreViolation,
  type ViolationLocation,
} from "../../contract-core/index.js";

export { isErrorBody, SERVER_ERROR_TYPE, UNAUTHORIZED_MESSAGE } from "../../contract-core/index.js";

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
}

/** A reply in the application shape; `type` is one of the reference's types or the 5xx one (contract-core). */
export function errorReply(status: number, type: AnswerErrorType, message: string): MockReply {
  return { status, headers: { "content-type": "application/json" }, body: errorBody(type, message) };
}

export const invalidRequest = (message: string): MockReply => errorReply(400, "invalid_request", message);

/** 404 for a method and path that are not an operation of the spec (e.g. `GET /v1/peoples`); `basePath` when outside it. */
export const noRoute = (label: string, basePath?: string): MockReply =>
  errorReply(404, "not_found", requestWording.notAnOperation(label, basePath));

/** Prism reports severity as a number (DiagnosticSeverity.Error = 0) or as its name. */
export function isError(v: Violation): boolean {
  return v.severity === 0 || v.severity === "Error";
}

export function isSecurityViolation(v: Violation): boolean {
  return v.code === 401 || v.code === "401";
}

const PARAMETER = /^(query|path|header) parameter (\S+) (.+)$/s;
const BODY = /^body(?:\/(\S+)| property (\S+))? (.+)$/s;
/** Ajv's enum wording as Prism prints it, and the core's. */
const PRISM_ENUM = /^must be equal to one of the allowed values:?\s*/;

/**
 * The core's violation for one Prism diagnostic. Prism words each as `Request <where> <what>`
 * (`Request query parameter limit must be <= 100`); anything it words otherwise is kept whole under `body`.
 */
function toCoreViolation(v: Violation): CoreViolation {
  // A required body that is missing (Prism: "Body parameter is required"), in the sandbox's words.
  if (v.message === "Body parameter is required")
    return { location: "body", name: "", message: "must be a JSON object" };
  const text = v.message.replace(/^Request /, "");
  const fix = (message: string) => {
    if (PRISM_ENUM.test(message)) return `must be one of: ${message.replace(PRISM_ENUM, "")}`;
    const pattern = /^must match pattern "(.*)"$/s.exec(message);
    return pattern ? patternWording(pattern[1]!) : message;
  };
  const parameter = PARAMETER.exec(text);
  if (parameter)
    return { location: parameter[1] as ViolationLocation, name: parameter[2]!, message: fix(parameter[3]!) };
  const body = BODY.exec(text);
  if (body)
    return {
      location: "body",
      name: (body[1] ?? body[2] ?? "").replace(/^\//, "").replace(/\./g, "/"),
      message: fix(body[3]!),
    };
  return { location: "body", name: "", message: text.replace(/^body /, "") };
}

/**
 * How many violations a message words: more would not fit the spec's 2,000-character message, and wording
 * each of 100,000 (one per item of a long invalid array) would block the mock for seconds.
 */
const DESCRIBED_VIOLATIONS = 100;

/**
 * One message naming every violated constraint in the core's wording, e.g.
 * `limit must be <= 100; body must have required property 'status'`.
 */
export function describeViolations(violations: readonly Violation[]): string {
  const errors = violations.filter(isError);
  const described = describeCoreViolations(errors.slice(0, DESCRIBED_VIOLATIONS).map(toCoreViolation));
  const more = errors.length - DESCRIBED_VIOLATIONS;
  return more > 0 ? `${described}; and ${more} more` : described;
}
