/**
 * Proof faults: deliberate breaks of one behaviour each, switched on for a whole run by TRACE_PROVE_FAULT=<name>
 * (the trace's prove mode, scripts/trace/prove.ts, for an entry with `fault: <name>`), so the checks named for
 * a behaviour statement are shown to fail when the behaviour breaks. Off unless that variable names one; read
 * once, browser-safe (no Node import: `process` is looked up on globalThis).
 */
export const PROOF_FAULTS = {
  "orbit-leavers-exclude-current":
    "company orbit: a person already in current is left out of leavers (one array per person)",
  "target-read-wrong-target": "GET /targets/{id} answers another Target of the organization when it has one",
  "exploring-since-null": "a person's exploring_since is always null",
  "member-update-counts-changed-only": "a member status update counts only the rows whose status changed",
  "enrichment-run-unbounded": "an enrichment run enriches every waiting member, past 2000 (initial) or 500 (refresh)",
} as const;

export type ProofFault = keyof typeof PROOF_FAULTS;
// Pure: a bundle that never reads the names (the sandbox in a page) drops them and the table of descriptions.
export const PROOF_FAULT_NAMES = /* @__PURE__ */ Object.keys(PROOF_FAULTS) as ProofFault[];

const active = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  ?.TRACE_PROVE_FAULT;

/** Whether the run switched on `fault`. */
export const faultOn = (fault: ProofFault): boolean => active === fault;
