/**
 * Records of a generated graph keep no Person objects: a person is made again from its saved PRNG state and
 * slug when read. These tests hold that storage to the graph built from kept people (every person and
 * record field of the default graph), across eviction, on texts beyond Latin-1, and at its bounds.
 */
import { describe, expect, it } from "vitest";
import { monthsBetween } from "./dates.js";
import { GRAPH_TODAY, generateGraphInput, generatedGraph, generateSource } from "./generate.js";
import { continentOf } from "./geo.js";
import { buildGraph, Stint, type Graph, type PersonRecord } from "./graph.js";
import { fixtureGraphInput } from "./fixture.js";
import { Prng } from "./prng.js";
import { normalizeProfileUrl } from "./urls.js";
import type { Person } from "./resources.js";

const DEFAULTS = { people: 5000, companies: 320, seed: 20261122 };

/** Every field of a record as plain data (getters read), stints without their back-reference. */
function recordData(rec: PersonRecord) {
  return {
    idx: rec.idx,
    person: rec.person,
    positions: rec.positions,
    stints: rec.stints.map((s) => ({
      companyName: s.companyName,
      title: s.title,
      company: s.company?.key ?? null,
      companyText: s.companyText,
      companyTextId: s.companyTextId,
      start: s.start,
      end: s.end,
      current: s.current,
      alum: s.alum,
      notCurrent: s.notCurrent,
      months: s.months,
      family: s.family,
      familyLc: s.familyLc,
      titleLc: s.titleLc,
      titleId: s.titleId,
      record: s.record.idx,
    })),
    continent: rec.continent,
    country: rec.country,
    locationLc: rec.locationLc,
    flagged: rec.flagged,
    flags: [rec.openToWork, rec.betweenRoles, rec.exploring, rec.hireable],
    nameLc: rec.nameLc,
    headlineLc: rec.headlineLc,
    skillsLc: rec.skillsLc,
    languagesLc: rec.languagesLc,
    skillText: rec.skillText,
    schoolsLc: rec.schoolsLc,
    certifications: rec.certifications,
    certificationsLc: rec.certificationsLc,
  };
}

/** The skill text as one lower-cased join of the person's parts (what a record once kept as a string). */
const joinedSkillText = (rec: PersonRecord) =>
  [...rec.person.skills, ...rec.positions.map((p) => p.company ?? ""), rec.person.headline ?? ""]
    .join("\u0001")
    .toLowerCase();

function expectSameRecords(actual: Graph, expected: Graph) {
  expect(actual.people.length).toBe(expected.people.length);
  for (let i = 0; i < expected.people.length; i++) {
    const a = actual.people[i]!;
    const e = expected.people[i]!;
    expect(JSON.stringify(a.person), `person ${i}`).toBe(JSON.stringify(e.person));
    expect(recordData(a), `record ${i}`).toEqual(recordData(e));
    expect(a.skillText, `skill text ${i}`).toBe(joinedSkillText(e));
  }
  expect([...actual.bySlug.keys()]).toEqual([...expected.bySlug.keys()]);
  for (const rec of expected.people) {
    const url = normalizeProfileUrl(rec.person.network_url)!;
    expect(actual.byUrl.get(url)?.idx, url).toBe(expected.byUrl.get(url)?.idx);
  }
}

