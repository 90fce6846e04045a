/**
 * The one people matcher (matchPerson) under search's rules and under Target discovery's rules and options,
 * on the hand-made fixture graph: each rule accepts the people it should and rejects the others.
 */
import { describe, expect, it } from "vitest";
import { fixtureGraph, fixtureGraphInput } from "../data/fixture.js";
import { buildGraph } from "../data/graph.js";
import { matchPerson, parseSearch, profileKeywordTokens, type MatchRules, type SearchFilters } from "./search.js";

const graph = fixtureGraph();
const DISCOVERY: MatchRules = { keywords: "profile", skills: "exact" };

/** Slugs of the people the filters accept (search's defaults overridden by `extra`). */
function matched(extra: Partial<SearchFilters>): string[] {
  const f: SearchFilters = { ...parseSearch({}, graph).filters, ...extra };
  return graph.people
    .filter((rec) => matchPerson(rec, f, graph.todayMonth) !== null)
    .map((rec) => rec.person.slug ?? rec.person.full_name ?? "");
}

describe("keyword rules", () => {
  it("name-headline finds a word of the headline; profile reads current titles and employers, not skills or the past", () => {
    expect(matched({ keywords: ["kubernetes"] })).toEqual([]);
    expect(matched({ keywords: ["kubernetes"], rules: DISCOVERY })).toEqual([]);
    expect(matched({ keywords: ["advisor"] })).toEqual([]);
    expect(matched({ keywords: ["advisor"], rules: DISCOVERY })).toEqual(["lena-fischer"]);
    expect(matched({ keywords: ["contoso"], rules: DISCOVERY })).toContain("mei-chen");
    expect(matched({ keywords: ["contoso"], rules: DISCOVERY })).not.toContain("priya-raman");
    expect(matched({ keywords: ["tech"], rules: DISCOVERY })).not.toContain("jonas-weber");
    expect(matched({ keywords: ["staff"] })).toContain("priya-raman");
  });

  it("profile keywords drop stopwords and a plural s", () => {
    expect(profileKeywordTokens("the Engineers in Berlin")).toEqual(["engineer", "berlin"]);
    expect(profileKeywordTokens("class of")).toEqual(["class"]);
    expect(matched({ keywords: profileKeywordTokens("engineers in Berlin"), rules: DISCOVERY })).toEqual([
      "priya-raman",
    ]);
  });
});

describe("skill rules", () => {
  it("phrase matches a term in the headline or employers; exact matches only a listed skill", () => {
    const phrase = matched({ skills: { terms: ["northwind"], mode: "any" } });
    expect(phrase).toContain("jonas-weber");
    expect(matched({ skills: { terms: ["northwind"], mode: "any" }, rules: DISCOVERY })).toEqual([]);
    expect(matched({ skills: { terms: ["go", "terraform"], mode: "all" }, rules: DISCOVERY })).toEqual([
      "lucas-moreau",
    ]);
  });
});

describe("discovery's options", () => {
  it("currentTitles: every group needs a current title containing one of its terms", () => {
    expect(matched({ currentTitles: [["engineer"]] })).toContain("priya-raman");
    expect(matched({ currentTitles: [["engineer"]] })).not.toContain("lucas-moreau");
    expect(matched({ currentTitles: [["engineer"], ["staff"]] })).toEqual(["priya-raman"]);
    expect(matched({ currentTitles: [["engineer"], ["principal"]] })).not.toContain("priya-raman");
  });

  it("pastTitles looks at positions that are not current", () => {
    expect(matched({ pastTitles: ["data analyst"] })).toEqual(["mei-chen"]);
    expect(matched({ pastTitles: ["data scientist"] })).not.toContain("mei-chen");
  });

  it("currentRoleFamilies needs a current position in one of the families", () => {
    expect(matched({ currentRoleFamilies: ["recruiting"] })).toContain("sofia-garcia");
    expect(matched({ currentRoleFamilies: ["recruiting"] })).not.toContain("priya-raman");
    expect(matched({ currentRoleFamilies: ["engineering"] })).toContain("priya-raman");
    expect(matched({ currentRoleFamilies: ["engineering"] })).not.toContain("jonas-weber");
    expect(matched({ currentRoleFamilies: ["engineering"] })).not.toContain("lucas-moreau");
  });

  it("employers: current or past stints at a company key or text fragment", () => {
    expect(matched({ employers: [{ ids: ["fabrikam"], current: true }] })).toContain("amara-okafor");
    expect(matched({ employers: [{ ids: ["fabrikam"], current: true }] })).not.toContain("jonas-weber");
    expect(matched({ employers: [{ ids: ["fabrikam"], current: false }] })).toContain("jonas-weber");
  });

  it("changedWithinMonths needs a start or end within the window", () => {
    const recent = matched({ changedWithinMonths: 24 });
    expect(recent).toContain("lucas-moreau");
    expect(recent).not.toContain("jonas-weber");
    expect(matched({ changedWithinMonths: 0 })).not.toContain("lucas-moreau");
  });
});

describe("role match keys", () => {
  const position = (company: string, family: string, started: string, ended: string | null) => ({
    company,
    company_url: null,
    title: "Engineer",
    started_at: started,
    ended_at: ended,
    tenure_months: null,
    is_current: ended === null,
    role_family: family,
  });
  const input = fixtureGraphInput();
  const source = input.people[0]!;
  const rolesGraph = buildGraph({
    ...input,
    people: [
      {
        ...source,
        positions: [
          position("Acme Foods", "engineering", "2015-01", "2019-12"),
          position("Acme Labs", "engineering", "2020-01", null),
          position("Acme Labs", "data", "2010-01", "2014-12"),
          position("Initrode", "engineering", "2008-01", "2009-12"),
        ],
      },
    ],
  });
  const rec = rolesGraph.people[0]!;
  const base = parseSearch({}, rolesGraph).filters;

  it("role_family within a company: the family's stints there summed, named by the first in display order", () => {
    const hit = matchPerson(rec, { ...base, roleFamily: "engineering", company: "acme" }, rolesGraph.todayMonth);
    expect(hit?.match.roles).toEqual([
      { family: "engineering", months: 82 + 59, scope: "company", company: "Acme Labs" },
    ]);
    expect(hit?.match.role_months).toBe(141);
  });

  it("role_family anywhere: every stint of the family; none of it is a rejection", () => {
    const anywhere = matchPerson(rec, { ...base, roleFamily: "engineering" }, rolesGraph.todayMonth);
    expect(anywhere?.match.roles).toEqual([
      { family: "engineering", months: 82 + 59 + 23, scope: "anywhere", company: null },
    ]);
    expect(matchPerson(rec, { ...base, roleFamily: "design" }, rolesGraph.todayMonth)).toBeNull();
    expect(
      matchPerson(rec, { ...base, roleFamily: "engineering", minRoleMonths: 165 }, rolesGraph.todayMonth),
    ).toBeNull();
  });
});
