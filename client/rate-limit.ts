/**
 * Rate-limit headers of one response. The reference says they "may appear", so each value is
 * `null` when its header is absent or not a non-negative integer.
 */
export interface RateLimit {
  /** `x-ratelimit-limit`: requests allowed in the current window. */
  limit: number | null;
  /** `x-ratelimit-remaining`: requests left in the current window. */
  remaining: number | null;
  /** `x-ratelimit-reset`: seconds until the window resets. */
  reset: number | null;
  /** `retry-after` (sent with 429): seconds to wait before retrying. */
  retryAfter: number | null;
}

/** Parses a header holding a non-negative integer number of units; `null` otherwise. */
export function parseIntegerHeader(headers: Headers, name: string): number | null {
  const raw = headers.get(name)?.trim();
  if (!raw || !/^\d+$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : null;
}

export function readRateLimit(headers: Headers): RateLimit {
  return {
    limit: parseIntegerHeader(headers, "x-ratelimit-limit"),
    remaining: parseIntegerHeader(headers, "x-ratelimit-remaining"),
    reset: parseIntegerHeader(headers, "x-ratelimit-reset"),
    retryAfter: parseIntegerHeader(headers, "retry-after"),
  };
}
