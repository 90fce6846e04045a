/**
 * The reference's error vocabulary: the error types, the status-to-type table and both error shapes.
 * No imports: the client bundle uses this module, so it must stay free of server code and of Ajv.
 */

/** The `error.type` values the reference lists, in the order of its error table. */
export const ERROR_TYPES = [
  "invalid_request",
  "certification_target_unsupported",
  "unauthorized",
  "payment_required",
  "not_found",
  "conflict",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

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

/** The spec's `Error.message` is at most 2000 characters. */
export const MAX_ERROR_MESSAGE = 2000;

export function errorBody(type: string, message: string): ErrorBody {
  const text = message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 3)}...` : message;
  return { error: { type, message: text } };
}

export function frameworkErrorBody(statusCode: number, error: string, message: string): FrameworkErrorBody {
  return { statusCode, error, message };
}

/** True when `body` has the application-error shape (with `type`, when given) and a non-empty message. */
export function isErrorBody(body: unknown, type?: string): body is ErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return false;
  const { type: t, message } = error as { type?: unknown; message?: unknown };
  return typeof t === "string" && (type === undefined || t === type) && typeof message === "string" && message.length > 0;
}

/** True when `body` has the framework shape. */
export function isFrameworkErrorBody(body: unknown): body is FrameworkErrorBody {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.statusCode === "number" && typeof b.error === "string" && typeof b.message === "string";
}

/** The reference's 401 message: it asks for a valid key in the Authorization header. */
export const UNAUTHORIZED_MESSAGE = "A valid API key is required in the Authorization header";
