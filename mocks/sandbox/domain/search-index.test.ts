/**
 * The indexes only narrow the work: for every filter set, the indexed search (searchPeople, searchPage)
 * returns exactly what the exact predicate gives over every person (matchPerson on the whole graph),
 * hits, order, match and score. Checked on the generated default graph and on the hand-made fixture.
 */
import { describe, expect, it } from "vitest";
import { fixtureGraph } from "../data/fixture.js";
import { generatedGraph } from "../data/generate.js";
import type { Graph } from "../data/graph.js";
import { ApiError } from "../contract/errors.js";
import { mixedParams, singleParams, type Params } from "../testing/golden-queries.js";
import { containsPhrase, hasWordPrefix, leadingRun, wordRuns } from "../data/text.js";
import { similarAmong, similarTo } from "./people.js";
import { matchPerson, parseSearch, searchPage, searchPeople, type Hit, type SearchFilters } from "./search.js";

// Each graph is built once per file and only read by the tests.
const DEFAULT = generatedGraph({ people: 5000, companies: 320, seed: 20261122 });
const FIXTURE = fixtureGraph();

/** The reference: the exact predicate on every person, graph order, then keyword score. */
function bruteForce(graph: Graph, f: SearchFilters): Hit[] {
  const hits = graph.people.map((rec) => matchPerson(rec, f, graph.todayMonth)).filter((h): h is Hit => h !== null);
  return f.keywords.length > 0 ? hits.sort((a, b) => b.score - a.score || a.record.idx - b.record.idx) : hits;
}

const view = (hits: Hit[]) => hits.map((h) => ({ idx: h.record.idx, match: h.match, score: h.score }));

function filtersOf(graph: Graph, params: Params): SearchFilters | null {
  try {
    return parseSearch(params, graph).filters;
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return null;
    throw e;
  }
}

/** Differences between the indexed search and the reference for one filter set (empty when they agree). */
function compare(graph: Graph, params: Params): string[] {
  const f = filtersOf(graph, params);
  if (f === null) return [];
  const expected = view(bruteForce(graph, f));
  const problems: string[] = [];
  if (JSON.stringify(view(searchPeople(graph, f))) !== JSON.stringify(expected))
    problems.push(`searchPeople ${JSON.stringify(params)}`);
  for (const [offset, limit] of [
    [0, 25],
    [Number(params.offset ?? 7), Number(params.limit ?? 5)],
    [expected.length - 3, 10],
  ] as const) {
    const start = Math.max(0, offset);
    const page = searchPage(graph, f, start, limit);
    if (
      page.total !== expected.length ||
      JSON.stringify(view(page.hits)) !== JSON.stringify(expected.slice(start, start + limit))
    ) {
      problems.push(`searchPage(${start}, ${limit}) ${JSON.stringify(params)}`);
    }
    // Counting may stop at `countUpTo` (as an answer's capped total does): the page stays the same.
    const capped = searchPage(graph, f, start, limit, 10);
    const counted = capped.total === expected.length || (capped.total >= 10 && capped.total <= expected.length);
    if (!counted || JSON.stringify(view(capped.hits)) !== JSON.stringify(expected.slice(start, start + limit)))
      problems.push(`searchPage(${start}, ${limit}, countUpTo 10) ${JSON.stringify(params)}`);
  }
  return problems;
}

