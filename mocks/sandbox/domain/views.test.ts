/** Search rows from cached UTF-8 bytes: the same bytes as serializing the row object, for every hydration. */
import { describe, expect, it } from "vitest";
import { fixtureGraph, fixtureGraphInput } from "../data/fixture.js";
import { generatedGraph } from "../data/generate.js";
import { buildGraph, type PersonRecord } from "../data/graph.js";
import type { Match } from "../data/resources.js";
import { Utf8Chunks } from "./utf8-chunks.js";
import { MAX_CACHED_BYTES, rowCacheBytes, rowPerson, writeRowPerson, type RowHydration } from "./views.js";

const decoder = new TextDecoder();

/** The JSON text `writeRowPerson` writes for one row, from its cached bytes. */
function rowPersonJson(rec: PersonRecord, match: Match, hydrate: RowHydration = {}): string {
  const out = new Utf8Chunks();
  writeRowPerson(out, rec, match, hydrate);
  return decoder.decode(out.finish());
}

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

  it("is exact when a row is asked with one match, another, then the first again (its bytes are replaced in place)", () => {
    const rec = fixtureGraph().people[1]!;
    const wide: Match = { company: "Łódź Sp. z o.o. 😀", company_months: 3 };
    for (const match of [MATCHES[1]!, wide, MATCHES[1]!, MATCHES[0]!, wide, MATCHES[2]!, MATCHES[2]!]) {
      expect(rowPersonJson(rec, match, { skills: true })).toBe(JSON.stringify(rowPerson(rec, match, { skills: true })));
    }
  });

  it("a negative control: a different match gives different bytes", () => {
    const rec = fixtureGraph().people[0]!;
    expect(rowPersonJson(rec, { score: 1 })).not.toBe(JSON.stringify(rowPerson(rec, {})));
  });
});

describe("writeRowPerson (the cached bytes of search rows)", () => {
  const encode = (text: string) => Array.from(new TextEncoder().encode(text));
  const bytesOf = (rec: PersonRecord, match: Match, hydrate: RowHydration) => {
    const out = new Utf8Chunks();
    writeRowPerson(out, rec, match, hydrate);
    return Array.from(out.finish());
  };

  it("equal the UTF-8 of JSON.stringify(rowPerson(...)) for every hydration, also for non-Latin-1 texts", () => {
    const input = fixtureGraphInput();
    const texts = { full_name: "Łucja Wróbel 李雷", headline: "Ingénieure 東京 😀 at Zürich Labs" };
    const graph = buildGraph({ ...input, people: input.people.map((p, i) => (i === 0 ? { ...p, ...texts } : p)) });
    const wide = graph.people.filter((rec) =>
      [...JSON.stringify(rowPerson(rec, {}))].some((ch) => ch.charCodeAt(0) > 0xff),
    );
    expect(wide.length).toBeGreaterThan(0);
    for (const rec of graph.people) {
      for (const hydrate of HYDRATIONS) {
        for (const match of [...MATCHES, { company: "Łódź Sp. z o.o. 😀", company_months: 3 }]) {
          const expected = encode(JSON.stringify(rowPerson(rec, match, hydrate)));
          expect(bytesOf(rec, match, hydrate)).toEqual(expected);
          expect(bytesOf(rec, match, hydrate)).toEqual(expected);
        }
      }
    }
  });

  it("keeps the cache under its cap while rows of a large graph are written (every hydration)", () => {
    const graph = generatedGraph({ people: 5000, companies: 320, seed: 20261122 });
    let written = 0;
    let most = 0;
    for (const rec of graph.people.filter((r) => r.idx % 2 === 0)) {
      for (const hydrate of HYDRATIONS) {
        written += bytesOf(rec, {}, hydrate).length;
        most = Math.max(most, rowCacheBytes());
      }
    }
    expect(written).toBeGreaterThan(1.5 * MAX_CACHED_BYTES);
    expect(most).toBeLessThanOrEqual(MAX_CACHED_BYTES);
    expect(most).toBeGreaterThan(MAX_CACHED_BYTES / 2);
  });

  it("a negative control: another record's or hydration's bytes differ", () => {
    const [a, b] = fixtureGraph().people;
    expect(bytesOf(a!, {}, {})).not.toEqual(bytesOf(b!, {}, {}));
    expect(bytesOf(a!, {}, { skills: true })).not.toEqual(bytesOf(a!, {}, {}));
  });
});
