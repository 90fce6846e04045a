/**
 * The in-suite fuzz runs (mock and sandbox): one configuration with a fixed seed, so that failures
 * reproduce, and one verdict: every failure must be in known-failures.json.
 */
import { expect } from "vitest";
import { compareWithKnown, loadKnownFailures, type FuzzTarget } from "./known-failures.js";
import { formatReport, type FuzzOptions, type FuzzReport } from "./runner.js";

export const IN_SUITE_RUN = {
  seed: 20261123,
  requests: 2000,
  concurrency: 8,
  // Bound by the request count, not by time: every run sends all 2,000, however loaded the machine.
  timeLimitMs: Number.POSITIVE_INFINITY,
} satisfies Partial<FuzzOptions>;

/** All requests sent, no failure outside the allowlist; entries that matched nothing are printed for removal. */
export function expectOnlyKnownFailures(report: FuzzReport, target: FuzzTarget): void {
  const { unexpected, stale } = compareWithKnown(report, target, loadKnownFailures());
  const known = report.failures.length - unexpected.length;
  console.info(
    `fuzz ${target}: ${report.sent} requests in ${(report.durationMs / 1000).toFixed(1)} s, ${known} known failure groups`,
  );
  if (stale.length > 0) {
    const lines = stale.map((s) => `  ${s.check} ${s.operationId} ${s.mutation ?? "(valid)"} (${s.issue})`);
    console.info(
      `known-failures.json: ${stale.length} ${target} entries matched nothing in this run (fixed, or not reached by this seed; remove them once fixed):\n${lines.join("\n")}`,
    );
  }
  expect(report.sent).toBe(IN_SUITE_RUN.requests);
  expect(unexpected, formatReport({ ...report, failures: unexpected })).toEqual([]);
}
