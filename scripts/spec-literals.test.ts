/**
 * No numeric literal in mocks/ or client/ source equals a default, bound or clamp the spec gives the parameter
 * or property the line names, unless ALLOWED says why. The checker is shown firing on the literals the code
 * used to keep (the page sizes, clamps and caps now read from the spec).
 */
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../contract-core/index.js";
import { findSpecLiterals, scanSpecLiterals, specNumbers } from "./spec-literals.js";

/** file, the value and why the line keeps it (a number that only looks like the spec's). */
const ALLOWED: { file: string; value: number; why: string }[] = [
  {
    file: "mocks/sandbox/areas/account.ts",
    value: 100,
    why: "GET /me's daily_uniques.limit of a trial organization, not the page-size bound of a `limit` parameter",
  },
  {
    file: "mocks/sandbox/areas/lists.ts",
    value: 500,
    why: "POST /lists/{id}/members' urls (a shape the spec does not show), not SetMemberStatusRequest.urls",
  },
];

describe("spec-held numbers are not written again in code", () => {
  it("mocks/ and client/ source keeps none outside the allow-list", () => {
    const hits = scanSpecLiterals(REPO_ROOT).filter(
      (h) => !ALLOWED.some((a) => a.file === h.file && a.value === h.value),
    );
    expect(hits.map((h) => `${h.file}:${h.line} ${h.value} (${h.name}): ${h.text}`)).toEqual([]);
  });

  it("every allow-list entry still matches a line (a stale entry is removed)", () => {
    const hits = scanSpecLiterals(REPO_ROOT);
    for (const a of ALLOWED)
      expect(
        hits.some((h) => h.file === a.file && h.value === a.value),
        a.file,
      ).toBe(true);
  });

  it("fires on the literals the code used to keep, and not on comments, strings or other names", () => {
    const before = [
      '    limit: typeof params.limit === "number" ? params.limit : 25,',
      "const MEMBER_LIMIT_DEFAULT = 50;",
      "const MEMBER_LIMIT_MAX = 500;",
      "  const limit = Math.min(500, Math.max(1, query.limit ?? 50));",
      "export const RESULT_LIMIT_CAP = 4000;",
      "const MAX_EMAILS = 20;",
      "export function requiredName(value: unknown, max = 80): string {",
      "next.slack_channel_id = channel(body.slack_channel_id, 64);",
    ].join("\n");
    const hits = findSpecLiterals("old.ts", before);
    expect(hits.map((h) => `${h.line}:${h.value}`)).toEqual(
      expect.arrayContaining(["1:25", "2:50", "3:500", "4:500", "4:50", "5:4000", "6:20", "7:80", "8:64"]),
    );
    const quiet = ["// the page size, default 25", ' throw invalidRequest("limit is 25");', "const retries = 25;"];
    expect(findSpecLiterals("new.ts", quiet.join("\n"))).toEqual([]);
  });

  it("reads the spec's numbers, clamps included", () => {
    const numbers = specNumbers();
    expect(numbers.get("limit")).toContain(500);
    expect(numbers.get("resultlimit")).toContain(4000);
    expect(numbers.get("limit")?.has(1)).toBe(false);
  });
});
