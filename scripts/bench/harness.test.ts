/** Tests of the bench harness: the statistics and the floor lines every part prints. */
import { describe, expect, it } from "vitest";
import { alternate, floorLine, ratios, summarize, unmeasured } from "./harness.js";

describe("statistics", () => {
  it("summarize gives the median (odd and even counts), min and max, and refuses an empty list", () => {
    expect(summarize([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(summarize([4, 1, 2, 3])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(() => summarize([])).toThrow(/at least one/);
  });

  it("ratios pair values of the same round and refuse lists of different length", () => {
    expect(ratios([2, 9], [1, 3])).toEqual([2, 3]);
    expect(() => ratios([1], [1, 2])).toThrow(/as many/);
  });

  it("alternate runs the contenders in turn, round after round", async () => {
    const order: string[] = [];
    const runs = await alternate(3, {
      a: async () => (order.push("a"), { x: order.length }),
      b: async () => (order.push("b"), { x: -order.length }),
    });
    expect(order).toEqual(["a", "b", "a", "b", "a", "b"]);
    expect(runs).toEqual({ a: { x: [1, 3, 5] }, b: { x: [-2, -4, -6] } });
  });
});

describe("floor lines", () => {
  const value = { median: 2, min: 1, max: 3 };
  it("judge the median against the target in the floor's direction", () => {
    expect(floorLine({ name: "f", value, unit: "x", compare: ">=", target: 2 })).toMatch(/· met$/);
    expect(floorLine({ name: "f", value, unit: "x", compare: ">=", target: 2.1 })).toMatch(/· NOT MET$/);
    expect(floorLine({ name: "f", value, unit: "s", compare: "<=", target: 2 })).toMatch(/· met$/);
    expect(floorLine({ name: "f", value, unit: "s", compare: "<=", target: 1.9 })).toMatch(/· NOT MET$/);
  });

  it("print the name, median (min-max) and the details; a printed figure is not judged", () => {
    expect(floorLine({ name: "f", value, unit: "ms", compare: "print", details: ["old 4 ms"] })).toBe(
      "floor f: median 2 ms (1-3) · old 4 ms",
    );
    expect(unmeasured("f", "size 5000 not run")).toBe("floor f: not measured (size 5000 not run)");
  });
});

describe("where the old commit is checked out", () => {
  it("is where --help and the README say: the system's temporary folder", async () => {
    const { BASE_LOCATION, baseCheckoutDir } = await import("./baseline.js");
    const { BENCH_COMMAND } = await import("../bench.js");
    const { tmpdir } = await import("node:os");
    const { readFileSync } = await import("node:fs");
    expect(BENCH_COMMAND.summary).toContain(BASE_LOCATION);
    expect(readFileSync(new URL("./README.md", import.meta.url), "utf8").replace(/\s+/g, " ")).toContain(BASE_LOCATION);
    expect(baseCheckoutDir("abc1234").startsWith(tmpdir())).toBe(true);
  });
});
