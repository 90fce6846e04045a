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

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/**
 * Text safe to print on one line: every control character visible as an escape, backslashes doubled (unless
 * `backslashes: false`, for messages people read, where an escape need not be told from a backslash).
 */
export function escapeLogText(text: string, { backslashes = true } = {}): string {
  let out = "";
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (c === "\\") out += backslashes ? "\\\\" : c;
    else if (!isControl(code)) out += c;
    else out += code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  }
  return out;
}

/**
 * Text of several lines safe to print to a terminal (a message, a report): each line as escapeLogText writes it
 * with backslashes kept, so a seed file, a trace quote or spec text cannot move the cursor, colour, clear the
 * screen, set the window title or forge a line (a carriage return is shown as \x0d; only line feeds end lines).
 */
export function escapeTerminalText(text: string): string {
  return text
    .split("\n")
    .map((line) => escapeLogText(line, { backslashes: false }))
    .join("\n");
}

/** The control characters in `text` (none in a line requestLogLine wrote). */
export function controlCharacters(text: string): string[] {
  return [...text].filter((c) => isControl(c.charCodeAt(0)));
}

export function requestLogLine({ method, url, status, ms, body }: LoggedRequest): string {
  const line = `${escapeLogText(method)} ${escapeLogText(url)} ${status} ${ms.toFixed(1)} ms`;
  const error = status >= 400 ? errorSummary(body) : undefined;
  return error ? `${line} ${escapeLogText(error)}` : line;
}
