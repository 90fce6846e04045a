import type { Clock } from "./clock.js";
import { parseIntegerHeader } from "./rate-limit.js";

/**
 * Retry policy for reads, from the reference's Errors section: only GET requests are retried, on a
 * network failure (including a per-attempt timeout), 429 and 5xx, with bounded exponential backoff
 * and full jitter; Retry-After (seconds) is honoured. 400, 401, 402, 404 and every other status
 * are returned at once, and mutations (POST, PUT, PATCH, DELETE) are never retried.
 */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  maxRetries: number;
  /** Backoff ceiling before the first retry, doubled for each further retry. Default 500 ms. */
  baseDelayMs: number;
  /** Cap of the backoff ceiling. Default 8000 ms. */
  maxDelayMs: number;
  /** Longest Retry-After the client waits for; a longer one ends retrying with that response. Default 60000 ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
});

/** `false` switches retrying off; an object overrides single settings of `DEFAULT_RETRY`. */
export type RetryConfig = false | Partial<RetryOptions>;

export function resolveRetryOptions(config: RetryConfig | undefined): RetryOptions {
  const options: RetryOptions =
    config === false ? { ...DEFAULT_RETRY, maxRetries: 0 } : { ...DEFAULT_RETRY, ...config };
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`retry.${name} must be a non-negative finite number, got ${String(value)}`);
    }
  }
  if (!Number.isInteger(options.maxRetries)) {
    throw new TypeError(`retry.maxRetries must be an integer, got ${options.maxRetries}`);
  }
  return options;
}

/** Full jitter: a uniformly random wait below min(cap, base * 2^retryIndex). */
export function backoffDelay(retryIndex: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export type FetchLike = (request: Request) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchLike;
  retry: RetryOptions;
  /** Per-attempt timeout; 0 or undefined means none. */
  timeoutMs?: number | undefined;
  clock: Clock;
  random: () => number;
}

/** A signal that aborts with the caller's signal or, for one attempt, after `timeoutMs`. */
function attemptSignal(callerSignal: AbortSignal, timeoutMs: number | undefined): AbortSignal {
  if (!timeoutMs) return callerSignal;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`Request timed out after ${timeoutMs} ms`, "TimeoutError")),
    timeoutMs,
  );
  // The timer also bounds reading the body, so it is not cleared on the response; it must not keep Node alive.
  (timer as { unref?: () => void }).unref?.();
  return AbortSignal.any([callerSignal, controller.signal]);
}

/** Wraps `fetch` with the per-attempt timeout and the retry policy; openapi-fetch calls it once per request. */
export function createTransport(options: TransportOptions): FetchLike {
  const { retry, clock, random, timeoutMs } = options;
  return async function transport(request: Request): Promise<Response> {
    const maxRetries = request.method === "GET" ? retry.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let response: Response;
      try {
        response = await options.fetch(new Request(request, { signal: attemptSignal(request.signal, timeoutMs) }));
      } catch (error) {
        request.signal.throwIfAborted(); // aborted by the caller: never retried
        if (!canRetry) throw error;
        await clock.sleep(backoffDelay(attempt, retry, random), request.signal);
        continue;
      }
      if (!canRetry || !isRetryableStatus(response.status)) return response;
      const retryAfter = parseIntegerHeader(response.headers, "retry-after");
      if (retryAfter !== null && retryAfter * 1000 > retry.maxRetryAfterMs) return response;
      const delay = retryAfter === null ? backoffDelay(attempt, retry, random) : retryAfter * 1000;
      await response.body?.cancel();
      await clock.sleep(delay, request.signal);
    }
  };
}