describe("indexed search = exact predicate over every person", () => {
  const cases = [
    ...singleParams(),
    ...mixedParams(4, 7),
    {},
    { include_flagged: true },
    { nl: "senior engineers in Berlin or Munich" },
    // Skill terms whose words, not the phrase, are in headlines ("principal software engineer at ...").
    { skill: "engineer principal" },
    { skills: "analyst data;sql", skill_match: "all" },
    // A term holding the skill text's separator matches across two parts (two adjacent skills).
    { skills: "python\u0001sql" },
    { skills: "python\u0001sql", min_company_months: 1 },
    // Two keywords, each in a name or a headline or both: the order of the scores (name 2, headline 1).
    { keywords: "s a" },
  ];

  it("on the default graph (every single filter and about 100 fixed-seed mixes)", () => {
    let evaluated = 0;
    const problems: string[] = [];
    for (const params of cases) {
      if (filtersOf(DEFAULT, params)) evaluated++;
      problems.push(...compare(DEFAULT, params));
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(evaluated).toBeGreaterThan(cases.length * 0.9);
  });

  it("a kept place set is never changed by the searches that narrow it", () => {
    // include_flagged: the place set is the first set of the plan, the one later filters would narrow in place.
    const europe = { location: "Europe", include_flagged: true };
    const narrowed = [
      { ...europe, languages: "English" },
      { ...europe, role_family: "design" },
      { ...europe, exclude_locations: "Germany" },
    ];
    const problems = [
      ...compare(DEFAULT, europe),
      ...narrowed.flatMap((params) => compare(DEFAULT, params)),
      ...compare(DEFAULT, europe),
    ];
    expect(problems).toEqual([]);
    const total = (params: Params) => searchPage(DEFAULT, filtersOf(DEFAULT, params)!, 0, 1).total;
    expect(total(europe)).toBeGreaterThan(total(narrowed[1]!));
  });

  it("plans with exclusions, unions and many intersected lists find the same people", () => {
    const heavy: Params[] = [
      { exclude_locations: "Europe", include_flagged: true },
      { skills: "python;go", include_flagged: true },
      { exclude_languages: "english;german" },
      {
        location: "Europe",
        role_family: "engineering",
        skills: "python;go;kubernetes",
        languages: "english;german",
        open_to_work: false,
        exploring: false,
        between_roles: false,
      },
      {
        languages: "english;german;french;spanish",
        skills: "python;go",
        codehost_hireable: true,
        school: "university",
      },
    ];
    expect(heavy.flatMap((params) => compare(DEFAULT, params))).toEqual([]);
    expect(heavy.map((params) => searchPage(DEFAULT, filtersOf(DEFAULT, params)!, 0, 1).total)).not.toContain(0);
  });

  it("on the fixture graph", () => {
    const problems = cases.flatMap((params) => compare(FIXTURE, params));
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it("a negative control: a search missing a hit is reported", () => {
    const f = filtersOf(DEFAULT, { role_family: "design" })!;
    const all = searchPeople(DEFAULT, f);
    expect(JSON.stringify(view(all.slice(1)))).not.toBe(JSON.stringify(view(bruteForce(DEFAULT, f))));
    expect(JSON.stringify(view(all))).toBe(JSON.stringify(view(bruteForce(DEFAULT, f))));
  });
});

describe("word runs (the word indexes' tokenizer) agree with the phrase and prefix matchers", () => {
  const TEXTS = [
    "node.js c++ são-paulo",
    "x² ½ ok",
    "a\u{1D49C}b",
    "  ",
    "Sofía García\u0001northwind labs",
    "c#/f# a/b testing",
  ];

  it("splits on every non letter/digit code unit (astral characters count as non-word, like the matchers)", () => {
    expect(wordRuns("node.js c++ são-paulo")).toEqual(["node", "js", "c", "são", "paulo"]);
    expect(wordRuns("x² ½ ok")).toEqual(["x²", "½", "ok"]);
    expect(wordRuns("a\u{1D49C}b")).toEqual(["a", "b"]);
    expect(wordRuns("  ")).toEqual([]);
    expect(leadingRun("c++")).toBe("c");
    expect(leadingRun("#rust")).toBe("");
  });

  it("every run is a phrase match and a word prefix of its text; a partial word is not a phrase match", () => {
    for (const text of TEXTS) {
      for (const run of wordRuns(text)) {
        expect(containsPhrase(text, run)).toBe(true);
        expect(hasWordPrefix(text, run)).toBe(true);
      }
    }
    expect(containsPhrase("são-paulo", "sã")).toBe(false);
  });
});

describe("similar people: the skill index only skips people who cannot score", () => {
  it("equals scoring every person, for 200 people of the default graph and every fixture person", () => {
    const fixture = FIXTURE;
    const pairs = [
      ...DEFAULT.people.filter((r) => r.idx % 25 === 0).map((rec) => [DEFAULT, rec] as const),
      ...fixture.people.map((rec) => [fixture, rec] as const),
    ];
    const differ = pairs.filter(
      ([graph, rec]) => JSON.stringify(similarTo(graph, rec)) !== JSON.stringify(similarAmong(rec, graph.people)),
    );
    expect(differ.map(([, rec]) => rec.person.slug)).toEqual([]);
    expect(pairs.filter(([graph, rec]) => similarTo(graph, rec).length > 0).length).toBeGreaterThan(150);
  });
});
