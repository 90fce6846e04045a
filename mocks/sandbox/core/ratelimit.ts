/**
 * Fixed-window rate limit per client IP (the reference: 300 requests per minute per client IP), with
 * x-ratelimit-limit / -remaining / -reset (seconds) on every answer and the framework 429 shape.
 */
import type { RateLimitOptions } from "../contract/options.js";
import { json } from "./answer.js";
import type { CoreResponse } from "./exchange.js";

interface Window {
  count: number;
  resetAt: number;
}

export interface RateDecision {
  headers: Record<string, string>;
  /** The 429 body when the client is over its limit. */
  rejected?: { statusCode: 429; error: "Too Many Requests"; message: string };
}

export function createRateLimiter(opts: RateLimitOptions, now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  return function rateLimit(ip: string): RateDecision {
    const t = now();
    if (windows.size > 10_000) for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
    let w = windows.get(ip);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + opts.windowMs };
      windows.set(ip, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
    const headers: Record<string, string> = {
      "x-ratelimit-limit": String(opts.max),
      "x-ratelimit-remaining": String(Math.max(0, opts.max - w.count)),
      "x-ratelimit-reset": String(resetSeconds),
    };
    if (w.count <= opts.max) return { headers };
    headers["retry-after"] = String(resetSeconds);
    return {
      headers,
      rejected: {
        statusCode: 429,
        error: "Too Many Requests",
        message: `Rate limit exceeded, retry in ${resetSeconds} seconds`,
      },
    };
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The rate limit step: the window's headers added to the answer's, and the 429 when the client is over. */
export function limitRate(limiter: RateLimiter, address: string, headers: Record<string, string>): CoreResponse | null {
  const decision = limiter(address);
  Object.assign(headers, decision.headers);
  return decision.rejected ? json(429, decision.rejected) : null;
}
