// The hints `npm run typecheck` prints before tsc's output: checked on tsc's real output for a spec change that
// added `color` to List's required keys (fixtures/tsc-missing-property.txt), and on errors they must not explain.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { houseRuleHints } from "./typecheck-hints.js";

const MISSING = readFileSync(new URL("./fixtures/tsc-missing-property.txt", import.meta.url), "utf8");

describe("houseRuleHints", () => {
  it("names the rule, the place and the key, once per place, for a required key the code does not produce", () => {
    const hints = houseRuleHints(MISSING);
    expect(hints).toHaveLength(2);
    expect(hints[0]).toMatch(/^house rule \(spec\/DECISIONS\.md 1: every key a resource names is required\): /);
    expect(hints.map((h) => /: (\S+:\d+) does not produce `color`/.exec(h)?.[1])).toEqual([
      "mocks/sandbox/areas/lists.ts:56",
      "mocks/sandbox/areas/lists.ts:141",
    ]);
    expect(hints[0]).toContain("produce it there, or");
  });

  it("says nothing about other type errors", () => {
    expect(houseRuleHints("client/x.ts(3,1): error TS2304: Cannot find name 'foo'.\n")).toEqual([]);
    expect(houseRuleHints("")).toEqual([]);
  });
});
