/** Errors of the service as thrown by the client; the reference's vocabulary comes from the contract core. */
import { TYPE_BY_STATUS, type ErrorType } from "../contract-core/error-vocabulary.js";
import { readRateLimit, type RateLimit } from "./rate-limit.js";

/** The `error.type` values the reference lists. Other strings can occur (see `TalentGraphError.type`). */
export type KnownErrorType = ErrorType;

const BRAND = Symbol.for("talent-graph.TalentGraphError");

function isRecord(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === "object" && value !== null;
}

/** "Too Many Requests" -> "too_many_requests". */
function snakeCase(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

function describe(status: number, statusText: string, body: unknown): { type: string; message: string } {
  // Application errors: { error: { type, message } }.
  if (isRecord(body) && isRecord(body.error) && typeof body.error.type === "string") {
    const message = typeof body.error.message === "string" ? body.error.message : `HTTP ${status}`;
    return { type: body.error.type, message };
  }
  const fallbackType = TYPE_BY_STATUS[status];
  // Framework errors (validation, rate limiting): { statusCode, error, message }.
  if (isRecord(body) && typeof body.error === "string") {
    const message = typeof body.message === "string" ? body.message : body.error;
    return { type: fallbackType ?? (snakeCase(body.error) || `http_${status}`), message };
  }
  const reason = statusText.trim();
  return {
    type: fallbackType ?? (snakeCase(reason) || `http_${status}`),
    message: reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`,
  };
}

/**
 * An error response of the service. Branch on `status` first, then on `type`:
 * - `type` is `error.type` of an application error `{ error: { type, message } }`;
 * - for the framework shape `{ statusCode, error, message }` (validation, 429) it is derived: the
 *   reference's type for the status where it names exactly one (`TYPE_BY_STATUS` of the error vocabulary,
 *   checked against the spec), otherwise the snake-cased `error` text (429 -> `too_many_requests`);
 * - for a body in neither shape, the same rule applies to the HTTP reason phrase.
 */
export class TalentGraphError extends Error {
  override readonly name = "TalentGraphError";
  /** HTTP status of the response. */
  readonly status: number;
  readonly type: KnownErrorType | (string & {});
  /** Rate-limit headers of the failed response (`retryAfter` is set on 429). */
  readonly rateLimit: RateLimit;
  /** The parsed error body (or its text when it was not JSON). */
  readonly body: unknown;
  /** The raw response; its body has already been read. */
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const { type, message } = describe(response.status, response.statusText, body);
    super(message);
    this.status = response.status;
    this.type = type;
    this.rateLimit = readRateLimit(response.headers);
    this.body = body;
    this.response = response;
    Object.defineProperty(this, BRAND, { value: true });
  }

  toJSON(): { name: string; status: number; type: string; message: string; rateLimit: RateLimit } {
    return { name: this.name, status: this.status, type: this.type, message: this.message, rateLimit: this.rateLimit };
  }
}

/** True for a `TalentGraphError`, also one created by another copy of this module. */
export function isTalentGraphError(value: unknown): value is TalentGraphError {
  return value instanceof TalentGraphError || (isRecord(value) && value[BRAND] === true);
}

/** The part of every client result that `unwrap` needs. */
export interface ResultLike {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * Returns `data` of a successful result and throws a `TalentGraphError` for an error response:
 * `const { data: person } = unwrap(await client.GET("/people/{slug}", ...))` without checking `error`.
 */
export function unwrap<R extends ResultLike>(result: R): Extract<R, { error?: never }>["data"] {
  if (!result.response.ok) throw new TalentGraphError(result.response, result.error);
  return result.data as Extract<R, { error?: never }>["data"];
}
