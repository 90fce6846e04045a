// Term lists (x-term-list): how values split and the limits the shared schema checker applies in every server.
import { describe, expect, it } from "vitest";
import { createSpecChecker } from "./schema-check.js";
import { termListRule, termsOf, type TermListRule } from "./term-list.js";

const SKILLS: TermListRule = { split: "terms", maxTerms: 8, maxTermLength: 64, alias: "skill" };
const PLACES: TermListRule = { split: "places", maxTerms: 20, maxTermLength: 120 };
const CERTS: TermListRule = { split: "json", maxTerms: 10, maxTermLength: 200, alias: "certification" };

describe("termsOf", () => {
  it("splits on ; , and the word or, trims, drops blanks, de-duplicates case-insensitively", () => {
    expect(termsOf(SKILLS, "Go; python ,Rust or go;;")).toEqual({ ok: true, terms: ["Go", "python", "Rust"] });
    expect(termsOf(PLACES, "Berlin, Germany; Europe")).toEqual({ ok: true, terms: ["Berlin, Germany", "Europe"] });
  });

  it("refuses more distinct terms than maxTerms, counting the alias", () => {
    expect(termsOf(SKILLS, "a;b;c;d;e;f;g;h;A").ok).toBe(true);
    expect(termsOf(SKILLS, "a;b;c;d;e;f;g;h;i")).toEqual({
      ok: false,
      message: "accepts at most 8 distinct terms, got 9",
    });
    expect(termsOf(SKILLS, "a;b;c;d;e;f;g;h", "z")).toEqual({
      ok: false,
      message: "accepts at most 8 distinct terms, got 9",
    });
  });

  it("counts a term's length in code points", () => {
    expect(termsOf(SKILLS, "😀".repeat(64)).ok).toBe(true);
    expect(termsOf(SKILLS, "😀".repeat(65))).toEqual({ ok: false, message: "terms must be at most 64 characters" });
  });

  it("a JSON list: strings only, none blank; an empty list is no filter", () => {
    expect(termsOf(CERTS, '[" Scrum ", "scrum", "PMP"]')).toEqual({ ok: true, terms: ["Scrum", "PMP"] });
    for (const bad of ["scrum", '"scrum"', "[1]", "{}"]) expect(termsOf(CERTS, bad).ok, bad).toBe(false);
    expect(termsOf(CERTS, '[""]')).toEqual({ ok: false, message: "terms must be 1-200 characters" });
    expect(termsOf(CERTS, "[]")).toEqual({ ok: true, terms: [] });
  });

  it("a ;-list with no term is refused", () => {
    expect(termsOf(PLACES, ";;")).toEqual({ ok: false, message: "must contain at least one term" });
  });
});

describe("termListRule", () => {
  it("reads a declaration and refuses a malformed one", () => {
    expect(termListRule({ type: "string", "x-term-list": PLACES })).toEqual(PLACES);
    expect(termListRule({ type: "string" })).toBeUndefined();
    for (const bad of [
      { split: "commas", maxTerms: 1, maxTermLength: 1 },
      { split: "terms", maxTerms: 0, maxTermLength: 1 },
      "x",
    ])
      expect(() => termListRule({ "x-term-list": bad })).toThrow(/x-term-list must be/);
  });
});

describe("the shared schema checker applies x-term-list", () => {
  const checker = createSpecChecker({ components: { schemas: {} } });
  const query = checker.compile({
    type: "object",
    properties: {
      skills: { type: "string", "x-term-list": SKILLS },
      location: { type: "string", "x-term-list": PLACES },
    },
  });

  it("at the instance path of the list, with the alias's value counted", () => {
    expect(query({ skills: "a;b", location: "Berlin" })).toBeNull();
    expect(query({ location: Array.from({ length: 21 }, (_, i) => `p${i}`).join(";") })).toMatchObject({
      keyword: "x-term-list",
      instancePath: "/location",
      message: "accepts at most 20 distinct terms, got 21",
    });
    expect(query({ skills: "a;b;c;d;e;f;g;h", skill: "z" })).toMatchObject({ instancePath: "/skills" });
    expect(query({ skill: "z" })).toBeNull();
  });

  it("on a schema checked alone, and after the schema's own keywords", () => {
    const alone = checker.compile({ type: "string", maxLength: 5, "x-term-list": SKILLS });
    expect(alone("a".repeat(65))).toMatchObject({ keyword: "maxLength" });
    expect(createSpecChecker({}).compile({ type: "string", "x-term-list": SKILLS })("x".repeat(65))).toMatchObject({
      keyword: "x-term-list",
      message: "terms must be at most 64 characters",
    });
  });
});
