/**
 * Time-driven work (jobs moving on, events falling due): the areas' `tick` run by one background timer at
 * the shortest interval they ask for, and by `advance(ms)` in steps of that interval on the sandbox clock.
 */
import type { Area, SandboxContext } from "../contract/context.js";

export interface Ticker {
  /** Runs every area's tick once (a failing one is logged, the others still run). */
  tick(): void;
  /** The shortest interval the areas ask for, in ms (Infinity: none asks). */
  every: number;
  /** Stops the background timer. */
  stop(): void;
}

export function startTicker(areas: readonly Area[], ctx: SandboxContext, background: boolean): Ticker {
  const tickers = areas.filter((a) => a.tick);
  const every = Math.min(...tickers.map((a) => a.tickEveryMs?.(ctx) ?? Infinity));
  const tick = () => {
    for (const area of tickers) {
      try {
        area.tick!(ctx);
      } catch (err) {
        ctx.logError("sandbox timer failed", err);
      }
    }
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  if (background && Number.isFinite(every)) {
    timer = setInterval(tick, every);
    (timer as { unref?: () => void }).unref?.();
  }
  return {
    tick,
    every,
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
