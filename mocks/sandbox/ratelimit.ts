/**
 * Fixed-window rate limit per client IP (the reference: 300 requests per minute per client IP), with
 * x-ratelimit-limit / -remaining / -reset (seconds) on every answer and the framework 429 shape.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RateLimitOptions } from "./options.js";

interface Window {
  count: number;
  resetAt: number;
}

export function createRateLimiter(opts: RateLimitOptions, now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const t = now();
    if (windows.size > 10_000) for (const [ip, w] of windows) if (w.resetAt <= t) windows.delete(ip);
    let w = windows.get(request.ip);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + opts.windowMs };
      windows.set(request.ip, w);
    }
    w.count++;
    const resetSeconds = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
    reply.header("x-ratelimit-limit", String(opts.max));
    reply.header("x-ratelimit-remaining", String(Math.max(0, opts.max - w.count)));
    reply.header("x-ratelimit-reset", String(resetSeconds));
    if (w.count > opts.max) {
      reply.header("retry-after", String(resetSeconds));
      await reply.code(429).send({ statusCode: 429, error: "Too Many Requests", message: `Rate limit exceeded, retry in ${resetSeconds} seconds` });
    }
  };
}