describe("people made again on demand", () => {
  const made = generatedGraph(DEFAULTS);
  const input = generateGraphInput(DEFAULTS);
  const kept = buildGraph(input);

  it("every person and record of the default graph equals the one built from kept people", () => {
    expectSameRecords(made, kept);
  });

  it("the comparison tells people apart (a person made from another person's start differs)", () => {
    const source = generateSource({ ...DEFAULTS, people: 10 });
    const streamed = [...source.people];
    expect(JSON.stringify(source.personAt(4))).toBe(JSON.stringify(streamed[4]));
    expect(JSON.stringify(source.personAt(5))).not.toBe(JSON.stringify(streamed[4]));
  });

  it("a person read again after the kept ones were dropped is made again, equal", () => {
    const graph = generatedGraph({ people: 10_050, companies: 40, seed: 5 });
    const first = graph.people[0]!.person;
    const text = JSON.stringify(first);
    for (const rec of graph.people.slice(1)) void rec.person;
    const again = graph.people[0]!.person;
    expect(again).not.toBe(first);
    expect(JSON.stringify(again)).toBe(text);
  });

  it("a light stream draws what a full one draws: the same start state, slug and remade person for every person", () => {
    // One person past the default graph, so the state after its last person is compared too.
    const opts = { ...DEFAULTS, people: DEFAULTS.people + 1 };
    const full = generateSource(opts);
    const light = generateSource(opts, { light: true });
    const fullPeople = [...full.people];
    const lightPeople = [...light.people];
    let lighter = 0;
    for (let i = 0; i < opts.people; i++) {
      expect(lightPeople[i]!.slug, `slug ${i}`).toBe(fullPeople[i]!.slug);
      expect(JSON.stringify(light.personAt(i)), `person ${i}`).toBe(JSON.stringify(fullPeople[i]));
      if (JSON.stringify(lightPeople[i]) !== JSON.stringify(fullPeople[i])) lighter++;
    }
    // The light people leave out texts (otherwise the comparison above could not tell the two runs apart).
    expect(lighter).toBeGreaterThan(opts.people * 0.9);
    expect(lightPeople.some((p) => p.last_enriched_at === "")).toBe(true);
  });

  it("a light stream's graph keeps the records and full people of a full stream's graph", () => {
    const opts = { ...DEFAULTS, people: 300 };
    const fromFull = buildGraph({ today: GRAPH_TODAY, continentOf, ...generateSource(opts) });
    const fromLight = buildGraph({ today: GRAPH_TODAY, continentOf, ...generateSource(opts, { light: true }) });
    expectSameRecords(fromLight, fromFull);
  });

  it("personAt refuses an index outside the streamed people", () => {
    const source = generateSource({ ...DEFAULTS, people: 3 });
    expect(() => source.personAt(0)).toThrow(RangeError);
    const streamed = [...source.people];
    expect(source.personAt(2).slug).toBe(streamed[2]!.slug);
    for (const idx of [-1, 3, 1.5, Number.NaN]) expect(() => source.personAt(idx)).toThrow(RangeError);
  });
});

describe("packed fields", () => {
  const graph = generatedGraph(DEFAULTS);

  it("each stint's texts, current, alum and months, and each record's flags, agree with the person", () => {
    const today = graph.todayMonth;
    const wrong = graph.people.filter((rec) => {
      const p = rec.person;
      const flags = [p.dq_flags.length > 0, p.is_open_to_work === true, p.is_between_roles, p.is_exploring];
      if (
        JSON.stringify([rec.flagged, rec.openToWork, rec.betweenRoles, rec.exploring, rec.hireable]) !==
        JSON.stringify([...flags, p.codehost?.hireable === true])
      )
        return true;
      // The positions are made again from the person: each must be the one its stint was built from.
      const positions = rec.positions;
      if (positions.length !== rec.stints.length) return true;
      return rec.stints.some((s, i) => {
        const x = positions[i]!;
        const months = x.tenure_months ?? (s.start === null ? 0 : monthsBetween(s.start, s.end ?? today));
        return (
          s.companyName !== x.company ||
          s.title !== x.title ||
          s.family !== x.role_family ||
          s.current !== (x.is_current === true) ||
          s.notCurrent !== (x.is_current === false) ||
          s.alum !== (x.is_current === false || x.ended_at !== null) ||
          s.months !== months
        );
      });
    });
    expect(wrong.map((r) => r.idx)).toEqual([]);
    expect(graph.people.filter((r) => r.hireable).length).toBeGreaterThan(100);
    expect(graph.people.some((r) => r.stints.some((s) => s.alum && s.months > 100))).toBe(true);
  });

  it("equal language, school and certification lists are one frozen array; different lists are not", () => {
    const byText = new Map<string, string[]>();
    for (const rec of graph.people) {
      const list = rec.languagesLc;
      if (list.length === 0) continue;
      const known = byText.get(list.join("|"));
      if (known) expect(list).toBe(known);
      else byText.set(list.join("|"), list);
    }
    expect(byText.size).toBeGreaterThan(5);
    const [a, b] = [...byText.values()];
    expect(a).not.toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(() => (a as string[]).push("klingon")).toThrow(TypeError);
  });

  it("a stint refuses months it cannot pack", () => {
    const [rec] = graph.people;
    const s = rec!.stints[0]!;
    const make = (months: number) =>
      new Stint(
        rec!.positions[0]!,
        s.company,
        s.companyTextId,
        s.start,
        s.end,
        true,
        false,
        months,
        s.familyLc,
        s.titleId,
      );
    expect(make(-3).months).toBe(-3);
    expect(make(2 ** 27 - 1).months).toBe(2 ** 27 - 1);
    expect(make(-(2 ** 27 - 1)).months).toBe(-(2 ** 27 - 1));
    for (const months of [2 ** 27, -(2 ** 27), 1.5, Number.NaN]) expect(() => make(months)).toThrow(RangeError);
  });
});

