/**
 * The layer rule holds on the sandbox, and fails on each negative fixture (testing/fixtures/layers/<rule>/, each a
 * small tree shaped like the sandbox that breaks one rule).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayers, importsOf, rankOf } from "./layers.js";

const SANDBOX = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name: string) => checkLayers(fileURLToPath(new URL(`./fixtures/layers/${name}`, import.meta.url)));

describe("sandbox layers", () => {
  it("the tree has no upward or sideways import, no cycle, no unlayered file, no tooling import, a browser-safe core", () => {
    const report = checkLayers(SANDBOX);
    expect(report.upward).toEqual([]);
    expect(report.sideways).toEqual([]);
    expect(report.cycles.map((c) => c.join(" -> "))).toEqual([]);
    expect(report.unlayered).toEqual([]);
    expect(report.notBrowserSafe).toEqual([]);
    expect(report.deepCoreImports).toEqual([]);
    expect(report.toolingImports).toEqual([]);
  });

  it("fails on an upward import that closes a cycle", () => {
    const report = fixture("upward-cycle");
    expect(report.upward).toEqual(["data/graph.ts (data generation) imports domain/search.ts (read-side domain)"]);
    expect(report.cycles).toEqual([["data/graph.ts", "domain/search.ts", "data/graph.ts"]]);
  });

  it("fails on the core reaching a Node built-in through the Node host", () => {
    const report = fixture("node-in-core");
    expect(report.upward).toEqual(["core/core.ts (core) imports hosts/node/node-state-storage.ts (Node host)"]);
    expect(report.notBrowserSafe).toEqual(["core/core.ts reaches node:fs through hosts/node/node-state-storage.ts"]);
  });

  it("fails on a browser-safe layer importing contract-core by a deep path", () => {
    expect(fixture("deep-core").deepCoreImports).toEqual(["core/prefer.ts imports contract-core/prefer.ts"]);
  });

  it("fails on the MSW host importing the Node host", () => {
    expect(fixture("sideways").sideways).toEqual(["hosts/msw/msw.ts (MSW host) imports hosts/node/cli.ts (Node host)"]);
  });

  it("fails on a shipped module importing scripts/, examples/ or a test folder", () => {
    expect(fixture("tooling").toolingImports).toEqual([
      "areas/lists.ts imports testing/harness.ts",
      "contract/spec.ts imports scripts/bench/harness.ts",
      "contract/spec.ts imports examples/sandbox-session.ts",
    ]);
  });

  it("fails on a source file outside every layer", () => {
    expect(fixture("unlayered").unlayered).toEqual(["stray.ts"]);
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

  it("ranks the layers from the error vocabulary up to the entry, the two hosts side by side", () => {
    const order = ["contract/errors.ts", "data/graph.ts", "domain/search.ts", "contract/context.ts", "areas/lists.ts"];
    order.push("core/core.ts", "hosts/seed-state.ts", "hosts/node/server.ts", "start.ts");
    const ranks = order.map(rankOf);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    expect(new Set(ranks).size).toBe(order.length);
    expect(rankOf("hosts/msw/msw.ts")).toBe(rankOf("hosts/node/server.ts"));
    expect(rankOf("unknown.ts")).toBe(-1);
  });
});
