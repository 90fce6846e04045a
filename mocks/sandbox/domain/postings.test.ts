/** Counting and paging a conjunction of sets in one pass equals listing it and slicing, for every slot layout. */
import { describe, expect, it } from "vitest";
import { Prng } from "../data/prng.js";
import { countAndPage, forEachMemberOfAll, fullSet, MAX_ALL, MAX_ANY, setOf, type Conjunction } from "./postings.js";

const SIZE = 1000;

function randomSet(next: () => number, density: number): number[] {
  const members: number[] = [];
  for (let i = 0; i < SIZE; i++) if (next() < density) members.push(i);
  return members;
}

/** The reference: members of every `all` list and (when given) of any `any` list, ascending. */
function listed(all: number[][], any: number[][]): number[] {
  const out: number[] = [];
  for (let i = 0; i < SIZE; i++) {
    if (all.every((m) => m.includes(i)) && (any.length === 0 || any.some((m) => m.includes(i)))) out.push(i);
  }
  return out;
}

describe("countAndPage and forEachMemberOfAll", () => {
  it("equal the listed conjunction for 1..4 ANDed and 0..3 ORed sets, every page and count bound", () => {
    const rng = new Prng(7);
    const next = () => rng.uint32() / 4294967296;
    let checked = 0;
    for (let nAll = 1; nAll <= MAX_ALL; nAll++) {
      for (let nAny = 0; nAny <= MAX_ANY; nAny++) {
        const all = Array.from({ length: nAll }, () => randomSet(next, 0.3 + 0.6 * next()));
        const any = Array.from({ length: nAny }, () => randomSet(next, 0.1 + 0.3 * next()));
        const c: Conjunction = { all: all.map((m) => setOf(SIZE, m)), any: any.map((m) => setOf(SIZE, m)) };
        const members = listed(all, any);
        const visited: number[] = [];
        forEachMemberOfAll(c, (idx) => visited.push(idx));
        expect(visited).toEqual(members);
        expect(countAndPage(c, 0, 0).count).toBe(members.length);
        for (const [offset, limit] of [
          [0, 25],
          [3, 1],
          [members.length - 2, 10],
          [members.length + 5, 25],
        ] as const) {
          const page = countAndPage(c, offset, limit);
          expect(page).toEqual({ count: members.length, members: members.slice(offset, offset + limit) });
          // Counting may stop at the bound, but never before the page is taken.
          const bounded = countAndPage(c, offset, limit, 10);
          expect(bounded.members).toEqual(page.members);
          expect(bounded.count).toBeGreaterThanOrEqual(Math.min(10, members.length));
          expect(bounded.count).toBeLessThanOrEqual(members.length);
          checked++;
        }
      }
    }
    expect(checked).toBe(MAX_ALL * (MAX_ANY + 1) * 4);
  });

  it("stops counting at the bound once the page is taken, and counts exactly below it", () => {
    const c: Conjunction = { all: [fullSet(SIZE)], any: [] };
    expect(countAndPage(c, 0, 5, 100).count).toBeLessThan(SIZE);
    expect(countAndPage(c, 0, 5, 100).count).toBeGreaterThanOrEqual(100);
    expect(countAndPage(c, 0, 5).count).toBe(SIZE);
    expect(countAndPage({ all: [setOf(SIZE, [1, 500])], any: [] }, 0, 5, 100).count).toBe(2);
  });

  it("never yields a person beyond the graph (unused slots read all ones)", () => {
    expect(countAndPage({ all: [fullSet(70)], any: [] }, 0, 100).members).toEqual(
      Array.from({ length: 70 }, (_, i) => i),
    );
    expect(countAndPage({ all: [fullSet(70)], any: [setOf(70, [3]), setOf(70, [69])] }, 0, 100).members).toEqual([
      3, 69,
    ]);
  });

  it("a negative control: refuses a conjunction without an ANDed set or with too many sets", () => {
    const s = setOf(70, [1]);
    expect(() => countAndPage({ all: [], any: [s, s] }, 0, 1)).toThrow(/ANDed/);
    expect(() => countAndPage({ all: Array(MAX_ALL + 1).fill(s), any: [] }, 0, 1)).toThrow(/ANDed/);
    expect(() => countAndPage({ all: [s], any: Array(MAX_ANY + 1).fill(s) }, 0, 1)).toThrow(/ORed/);
  });
});
