/**
 * The sandbox clock: a function, or a fixed instant (a Date, an ISO 8601 string, epoch ms) that only
 * `advance(ms)` moves, so the same seed and steps write the same timestamps.
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
