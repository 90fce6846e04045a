// The allowlist: its entries name real checks and operations with an issue item, and the matcher lets
// through only what an entry names (check, operation, server and mutation), reporting unused entries.
import { describe, expect, test } from "vitest";
import { CHECKS } from "./checks.js";
import { DEFAULT_SPEC_PATH } from "../../contract-core/index.js";
import { compareWithKnown, loadKnownFailures, type KnownFailure } from "./known-failures.js";
import { loadOperations } from "./operations.js";
import type { FuzzFailure, FuzzReport } from "./runner.js";

const failure = (over: Partial<FuzzFailure> & { mutation?: string }): FuzzFailure => ({
  check: "not_a_server_error",
  operationId: "getPerson",
  status: 500,
  message: "server error 500",
  count: 1,
  request: {
    index: 0,
    method: "GET",
    path: "/people/%ZZ",
    auth: "bearer",
    intent: over.mutation ? "invalid" : "valid",
    ...(over.mutation ? { mutation: over.mutation } : {}),
  },
  curl: "curl …",
  ...over,
});
const report = (failures: FuzzFailure[]) => ({ failures }) as FuzzReport;
const entry: KnownFailure = {
  target: "mock",
  check: "not_a_server_error",
  operationId: "getPerson",
  mutation: "bad_percent_encoding path",
  issue: "issue 15 item 5",
  why: "test",
};

describe("compareWithKnown", () => {
  test("a listed failure is expected, and the entry is in use", () => {
    expect(
      compareWithKnown(report([failure({ mutation: "bad_percent_encoding path slug" })]), "mock", [entry]),
    ).toEqual({ unexpected: [], stale: [] });
  });

  test.each([
    ["another server", "sandbox", failure({ mutation: "bad_percent_encoding path slug" })],
    ["another check", "mock", failure({ check: "error_shape", mutation: "bad_percent_encoding path slug" })],
    ["another operation", "mock", failure({ operationId: "getList", mutation: "bad_percent_encoding path id" })],
    ["another mutation", "mock", failure({ mutation: "huge_value path slug=x" })],
    ["a request built valid", "mock", failure({})],
  ] as const)("a failure on %s is unexpected", (_, target, f) => {
    expect(compareWithKnown(report([f]), target, [entry]).unexpected).toEqual([f]);
  });

  test("an entry with mutation null matches only requests built valid", () => {
    const valid: KnownFailure = { ...entry, mutation: null };
    expect(compareWithKnown(report([failure({})]), "mock", [valid]).unexpected).toEqual([]);
    expect(
      compareWithKnown(report([failure({ mutation: "bad_percent_encoding path slug" })]), "mock", [valid]).unexpected,
    ).toHaveLength(1);
  });

  test("an entry that matches nothing is stale", () => {
    expect(compareWithKnown(report([]), "mock", [entry]).stale).toEqual([entry]);
  });
});

test("every entry of known-failures.json names a check, an operation of the spec, a mutation and an issue item", () => {
  const operations = new Set(loadOperations(DEFAULT_SPEC_PATH).operations.map((op) => op.operationId));
  for (const known of loadKnownFailures()) {
    expect(["mock", "sandbox"]).toContain(known.target);
    expect(CHECKS).toContain(known.check);
    expect(operations).toContain(known.operationId);
    expect(known.mutation === null || /^[a-z_]+ /.test(known.mutation)).toBe(true);
    expect(known.issue).not.toBe("");
    expect(known.why).not.toBe("");
  }
});
