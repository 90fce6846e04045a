/**
 * Fixed-window rate limit per client IP (the reference: 300 requests per minute per client IP), with
 * x-ratelimit-limit / -remaining / -reset (seconds) on every answer and the framework 429 shape.
 */
import { REASON_PHRASES } from "../../../contract-core/portable.js";
import { everyOperationStatus } from "../contract/errors.js";
import type { RateLimitOptions } from "../contract/options.js";
import { json } from "./answer.js";
import type { CoreResponse } from "./exchange.js";

interface Window {
  count: number;
  resetAt: number;
}

/** The rate limit step: adds the client's window headers to `headers`; the 429 when the client is over its limit. */
export function createRateLimiter(opts: RateLimitOptions, now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  return function limitRate(ip: string, headers: Record<string, string>): CoreResponse | null {
    const t = now();
    if (windows.size > 10_000) for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    let w = windows.get(ip);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + opts.windowMs };
      windows.set(ip, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
    headers["x-ratelimit-limit"] = String(opts.max);
    headers["x-ratelimit-remaining"] = String(Math.max(0, opts.max - w.count));
    headers["x-ratelimit-reset"] = String(resetSeconds);
    if (w.count <= opts.max) return null;
    headers["retry-after"] = String(resetSeconds);
    // Every operation documents the 429 (a tsc error naming any that does not).
    return json(everyOperationStatus("429"), {
      statusCode: 429,
      // The spec's 429 examples say it (contract-core/error-table.test.ts checks REASON_PHRASES against them).
      error: REASON_PHRASES[429],
      message: `Rate limit exceeded, retry in ${resetSeconds} seconds`,
    });
  };
}
