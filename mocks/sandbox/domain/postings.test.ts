/** The people lists' set operations equal the same operations on JavaScript Sets, for dense and sparse lists. */
import { describe, expect, it } from "vitest";
import { Prng } from "../data/prng.js";
import { intersect, post, subtract, union, where, type Postings } from "./postings.js";

const SIZE = 300;

describe("people lists", () => {
  const rng = new Prng(7);
  const next = () => rng.uint32() / 4294967296;
  /** An ascending list of people, each present with the given probability. */
  const randomList = (density: number) => Array.from({ length: SIZE }, (_, i) => i).filter(() => next() < density);
  const densities = [0, 0.01, 0.1, 0.5, 0.9, 1];

  it("intersect, subtract and union equal the Set operations (ascending, no repeats, every density)", () => {
    let checked = 0;
    for (const da of densities) {
      for (const db of densities) {
        const a = randomList(da);
        const b = randomList(db);
        const c = randomList(next());
        const inB = new Set(b);
        expect(intersect(a, b)).toEqual(a.filter((i) => inB.has(i)));
        expect(subtract(a, b)).toEqual(a.filter((i) => !inB.has(i)));
        const all = new Set([...a, ...b, ...c]);
        expect(union(SIZE, [a, b, c])).toEqual([...all].sort((x, y) => x - y));
        checked++;
      }
    }
    expect(checked).toBe(densities.length ** 2);
  });

  it("the edges: first and last person, empty lists, a single list", () => {
    expect(intersect([0, 5, SIZE - 1], [0, SIZE - 1])).toEqual([0, SIZE - 1]);
    expect(subtract([0, 5, SIZE - 1], [0, SIZE - 1])).toEqual([5]);
    expect(subtract([0, 5], [])).toEqual([0, 5]);
    expect(intersect([], [1, 2])).toEqual([]);
    expect(union(SIZE, [])).toEqual([]);
    const only = [3, 4];
    expect(union(SIZE, [only])).toBe(only);
    expect(union(SIZE, [[SIZE - 1], [0]])).toEqual([0, SIZE - 1]);
  });

  it("posting lists: graph order, one entry per person and key, lookups by any accepted key", () => {
    const p: Postings = new Map();
    post(p, "engineer", 3);
    post(p, "engineer", 3);
    post(p, "engineering", 4);
    post(p, "engineer", 9);
    post(p, "engine", 150);
    expect(p.get("engineer")).toEqual([3, 9]);
    expect(where(200, p, (k) => k.startsWith("engineer"))).toEqual([3, 4, 9]);
    expect(where(200, p, (k) => k.startsWith("engine"))).toEqual([3, 4, 9, 150]);
    expect(where(200, p, (k) => k === "missing")).toEqual([]);
  });
});
