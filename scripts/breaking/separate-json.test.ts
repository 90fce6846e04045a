/** separateJson: which documents the differ may compare as they are (plain JSON, no node in two places). */
import { describe, expect, it } from "vitest";
import { separateJson } from "./separate-json.js";

describe("separateJson", () => {
  const doc = () => JSON.parse('{"a":{"b":[1,"x",true,null,{"c":{}}]},"d":[]}') as Record<string, unknown>;

  it("accepts JSON.parse output and a structured clone beside it", () => {
    const one = doc();
    expect(separateJson(one, structuredClone(one))).toBe(true);
    expect(separateJson({}, [], "x", 1, null)).toBe(true);
  });

  it("refuses a node in two places, within one document or across two", () => {
    const node = { type: "string" };
    expect(separateJson({ a: node, b: node })).toBe(false);
    expect(separateJson({ a: [node, node] })).toBe(false);
    const one = doc();
    expect(separateJson(one, { ...structuredClone(one), a: one.a })).toBe(false);
    expect(separateJson(one, one)).toBe(false);
  });

  it("refuses what a JSON copy would change: undefined, NaN, Infinity, -0, holes, functions, class instances", () => {
    for (const value of [undefined, Number.NaN, Infinity, -0, () => 1, new Date(0), new Map(), 1n, Symbol("s")])
      expect(separateJson({ a: value }), String(value)).toBe(false);
    const holed = [1, 2];
    delete holed[0];
    expect(separateJson({ a: holed })).toBe(false);
    expect(separateJson({ a: Object.create(null) })).toBe(false);
  });

  it("refuses an array with a named key (a JSON copy drops it)", () => {
    expect(separateJson({ a: Object.assign([1], { extra: 2 }) })).toBe(false);
    const holedAndNamed = Object.assign([1, 2], { extra: 3 });
    delete holedAndNamed[0];
    expect(separateJson({ a: holedAndNamed })).toBe(false);
  });
});
