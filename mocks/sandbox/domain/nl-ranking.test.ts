/**
 * nl search ranks title matches first: people whose current position is in the role family the nl text
 * names come before people who only held such a role in the past (role_family itself is career-wide).
 */
import { describe, expect, it } from "vitest";
import { generatedGraph } from "../data/generate.js";
import type { PersonRecord } from "../data/graph.js";
import { DEFAULT_OPTIONS } from "../contract/options.js";
import { parseSearch, searchPage, searchPeople } from "./search.js";

const graph = generatedGraph(DEFAULT_OPTIONS);
const holdsNow = (rec: PersonRecord, family: string) => rec.stints.some((s) => s.current && s.familyLc === family);

describe("nl ranking", () => {
  it("nl=staff engineers in Berlin ranks an engineering title first", () => {
    const { filters } = parseSearch({ nl: "staff engineers in Berlin" }, graph);
    const first = searchPage(graph, filters, 0, 1).hits[0]!;
    expect(first.record.stints.find((s) => s.current)?.title).toMatch(/^Staff .*Engineer/);
    expect(holdsNow(first.record, "engineering")).toBe(true);
  });

  it.each(["engineers in Berlin", "staff engineers in Berlin", "data scientists in Germany", "designers"])(
    "nl=%s: every current title in the family comes before the others, pages agree with the whole order",
    (nl) => {
      const { filters } = parseSearch({ nl }, graph);
      const all = searchPeople(graph, filters);
      const ranks = all.map((h) => (holdsNow(h.record, filters.roleFamily!) ? 0 : 1));
      expect(ranks).toContain(0);
      expect(ranks).toContain(1);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      const page = searchPage(graph, filters, 2, 5);
      expect(page.total).toBe(all.length);
      expect(page.hits.map((h) => h.record.idx)).toEqual(all.slice(2, 7).map((h) => h.record.idx));
    },
  );

  it.each(["engineers in Berlin", "designers with 5 years of experience", "CTOs"])(
    "nl=%s: every page, across the two parts and with a count cap, is a slice of the whole order",
    (nl) => {
      const { filters } = parseSearch({ nl }, graph);
      const all = searchPeople(graph, filters).map((h) => h.record.idx);
      const holders = all.filter((i) => holdsNow(graph.people[i]!, filters.roleFamily!)).length;
      for (const offset of [0, holders - 3, holders - 1, holders, holders + 2, all.length - 2, all.length + 5]) {
        for (const cap of [Infinity, 5, holders, holders + 1]) {
          const page = searchPage(graph, filters, Math.max(0, offset), 7, cap);
          const from = Math.max(0, offset);
          expect(page.hits.map((h) => h.record.idx)).toEqual(all.slice(from, from + 7));
          if (cap === Infinity) expect(page.total).toBe(all.length);
          else if (cap >= all.length) expect(page.total).toBe(all.length);
          else expect(page.total).toBeGreaterThanOrEqual(cap);
        }
      }
    },
  );

  it("an explicit role_family without nl keeps graph order", () => {
    const { filters } = parseSearch({ role_family: "engineering", location: "Berlin" }, graph);
    const idx = searchPeople(graph, filters).map((h) => h.record.idx);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(filters.rankFamily).toBeUndefined();
  });
});
