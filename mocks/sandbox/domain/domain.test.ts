/** Unit tests of the parsers behind GET /people: roles tokens, term lists, nl phrases, dates, URLs. */
import { describe, expect, it } from "vitest";
import { fixtureGraph } from "../data/fixture.js";
import { ApiError } from "../contract/errors.js";
import { monthToString, periodEnd, periodStart } from "../data/dates.js";
import { parseNl } from "./nl.js";
import { parseRoleTokens } from "./roles.js";
import { parseCertificationList, parsePlaces, parseTermList } from "./terms.js";
import { normalizeProfileUrl } from "../data/urls.js";

describe("parseRoleTokens", () => {
  it("parses family, months, @company and title tokens", () => {
    expect(
      parseRoleTokens("engineering:24@Northwind%20Labs, t.contains.staff%20engineer;principal.36,t.exact.CTO, data"),
    ).toEqual([
      {
        kind: "family",
        family: "engineering",
        months: 24,
        company: "northwind labs",
        token: "engineering:24@Northwind%20Labs",
      },
      {
        kind: "title",
        mode: "contains",
        titles: ["staff engineer", "principal"],
        months: 36,
        token: "t.contains.staff%20engineer;principal.36",
      },
      { kind: "title", mode: "exact", titles: ["cto"], months: null, token: "t.exact.CTO" },
      { kind: "family", family: "data", months: null, company: null, token: "data" },
    ]);
  });

  it("caps months at 600, keeps at most 5 filters, skips invalid and duplicate tokens", () => {
    expect(parseRoleTokens("data:9999")[0]).toMatchObject({ months: 600 });
    expect(parseRoleTokens("a,b,c,d,e,f,g")).toHaveLength(5);
    expect(parseRoleTokens("data,DATA,t.bogus,t.contains.%E0%A4%A.3,@x,:12," + "x".repeat(65))).toEqual([
      { kind: "family", family: "data", months: null, company: null, token: "data" },
    ]);
  });
});

describe("term lists", () => {
  it("splits on ; , and the word or; de-duplicates case-insensitively", () => {
    expect(parseTermList("skills", "Go; python ,Rust or go")).toEqual(["Go", "python", "Rust"]);
  });

  it("keeps no limit of its own: the request check applies the spec's (contract-core/term-list.test.ts)", () => {
    const many = Array.from({ length: 30 }, (_, i) => `t${i}`);
    expect(parseTermList("skills", many.join(";"))).toHaveLength(30);
    expect(parsePlaces("location", "x".repeat(500))).toEqual(["x".repeat(500)]);
    expect(parseCertificationList(JSON.stringify(many))).toHaveLength(30);
  });

  it("certifications must be a JSON list of strings, none blank", () => {
    expect(parseCertificationList('[" Scrum ", "scrum", "PMP"]')).toEqual(["Scrum", "PMP"]);
    for (const bad of ["scrum", '"scrum"', "[1]", '[""]']) {
      expect(() => parseCertificationList(bad), bad).toThrow(ApiError);
    }
  });

  it("places: ; separated, commas stay inside", () => {
    expect(parsePlaces("location", "Berlin, Germany; Europe")).toEqual(["Berlin, Germany", "Europe"]);
  });
});

describe("parseNl (documented phrases)", () => {
  const graph = fixtureGraph();
  it.each([
    ["open to work engineers in Germany", { open_to_work: true, role_family: "engineering", location: "Germany" }],
    [
      "data scientists currently at Contoso Robotics",
      { role_family: "data", company: "Contoso Robotics", company_current: true },
    ],
    [
      "ex-Northwind Labs designers not in Europe",
      { company: "Northwind Labs", company_left_min_months_ago: 1, role_family: "design", exclude_locations: "Europe" },
    ],
    ["between jobs, speaks Spanish", { between_roles: true, languages: "Spanish" }],
    [
      "hireable engineers with 5+ years of experience",
      { codehost_hireable: true, role_family: "engineering", min_role_months: 60 },
    ],
    ["exploring options, skilled in Kubernetes", { exploring: true, skills: "kubernetes" }],
    ["studied at Northbridge University", { school: "northbridge university" }],
    ["certified Project Management Professional", { certification: "project management professional" }],
    ["senior platform people in Berlin or Munich", { keywords: "senior platform", location: "Berlin;Munich" }],
    ["5 years", {}],
  ])("%s", (text, expected) => {
    expect(parseNl(text, graph)).toEqual(expected);
  });
});

describe("dates and URLs", () => {
  it("periods start at their first month and end at their last", () => {
    expect(periodStart("2019")).toBe(2019 * 12);
    expect(periodEnd("2019")).toBe(2019 * 12 + 11);
    expect(periodStart("2019-03-14")).toBe(2019 * 12 + 2);
    expect(periodStart("2019-13")).toBeNull();
    expect(periodStart("19")).toBeNull();
    expect(monthToString(2026 * 12 + 10)).toBe("2026-11");
  });

  it("normalizes profile URLs", () => {
    expect(normalizeProfileUrl("HTTPS://www.Network.example.com/in/Priya-Raman/?trk=1")).toBe(
      "network.example.com/in/priya-raman",
    );
    expect(normalizeProfileUrl("priya-raman")).toBeNull();
    expect(normalizeProfileUrl("https://network.example.com/company/x")).toBeNull();
  });
});
