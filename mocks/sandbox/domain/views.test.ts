/** Search rows as cached JSON text: the same bytes as serializing the row object, for every hydration. */
import { describe, expect, it } from "vitest";
import { fixtureGraph } from "../data/fixture.js";
import { generatedGraph } from "../data/generate.js";
import type { Match } from "../data/resources.js";
import { rowPerson, rowPersonJson, type RowHydration } from "./views.js";

const HYDRATIONS: RowHydration[] = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({
  skills: (bits & 1) > 0,
  languages: (bits & 2) > 0,
  certifications: (bits & 4) > 0,
}));
const MATCHES: Match[] = [
  {},
  { company: "Northwind Labs", company_months: 68 },
  { score: 3, role_months: 12, roles: [{ family: "engineering", months: 12, scope: "anywhere", company: null }] },
];

describe("rowPersonJson", () => {
  it("equals JSON.stringify(rowPerson(...)) for every fixture person, hydration and match, cached or not", () => {
    for (const rec of fixtureGraph().people) {
      for (const hydrate of HYDRATIONS) {
        for (const match of MATCHES) {
          const expected = JSON.stringify(rowPerson(rec, match, hydrate));
          expect(rowPersonJson(rec, match, hydrate)).toBe(expected);
          expect(rowPersonJson(rec, match, hydrate)).toBe(expected);
        }
      }
    }
  });

  it("stays exact while the cache fills past its cap and starts over (default graph, every hydration)", () => {
    const graph = generatedGraph({ people: 5000, companies: 320, seed: 20261122 });
    const rows = graph.people
      .filter((r) => r.idx % 2 === 0)
      .flatMap((rec) => HYDRATIONS.map((hydrate) => [rec, hydrate] as const));
    const wrong = rows.filter(
      ([rec, hydrate], i) =>
        rowPersonJson(rec, MATCHES[i % 3]!, hydrate) !== JSON.stringify(rowPerson(rec, MATCHES[i % 3]!, hydrate)),
    );
    expect(wrong).toHaveLength(0);
    expect(
      rows.reduce((n, [rec, hydrate]) => n + JSON.stringify(rowPerson(rec, {}, hydrate)).length, 0),
    ).toBeGreaterThan(16_000_000);
  });

  it("a negative control: a different match gives different bytes", () => {
    const rec = fixtureGraph().people[0]!;
    expect(rowPersonJson(rec, { score: 1 })).not.toBe(JSON.stringify(rowPerson(rec, {})));
  });
});
