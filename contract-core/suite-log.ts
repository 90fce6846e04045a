/**
 * The sandbox suite's coverage evidence: the test harness hands every exchange it validated to
 * `logSuiteExchange`, which appends its coverage marks (forced ones flagged, see coverage-marks.ts) to
 * dist/coverage/suite/<process>.jsonl; vitest's global setup (suite-log-setup.ts) empties the folder when a run
 * starts, so the log is always the last run's. `npm run coverage` reads it.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createMarker } from "./coverage-marks.js";
import { REPO_ROOT } from "./spec.js";
import type { Exchange } from "./types.js";

/** One file per test process (vitest workers run several test files each). */
export const SUITE_LOG_DIR = join(REPO_ROOT, "dist/coverage/suite");

let marker: ReturnType<typeof createMarker> | undefined;
let file: string | undefined;

/** `forced`: the answer was forced by a kit fault (a `Prefer: code=` request is seen as forced by itself). */
export function logSuiteExchange(exchange: Exchange, forced = false): void {
  marker ??= createMarker();
  const mark = marker.mark(exchange, forced);
  if (!mark) return;
  if (!file) {
    mkdirSync(SUITE_LOG_DIR, { recursive: true });
    file = join(SUITE_LOG_DIR, `${process.pid}.jsonl`);
  }
  appendFileSync(file, `${JSON.stringify(mark)}\n`);
}
