/** The one configuration of the in-suite fuzz runs (mock and sandbox): a fixed seed, so failures reproduce. */
import type { FuzzOptions } from "./runner.js";

export const IN_SUITE_RUN = {
  seed: 20261123,
  requests: 2000,
  concurrency: 8,
  timeLimitMs: 60_000,
} satisfies Partial<FuzzOptions>;
