/** No import circle anywhere in the repository (beside the sandbox's layer rule, which checks its own tree). */
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../contract-core/index.js";
import { importCircles, importGraph } from "./import-graph.js";

describe("the repository's import graph", () => {
  it("has no circle", () => {
    const graph = importGraph(REPO_ROOT);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get("contract-core/coverage-marks.ts")).toContain("contract-core/get-validator.ts");
    expect(importCircles(graph)).toEqual([]);
  });

  it("finds a circle of two, a longer one and a self-import, and none in a chain", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["a.ts", "c.ts"]],
      ["c.ts", ["d.ts"]],
      ["d.ts", ["e.ts"]],
      ["e.ts", ["c.ts"]],
      ["self.ts", ["self.ts"]],
      ["chain.ts", ["a.ts"]],
    ]);
    expect(importCircles(graph)).toEqual([["a.ts", "b.ts"], ["c.ts", "d.ts", "e.ts"], ["self.ts"]]);
    expect(
      importCircles(
        new Map([
          ["x.ts", ["y.ts"]],
          ["y.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
});
