/**
 * The sandbox clock: a function, or a fixed instant (a Date, an ISO 8601 string, epoch ms) that only
 * `advance(ms)` and `setNow(t)` move, so the same seed and steps write the same timestamps; `reset()` puts it
 * back where it started.
 */
export type ClockInput = (() => number | Date) | Date | string | number;

/** The clock as epoch ms; an unreadable instant is a TypeError naming it. */
export function clockOf(input: ClockInput): () => number {
  if (typeof input === "function") return () => +input();
  const ms = typeof input === "string" ? Date.parse(input) : +input;
  if (!Number.isFinite(ms))
    throw new TypeError(`now must be a Date, an ISO 8601 date-time or a function, got ${String(input)}`);
  return () => ms;
}

export interface MovableClock {
  now(): number;
  /** Forward by `ms` (a non-negative number). */
  advance(ms: number): void;
  /** To the instant `t` (forward or back). */
  set(t: Date | string | number): void;
  /** Back to the starting clock. */
  reset(): void;
}

/** The starting clock plus an offset that advance/set move and reset clears. */
export function movableClock(start: () => number): MovableClock {
  let offset = 0;
  return {
    now: () => start() + offset,
    advance(ms) {
      if (!(ms >= 0))
        throw new RangeError(`advance(ms) needs a non-negative number of milliseconds, got ${ms}: setNow(t) goes back`);
      offset += ms;
    },
    set(t) {
      offset = clockOf(t)() - start();
    },
    reset() {
      offset = 0;
    },
  };
}
