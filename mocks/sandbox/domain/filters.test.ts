/**
 * The filter table's index lookups only narrow the work: on random queries over the generated graph
 * (fast-check: 2-5 filters drawn from the golden value pools, include_flagged, paging), the search through
 * the lookups answers exactly what testing every person with the predicate answers: total, rows, order,
 * match and score. A lookup that leaves out someone who passes fails here, with the query that shows it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generatedGraph } from "../data/generate.js";
import { POOLS, type Params } from "../testing/golden-queries.js";
import { FILTERS, isFilter, QUERY_KEYS, type FilterKey } from "./filters.js";
import { candidatesOf, parseSearch, passes, searchPage, type Hit, type SearchFilters } from "./search.js";

const GRAPH = generatedGraph({ people: 5000, companies: 320, seed: 20261122 });

/** The predicate on every person: graph order, then (with keywords) the keyword score. */
function everyPerson(f: SearchFilters): number[] {
  return GRAPH.people.filter((rec) => passes(rec, f, GRAPH.todayMonth)).map((rec) => rec.idx);
}

const view = (hits: Hit[]) => hits.map((h) => ({ idx: h.record.idx, match: h.match, score: h.score }));

const query = fc.uniqueArray(fc.constantFrom(...Object.keys(POOLS)), { minLength: 2, maxLength: 5 }).chain((keys) =>
  fc.record({
    filters: fc.tuple(...keys.map((key) => fc.constantFrom(...POOLS[key]!))).map((values) => {
      const params: Params = Object.fromEntries(keys.map((key, i) => [key, values[i]!]));
      return params;
    }),
    include_flagged: fc.boolean(),
    offset: fc.nat(40),
    limit: fc.integer({ min: 1, max: 30 }),
  }),
);

describe("index lookups = the predicate on every person (random queries)", () => {
  it("candidates hold every person who passes; pages, totals and capped totals agree", () => {
    fc.assert(
      fc.property(query, ({ filters: params, include_flagged, offset, limit }) => {
        let f: SearchFilters;
        try {
          f = parseSearch({ ...params, include_flagged }, GRAPH).filters;
        } catch {
          return; // a 400 (too many terms, an empty list): nothing to search
        }
        const expected = everyPerson(f);
        const candidates = new Set(candidatesOf(GRAPH, f) ?? GRAPH.people.map((rec) => rec.idx));
        expect(expected.filter((idx) => !candidates.has(idx))).toEqual([]);
        const all = searchPage(GRAPH, f, 0, Infinity);
        expect(all.total).toBe(expected.length);
        expect(all.hits.map((h) => h.record.idx).sort((a, b) => a - b)).toEqual(expected);
        const page = searchPage(GRAPH, f, offset, limit);
        expect(view(page.hits)).toEqual(view(all.hits.slice(offset, offset + limit)));
        const capped = searchPage(GRAPH, f, offset, limit, 10);
        expect(view(capped.hits)).toEqual(view(page.hits));
        expect(capped.total).toBeGreaterThanOrEqual(Math.min(10, expected.length));
        expect(capped.total).toBeLessThanOrEqual(expected.length);
      }),
      { numRuns: 300, seed: 20261128 },
    );
  });
});

describe("the filter table", () => {
  it("every key another entry reads names a filter entry; the query keys are the table's, in its order", () => {
    const entries = Object.entries(FILTERS) as [FilterKey, (typeof FILTERS)[FilterKey]][];
    const readers = entries.flatMap(([key, entry]) => ("readBy" in entry ? [[key, entry.readBy] as const] : []));
    expect(readers.filter(([, by]) => by !== "effective query" && !isFilter(FILTERS[by]))).toEqual([]);
    expect(QUERY_KEYS).toEqual(entries.map(([key]) => key));
  });

  it("a filter's parse writes its part; an unused filter's test passes everyone", () => {
    const none = parseSearch({}, GRAPH).filters;
    expect(GRAPH.people.filter((rec) => passes(rec, { ...none, includeFlagged: true }, GRAPH.todayMonth))).toHaveLength(
      GRAPH.people.length,
    );
    expect(parseSearch({ skill: "Python", skill_match: "all" }, GRAPH).filters.skills).toEqual({
      terms: ["python"],
      mode: "all",
    });
  });
});
