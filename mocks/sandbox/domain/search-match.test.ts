/** Search matches: their JSON is the plain object's, and two compare equal only when their JSON is the same. */
import { describe, expect, it } from "vitest";
import { fixtureGraph } from "../data/fixture.js";
import type { Match, MatchRole } from "../data/resources.js";
import { matchRole, SearchMatch, sameSearchMatch } from "./search-match.js";
import { Utf8Chunks } from "./utf8-chunks.js";
import { rowPerson, writeRowPerson } from "./views.js";

const ROLE = matchRole("engineering", 82, "anywhere", null);
const COMPANY = { company: "Acme Labs", company_months: 40 };
const ROLES = { role_months: 82, roles: [ROLE] };

/** Every shape a search match takes: no key, company keys, role keys, both, each with and without a score. */
const SHAPES: [Pick<Match, "company" | "company_months">, Pick<Match, "role_months" | "roles">, number | undefined][] =
  [
    [{}, {}, undefined],
    [COMPANY, {}, undefined],
    [{}, ROLES, undefined],
    [COMPANY, ROLES, undefined],
    [{}, {}, 3],
    [COMPANY, ROLES, 0],
    [{ company: null, company_months: 0 }, {}, undefined],
  ];

/** One change of each compared value, each of which changes the JSON. */
const CHANGED: [string, SearchMatch][] = [
  ["company", new SearchMatch({ ...COMPANY, company: "Acme Foods" }, ROLES, 2)],
  ["company null", new SearchMatch({ ...COMPANY, company: null }, ROLES, 2)],
  ["company_months", new SearchMatch({ ...COMPANY, company_months: 41 }, ROLES, 2)],
  ["role_months", new SearchMatch(COMPANY, { ...ROLES, role_months: 81 }, 2)],
  ["no score", new SearchMatch(COMPANY, ROLES, undefined)],
  ["score", new SearchMatch(COMPANY, ROLES, 3)],
  ["no roles", new SearchMatch(COMPANY, { role_months: 82 }, 2)],
  ["a second role", new SearchMatch(COMPANY, { ...ROLES, roles: [ROLE, ROLE] }, 2)],
  ["role family", new SearchMatch(COMPANY, { ...ROLES, roles: [{ ...ROLE, family: "data" }] }, 2)],
  ["role months", new SearchMatch(COMPANY, { ...ROLES, roles: [{ ...ROLE, months: 1 }] }, 2)],
  ["role scope", new SearchMatch(COMPANY, { ...ROLES, roles: [{ ...ROLE, scope: "company" }] }, 2)],
  ["role company", new SearchMatch(COMPANY, { ...ROLES, roles: [{ ...ROLE, company: "Acme Labs" }] }, 2)],
];

describe("SearchMatch", () => {
  it("serializes as the plain object of its keys, in the reference's key order, an undefined key absent", () => {
    for (const [company, role, score] of SHAPES) {
      const plain: Match = { ...company, ...role, ...(score === undefined ? {} : { score }) };
      expect(JSON.stringify(new SearchMatch(company, role, score))).toBe(JSON.stringify(plain));
    }
    expect(JSON.stringify(new SearchMatch({}, {}, undefined))).toBe("{}");
  });

  it("keeps a role's keys in one order", () => {
    const role: MatchRole = matchRole("data", 5, "company", "Acme Labs");
    expect(Object.keys(role)).toEqual(["family", "months", "scope", "company"]);
  });
});

describe("sameSearchMatch", () => {
  const base = () =>
    new SearchMatch(COMPANY, { role_months: 82, roles: [matchRole("engineering", 82, "anywhere", null)] }, 2);

  it("is true for two matches made apart with the same values (their JSON is the same)", () => {
    const [a, b] = [base(), base()];
    expect(a).not.toBe(b);
    expect(sameSearchMatch(a, b)).toBe(true);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    for (const [company, role, score] of SHAPES)
      expect(sameSearchMatch(new SearchMatch(company, role, score), new SearchMatch(company, role, score))).toBe(true);
  });

  it.each(CHANGED)("is false when one value differs: %s", (_, changed) => {
    expect(JSON.stringify(changed)).not.toBe(JSON.stringify(base()));
    expect(sameSearchMatch(base(), changed)).toBe(false);
    expect(sameSearchMatch(changed, base())).toBe(false);
  });
});

describe("writeRowPerson with search matches (compared by value, not serialized)", () => {
  const decoder = new TextDecoder();
  const written = (match: Match) => {
    const out = new Utf8Chunks();
    writeRowPerson(out, rec, match, { skills: true });
    return decoder.decode(out.finish());
  };
  const rec = fixtureGraph().people[2]!;

  it("writes each match's own bytes as matches alternate, equal or not, plain or search", () => {
    const sequence: Match[] = [
      new SearchMatch(COMPANY, ROLES, 2),
      new SearchMatch(COMPANY, ROLES, 2),
      ...CHANGED.map(([, m]) => m),
      new SearchMatch(COMPANY, ROLES, 2),
      { ...COMPANY, ...ROLES, score: 2 },
      { score: 9 },
      new SearchMatch(COMPANY, ROLES, 2),
      ...CHANGED.map(([, m]) => m).reverse(),
    ];
    for (const match of sequence) expect(written(match)).toBe(JSON.stringify(rowPerson(rec, match, { skills: true })));
  });
});
