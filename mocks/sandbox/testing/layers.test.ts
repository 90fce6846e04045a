/** The layer rule holds on the sandbox, and fails on a fixture with an upward import, a cycle and a Node import in the core. */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayers, importsOf, layerOf } from "./layers.js";

const SANDBOX = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/layers", import.meta.url));

describe("sandbox layers", () => {
  it("the tree has no upward import, no cycle, no unlayered file, and a browser-safe core", () => {
    const report = checkLayers(SANDBOX);
    expect(report.upward).toEqual([]);
    expect(report.cycles.map((c) => c.join(" -> "))).toEqual([]);
    expect(report.unlayered).toEqual([]);
    expect(report.notBrowserSafe).toEqual([]);
    expect(report.deepCoreImports).toEqual([]);
  });

  it("fails on the fixture's upward import, cycle, Node import reached from the core and deep contract-core import", () => {
    const report = checkLayers(FIXTURE);
    expect(report.upward).toEqual([
      "core.ts (core) imports state-file.ts (hosts)",
      "data/graph.ts (data generation) imports domain/search.ts (read-side domain)",
    ]);
    expect(report.cycles).toEqual([["data/graph.ts", "domain/search.ts", "data/graph.ts"]]);
    expect(report.notBrowserSafe).toEqual(["core.ts reaches node:fs through state-file.ts"]);
    expect(report.deepCoreImports).toEqual(["prefer.ts imports contract-core/prefer.ts"]);
  });

  it("reads static, re-export, side-effect and dynamic imports, and skips commented-out ones", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      'export { c } from "./c.js";',
      'import "./d.js";',
      'const e = await import("./e.js");',
      '// import { f } from "./f.js";',
      '/* import { g } from "./g.js"; */',
    ].join("\n");
    expect(importsOf(source)).toEqual(
      ["./a.js", "../b.js", "./c.js", "./e.js", "./d.js"].sort((x, y) => source.indexOf(x) - source.indexOf(y)),
    );
  });

  it("orders the layers from data generation up to the hosts", () => {
    expect(layerOf("data/graph.ts")).toBeLessThan(layerOf("domain/search.ts"));
    expect(layerOf("domain/search.ts")).toBeLessThan(layerOf("stateful/lists.ts"));
    expect(layerOf("stateful/lists.ts")).toBeLessThan(layerOf("core.ts"));
    expect(layerOf("core.ts")).toBeLessThan(layerOf("server.ts"));
    expect(layerOf("unknown.ts")).toBe(-1);
  });
});
