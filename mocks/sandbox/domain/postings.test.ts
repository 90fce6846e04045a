/** The people sets' operations (lists and bits) equal the same operations on JavaScript Sets, dense and sparse. */
import { describe, expect, it } from "vitest";
import { Prng } from "../data/prng.js";
import { common, count, has, peopleOf, post, union, where, type Bits, type People, type Postings } from "./postings.js";

const SIZE = 300;

describe("people sets", () => {
  const rng = new Prng(7);
  const next = () => rng.uint32() / 4294967296;
  /** An ascending list of people, each present with the given probability. */
  const randomList = (density: number) => Array.from({ length: SIZE }, (_, i) => i).filter(() => next() < density);
  const densities = [0, 0.01, 0.1, 0.5, 0.9, 1];
  const everyone = Array.from({ length: SIZE }, (_, i) => i);

  it("kept and dropped sets, unions, counts, membership and reading in order equal the Set operations", () => {
    let checked = 0;
    for (const da of densities) {
      for (const db of densities) {
        const [a, b, c, d] = [randomList(da), randomList(db), randomList(next()), randomList(next())];
        // Long lists come as the index keeps them (known bits), the others are set one by one: both give the same set.
        const known = new Map<People, Bits>([a, c].map((l) => [l, union(SIZE, [l])]));
        const bits = (l: People) => union(SIZE, [l], known);
        const [inB, inC, inD] = [new Set(b), new Set(c), new Set(d)];
        const expected = a.filter((i) => inB.has(i) && !inC.has(i) && !inD.has(i));
        const set = common(bits(everyone), [known.get(a)!, bits(b)], [bits(c), bits(d)]);
        expect(peopleOf(set)).toEqual(expected);
        expect(count(set)).toBe(expected.length);
        expect(everyone.filter((i) => has(set, i))).toEqual(expected);
        expect(peopleOf(set, 3)).toEqual(expected.slice(0, 3));
        expect(peopleOf(set, Infinity, (i) => i % 2 === 0)).toEqual(expected.filter((i) => i % 2 === 0));
        expect(peopleOf(common(bits(everyone), [], [bits(a)]))).toEqual(everyone.filter((i) => !a.includes(i)));
        const all = new Set([...a, ...b, ...c]);
        expect(peopleOf(union(SIZE, [bits(a), b, c], known))).toEqual([...all].sort((x, y) => x - y));
        // The sets given are never changed.
        expect(peopleOf(known.get(a)!)).toEqual(a);
        checked++;
      }
    }
    expect(checked).toBe(densities.length ** 2);
  });

  it("the edges: first and last person, bit 31 of a word, the last partial word, no sets", () => {
    expect(peopleOf(union(SIZE, []))).toEqual([]);
    expect(peopleOf(union(SIZE, [[SIZE - 1], [0]]))).toEqual([0, SIZE - 1]);
    const edge = union(33, [[31, 32]]);
    expect([peopleOf(edge), count(edge), has(edge, 31), has(edge, 30)]).toEqual([[31, 32], 2, true, false]);
    expect(peopleOf(common(union(33, [[0, 31, 32]]), [], []))).toEqual([0, 31, 32]);
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
      peopleOf(
        union(
          200,
          where(p, (k) => k.startsWith("engineer")),
        ),
      ),
    ).toEqual([3, 4, 9]);
    expect(
      peopleOf(
        union(
          200,
          where(p, (k) => k.startsWith("engine")),
        ),
      ),
    ).toEqual([3, 4, 9, 150]);
    expect(where(p, (k) => k === "missing")).toEqual([]);
  });
});
