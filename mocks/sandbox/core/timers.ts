/**
 * Time-driven work (jobs moving on, events falling due): the areas' `tick` run by one background timer at
 * the shortest interval they ask for, and by `advance(ms)` on the sandbox clock. `advance` visits the same
 * instants the timer would (every `every` ms), but jumps straight over the ones at which no area has work
 * due (`nextDueAt`), so a day of sandbox time costs what its due work costs, not 345,600 empty ticks.
 */
import type { AdvanceRun, Area, SandboxContext } from "../contract/context.js";

export interface Ticker {
  /** Runs every area's tick once (a failing one is logged, the others still run); `run`: the advance it is part of. */
  tick(run?: AdvanceRun): void;
  /** The shortest interval the areas ask for, in ms (Infinity: none asks). */
  every: number;
  /**
   * The earliest sandbox instant at which some area's tick has work (Infinity: none ever; -Infinity: an area
   * that ticks does not say, so every instant counts).
   */
  nextDue(): number;
  /** Stops the background timer. */
  stop(): void;
}

/** `afterBackgroundTick` runs after each tick of the background timer (the core stores ids handed out there). */
export function startTicker(
  areas: readonly Area[],
  ctx: SandboxContext,
  background: boolean,
  afterBackgroundTick: () => void = () => undefined,
): Ticker {
  const tickers = areas.filter((a) => a.tick);
  const every = Math.min(...tickers.map((a) => a.tickEveryMs?.(ctx) ?? Infinity));
  const tick = (run?: AdvanceRun) => {
    for (const area of tickers) {
      try {
        area.tick!(ctx, run);
      } catch (err) {
        ctx.logError("sandbox timer failed", err);
      }
    }
  };
  const nextDue = () => {
    let due = Infinity;
    for (const area of tickers) {
      if (!area.nextDueAt) return -Infinity;
      try {
        due = Math.min(due, area.nextDueAt(ctx) ?? Infinity);
      } catch (err) {
        ctx.logError("sandbox timer failed", err);
        return -Infinity;
      }
    }
    return due;
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  if (background && Number.isFinite(every)) {
    timer = setInterval(() => {
      tick();
      afterBackgroundTick();
    }, every);
    (timer as { unref?: () => void }).unref?.();
  }
  return {
    tick,
    every,
    nextDue,
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/**
 * Moves `clock` forward by `ms`, ticking at each instant the timer would visit (every `step` ms, and at the end)
 * where work is due, and at the end. The same instants as ticking at every step, since a tick with nothing due
 * does nothing. Its ticks share one AdvanceRun: nothing but they change the state until it returns.
 */
export function advanceTicking(ticker: Ticker, clock: { now(): number; advance(ms: number): void }, ms: number): void {
  const step = Number.isFinite(ticker.every) ? ticker.every : ms;
  const run: AdvanceRun = { from: clock.now() };
  let remaining = ms;
  do {
    let d = Math.min(step, remaining);
    const due = ticker.nextDue();
    const now = clock.now();
    if (step > 0 && due > now + d) d = Math.min(remaining, Math.ceil((due - now) / step) * step);
    clock.advance(d);
    remaining -= d;
    ticker.tick(run);
  } while (remaining > 0);
}
