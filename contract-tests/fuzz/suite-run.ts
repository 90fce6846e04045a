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
  // Generous: a loaded machine slows the run down, and a run cut short fails the test (all 2,000 must be sent).
  timeLimitMs: 100_000,
} satisfies Partial<FuzzOptions>;

/** The vitest timeout of an in-suite run: above the time limit, so that the run's own limit speaks first. */
export const IN_SUITE_TIMEOUT_MS = 120_000;

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
