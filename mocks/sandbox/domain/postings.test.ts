/** The people sets' operations (lists and bits) equal the same operations on JavaScript Sets, dense and sparse. */
import { describe, expect, it } from "vitest";
import { Prng } from "../data/prng.js";
import {
  common,
  count,
  intersect,
  peopleOf,
  post,
  subtract,
  union,
  where,
  type Bits,
  type People,
  type Postings,
} from "./postings.js";

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
        expect(peopleOf(union(SIZE, [a, b, c]))).toEqual([...all].sort((x, y) => x - y));
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
    expect(peopleOf(union(SIZE, []))).toEqual([]);
    expect(peopleOf(union(SIZE, [[SIZE - 1], [0]]))).toEqual([0, SIZE - 1]);
    // Bit 31 of a word (the sign bit of a 32-bit integer) and the last, partial word.
    expect(peopleOf(union(33, [[31, 32]]))).toEqual([31, 32]);
    expect(count(union(33, [[31, 32]]))).toBe(2);
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

  it("bits: kept and dropped sets, counts and reading in order equal the Set operations (every density)", () => {
    const everyone = Array.from({ length: SIZE }, (_, i) => i);
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
        expect(peopleOf(set, 3)).toEqual(expected.slice(0, 3));
        expect(peopleOf(set, Infinity, (i) => i % 2 === 0)).toEqual(expected.filter((i) => i % 2 === 0));
        expect(peopleOf(common(bits(everyone), [], [bits(a)]))).toEqual(subtract(everyone, a));
        const all = new Set([...a, ...b, ...c]);
        expect(peopleOf(union(SIZE, [bits(a), b, c], known))).toEqual([...all].sort((x, y) => x - y));
        // The sets given are never changed.
        expect(peopleOf(known.get(a)!)).toEqual(a);
      }
    }
  });
});
