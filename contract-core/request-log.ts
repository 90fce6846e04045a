/**
 * The one-line request log the sandbox and the mock print by default (`--quiet` turns it off): method, path,
 * status, time, and for a 4xx the error the answer carries, e.g.
 *   GET /v1/people?limit=101 400 1.2 ms invalid_request: limit must be <= 100
 * Headers are never logged, so a key never reaches the log.
 */

export interface LoggedRequest {
  method: string;
  url: string;
  status: number;
  ms: number;
  /** The answer's body (object, JSON text or bytes); read only for a 4xx. */
  body?: unknown;
}

/** `type: message` of an answer in the reference's error shape (object, JSON text or bytes), or undefined. */
export function errorSummary(body: unknown): string | undefined {
  let value = body;
  if (value instanceof Uint8Array) value = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString();
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const error = (value as { error?: { type?: unknown; message?: unknown } } | null)?.error;
  if (typeof error?.type !== "string") return undefined;
  return typeof error.message === "string" ? `${error.type}: ${error.message}` : error.type;
}

export function requestLogLine({ method, url, status, ms, body }: LoggedRequest): string {
  const line = `${method} ${url} ${status} ${ms.toFixed(1)} ms`;
  const error = status >= 400 && status < 500 ? errorSummary(body) : undefined;
  return error ? `${line} ${error}` : line;
}
