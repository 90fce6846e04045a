/**
 * The allowlist of failures the in-suite fuzz runs know about today (known-failures.json): each entry is one
 * check/operation pair on one server, narrowed to the mutation that triggers it, with the issue item whose fix
 * removes it. A known defect is listed for every operation it reaches, not only those one seed happens to hit,
 * so that a spec change that reshuffles the sequence does not fail the suite on it. A failure outside the list
 * fails the suite; an entry that matched nothing in a run is reported (fixed, or not reached by that run).
 */
import { readFileSync } from "node:fs";
import type { CheckName } from "./checks.js";
import type { FuzzFailure, FuzzReport } from "./runner.js";

export type FuzzTarget = "mock" | "sandbox";

export interface KnownFailure {
  target: FuzzTarget;
  check: CheckName;
  operationId: string;
  /** The failing requests' mutation starts with this (e.g. `bad_percent_encoding path`); `null`: requests built valid. */
  mutation: string | null;
  /** Where the fix is tracked, e.g. `issue 15 item 5`. */
  issue: string;
  why: string;
}

export function loadKnownFailures(): KnownFailure[] {
  const file = new URL("./known-failures.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { failures: KnownFailure[] }).failures;
}

function matches(entry: KnownFailure, target: FuzzTarget, failure: FuzzFailure): boolean {
  if (entry.target !== target || entry.check !== failure.check || entry.operationId !== failure.operationId)
    return false;
  const mutation = failure.request.mutation ?? null;
  return entry.mutation === null ? mutation === null : mutation !== null && mutation.startsWith(entry.mutation);
}

/** Failures of `report` outside the allowlist, and allowlist entries for `target` that matched nothing. */
export function compareWithKnown(
  report: FuzzReport,
  target: FuzzTarget,
  known: KnownFailure[],
): { unexpected: FuzzFailure[]; stale: KnownFailure[] } {
  const used = new Set<KnownFailure>();
  const unexpected: FuzzFailure[] = [];
  for (const failure of report.failures) {
    const entry = known.find((k) => matches(k, target, failure));
    if (entry) used.add(entry);
    else unexpected.push(failure);
  }
  return { unexpected, stale: known.filter((k) => k.target === target && !used.has(k)) };
}