describe("hand-made people made again (texts beyond Latin-1)", () => {
  const base = fixtureGraphInput();
  const people: Person[] = base.people.map((p, i) =>
    i === 0
      ? {
          ...p,
          full_name: "ΟΔΥΣΣΕΥΣ Παπαδόπουλος",
          headline: "Μηχανικός ΛΟΓΙΣΜΙΚΟΥ at ÅSTRÖM 東京",
          skills: ["KÜNSTLICHE Intelligenz", "ΣΥΣΤΉΜΑΤΑ", "İstanbul ops"],
          location: { city: "Αθήνα", region: null, country: "Greece" },
          positions: p.positions.map((x) => ({ ...x, company: `${x.company} ΣΟΦΙΑ 🚀` })),
        }
      : p,
  );
  const kept = buildGraph({ ...base, people });
  // Each read makes a fresh copy, as a regenerated person would be.
  const made = buildGraph({ ...base, people, personAt: (idx) => structuredClone(people[idx]!) });

  it("records and persons equal the kept ones; the skill text is the lower-cased join", () => {
    expectSameRecords(made, kept);
    expect(made.people[0]!.skillText).toContain("σοφια 🚀");
    expect(made.people[0]!.nameLc).toBe("οδυσσευς παπαδόπουλος");
  });

  it("a stream whose personAt gives another person is caught by the comparison", () => {
    const wrong = buildGraph({
      ...base,
      people,
      personAt: (idx) => structuredClone(people[(idx + 1) % people.length]!),
    });
    expect(() => expectSameRecords(wrong, kept)).toThrow();
  });
});

describe("records by profile URL", () => {
  /** What a map of every normalized URL gives (the last record with a URL wins). */
  function urlMap(graph: Graph): Map<string, number> {
    const map = new Map<string, number>();
    for (const rec of graph.people) {
      const url = normalizeProfileUrl(rec.person.network_url);
      if (url) map.set(url, rec.idx);
    }
    return map;
  }

  function expectLikeUrlMap(graph: Graph, extraUrls: string[]) {
    const map = urlMap(graph);
    for (const url of [...map.keys(), ...extraUrls]) {
      expect(graph.byUrl.get(url)?.idx, url).toBe(map.get(url));
      expect(graph.byUrl.has(url), url).toBe(map.has(url));
    }
  }

  it("the default graph finds every person by URL as a map would, and nobody by an unknown one", () => {
    const graph = generatedGraph(DEFAULTS);
    expectLikeUrlMap(graph, [
      "network.example.com/in/nobody-here",
      "network.example.com/in/",
      "example.com/in/priya-raman",
    ]);
    expect(graph.byUrl.get("network.example.com/in/priya-raman")?.person.slug).toBe("priya-raman");
  });

  it("slugs and URLs that disagree, repeat or are taken over later still give a map's answer", () => {
    const base = fixtureGraphInput();
    const [a, b, c, d, e] = base.people;
    const own = (slug: string) => `https://network.example.com/in/${slug}`;
    const people: Person[] = [
      { ...a!, slug: "ana", network_url: own("ana") },
      // Another person takes the slug "ana" (in capitals) with another URL: "ana"'s URL still finds the first.
      { ...b!, slug: "ANA", network_url: own("someone-else") },
      { ...c!, slug: "carla", network_url: own("carla") },
      // A slug whose own URL belongs to nobody: that URL finds no one.
      { ...d!, slug: "dora", network_url: "https://www.network.example.com/in/Dora-X/?x=1" },
      // A later person with carla's URL wins it (as a map's later set would).
      { ...e!, slug: "eve", network_url: own("carla") },
    ];
    const graph = buildGraph({ ...base, people });
    const key = (slug: string) => own(slug).slice("https://".length);
    expectLikeUrlMap(graph, [key("dora"), key("eve"), key("ANA")]);
    expect(graph.byUrl.get(key("ana"))?.idx).toBe(0);
    expect(graph.byUrl.get(key("carla"))?.idx).toBe(4);
    expect(graph.byUrl.get(key("dora"))).toBeUndefined();
    expect(graph.byUrl.get(key("dora-x"))?.idx).toBe(3);
  });
});

describe("PRNG state saved and restored", () => {
  it("restore continues the sequence from the saved point; a state outside the array is refused", () => {
    const rng = new Prng(99);
    rng.uint32();
    const states = new Uint32Array(8);
    rng.save(states, 4);
    const after = [rng.uint32(), rng.uint32(), rng.uint32()];
    const other = new Prng(1);
    other.restore(states, 4);
    expect([other.uint32(), other.uint32(), other.uint32()]).toEqual(after);
    other.restore(states, 0);
    expect(other.uint32()).not.toBe(after[0]);
    for (const at of [-1, 5, 8]) expect(() => other.restore(states, at)).toThrow(RangeError);
  });
});
