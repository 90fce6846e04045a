/**
 * The one-line request log the sandbox and the mock print by default (`--quiet` turns it off): method, path,
 * status, time, and for a 4xx the error the answer carries, e.g.
 *   GET /v1/people?limit=101 400 1.2 ms invalid_request: limit must be <= 100
 * A 5xx line carries the error its answer names too. Every request-derived value is escaped (control
 * characters as \xNN or \uNNNN, and backslashes doubled), so one request is one line and a request cannot
 * write colour codes or a second, forged line. Headers are never logged, so a key never reaches the log.
 */

export interface LoggedRequest {
  method: string;
  url: string;
  status: number;
  ms: number;
  /** The answer's body (object, JSON text or bytes); read only for a 4xx or 5xx. */
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

/** C0 and C1 control characters, DEL, the Unicode line and paragraph separators, and the backslash. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/g;

/** Text safe to print on one line: every control character visible as an escape. */
export function escapeLogText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    if (c === "\\") return "\\\\";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}

export function requestLogLine({ method, url, status, ms, body }: LoggedRequest): string {
  const line = `${escapeLogText(method)} ${escapeLogText(url)} ${status} ${ms.toFixed(1)} ms`;
  const error = status >= 400 ? errorSummary(body) : undefined;
  return error ? `${line} ${escapeLogText(error)}` : line;
}
