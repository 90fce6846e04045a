/** The people lists' operations (any, every) equal the same operations on JavaScript Sets, dense and sparse. */
import { describe, expect, it } from "vitest";
import { Prng } from "../data/prng.js";
import { intersect, post, union, where, type Postings } from "./postings.js";

const SIZE = 300;

describe("people lists", () => {
  const rng = new Prng(7);
  const next = () => rng.uint32() / 4294967296;
  /** An ascending list of people, each present with the given probability. */
  const randomList = (density: number) => Array.from({ length: SIZE }, (_, i) => i).filter(() => next() < density);
  const densities = [0, 0.01, 0.1, 0.5, 0.9, 1];

  it("union and intersect equal the Set operations, ascending, and never change the lists given", () => {
    let checked = 0;
    for (const da of densities) {
      for (const db of densities) {
        const [a, b, c] = [randomList(da), randomList(db), randomList(next())];
        const copies = [a, b, c].map((l) => [...l]);
        const [inB, inC] = [new Set(b), new Set(c)];
        expect(intersect([a, b, c])).toEqual(a.filter((i) => inB.has(i) && inC.has(i)));
        expect(union(SIZE, [a, b, c])).toEqual([...new Set([...a, ...b, ...c])].sort((x, y) => x - y));
        expect([a, b, c]).toEqual(copies);
        checked++;
      }
    }
    expect(checked).toBe(densities.length ** 2);
  });

  it("the edges: no lists, one list, the first and last person", () => {
    expect(intersect([])).toBeUndefined();
    expect(intersect([[1, 2]])).toEqual([1, 2]);
    expect(union(SIZE, [])).toEqual([]);
    expect(union(SIZE, [[SIZE - 1], [0]])).toEqual([0, SIZE - 1]);
    expect(intersect([[0, SIZE - 1], [SIZE - 1]])).toEqual([SIZE - 1]);
  });

  it("posting lists: graph order, one entry per person and key, lookups by any accepted key", () => {
    const p: Postings = new Map();
    post(p, "engineer", 3);
    post(p, "engineer", 3);
    post(p, "engineering", 4);
    post(p, "engineer", 9);
    post(p, "engine", 150);
    expect(p.get("engineer")).toEqual([3, 9]);
    expect(
      union(
        200,
        where(p, (k) => k.startsWith("engineer")),
      ),
    ).toEqual([3, 4, 9]);
    expect(
      union(
        200,
        where(p, (k) => k.startsWith("engine")),
      ),
    ).toEqual([3, 4, 9, 150]);
    expect(where(p, (k) => k === "missing")).toEqual([]);
  });
});
