/**
 * The reference's error vocabulary: the error types, the status-to-type table and both error shapes.
 * It imports only the spec's generated constants: the client bundle uses this module, so it must stay free of
 * server code and of Ajv.
 */
import { ERROR_TYPES } from "../generated/spec-constants.js";

/**
 * The documented `error.type` values: the spec's Error schema lists them (`x-known-values`, an open list: a
 * client also meets types not listed), and `npm run generate` writes them into generated/spec-constants.ts.
 */
export { ERROR_TYPES };
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * The `error.type` of a 5xx the mock or the sandbox answers for its own failure. The reference gives a 5xx no
 * type ("5xx | | Gateway or dependency failure"); the spec's ServerError example uses this one, and so do both
 * servers, so a client sees one vocabulary whichever it runs against.
 */
export const SERVER_ERROR_TYPE = "server_error";
/** Every `error.type` the project's servers answer: the reference's types and the 5xx one. */
export type AnswerErrorType = ErrorType | typeof SERVER_ERROR_TYPE;

/** The one `error.type` that goes with each status where the reference names exactly one (400 also has certification_target_unsupported, but invalid_request is its general type). */
export const TYPE_BY_STATUS: Readonly<Record<number, ErrorType>> = {
  400: "invalid_request",
  401: "unauthorized",
  402: "payment_required",
  404: "not_found",
  409: "conflict",
};

export function errorTypeForStatus(status: number): ErrorType | undefined {
  return TYPE_BY_STATUS[status];
}

/** Application errors: `{ error: { type, message } }`. */
export interface ErrorBody {
  error: { type: string; message: string };
}

/** Framework validation and rate limiting: `{ statusCode, error, message }` (429 uses `Too Many Requests`). */
export interface FrameworkErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

/** How much of a client's input (an id, a path, a value) a message repeats: enough to recognize it, never unbounded. */
const MAX_ECHOED_INPUT = 200;

/** `value` for quoting in a message, cut to MAX_ECHOED_INPUT characters with an ellipsis. */
export function echoInput(value: string): string {
  return value.length > MAX_ECHOED_INPUT ? `${value.slice(0, MAX_ECHOED_INPUT)}...` : value;
}

/** The spec bounds no `Error.message`; what a message repeats of the input is bounded by echoInput. */
export function errorBody(type: string, message: string): ErrorBody {
  return { error: { type, message } };
}

/** True when `body` has the application-error shape (with `type`, when given) and a non-empty message. */
export function isErrorBody(body: unknown, type?: string): body is ErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return false;
  const { type: t, message } = error as { type?: unknown; message?: unknown };
  return (
    typeof t === "string" && (type === undefined || t === type) && typeof message === "string" && message.length > 0
  );
}

/** True when `body` has the framework shape. */
export function isFrameworkErrorBody(body: unknown): body is FrameworkErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.statusCode === "number" && typeof b.error === "string" && typeof b.message === "string";
}

/** Reason phrases of the statuses the spec documents a framework-shaped body for (no Node import: browser hosts use this too). */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/**
 * A framework-shaped body made to state the status actually answered: one example can serve a range (the
 * spec's 500 and 5XX share a 502 example), so `Prefer: code=500` must not answer a body saying 502.
 */
export function withAnsweredStatus(body: unknown, status: number): unknown {
  if (!isFrameworkErrorBody(body) || body.statusCode === status) return body;
  return { ...body, statusCode: status, error: REASON_PHRASES[status] ?? body.error };
}

/** The reference's 401 message: it asks for a valid key in the Authorization header. */
export const UNAUTHORIZED_MESSAGE = "A valid API key is required in the Authorization header";
