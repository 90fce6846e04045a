/**
 * The sandbox suite's evidence: the test harness hands every exchange it validated to `logSuiteExchange`, which
 * appends its coverage marks to dist/coverage/suite/<process>.jsonl; vitest's global setup
 * (suite-log-setup.ts) empties the folder when a run starts, so the log is always the last run's.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, type Exchange } from "../../contract-core/index.js";
import { createMarker } from "./marks.js";

/** One file per test process (vitest workers run several test files each). */
export const SUITE_LOG_DIR = join(REPO_ROOT, "dist/coverage/suite");

let marker: ReturnType<typeof createMarker> | undefined;
let file: string | undefined;

export function logSuiteExchange(exchange: Exchange): void {
  marker ??= createMarker();
  const mark = marker.mark(exchange);
  if (!mark) return;
  if (!file) {
    mkdirSync(SUITE_LOG_DIR, { recursive: true });
    file = join(SUITE_LOG_DIR, `${process.pid}.jsonl`);
  }
  appendFileSync(file, `${JSON.stringify(mark)}\n`);
}
