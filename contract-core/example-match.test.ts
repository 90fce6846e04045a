// The static mock's example choice (x-mock-match), as the Prism mock and the MSW mock handlers make it.
import { describe, expect, it } from "vitest";
import { exampleMatcher, pastLastPage } from "./example-match.js";
import { loadSpec } from "./spec.js";

const doc = loadSpec();
const pick = exampleMatcher(doc);

describe("x-mock-match picks an example from the request", () => {
  it.each([
    ["GET", "/people", { view: "compact" }, "compact_page"],
    ["GET", "/people", { offset: "2", limit: "2" }, "second_page"],
    ["GET", "/people", { offset: "4" }, "last_page"],
    ["GET", "/people", { include_flagged: "true" }, "flagged_included"],
    ["GET", "/people", { certification: "aws" }, "certification_filter"],
    ["GET", "/events", { cursor: "abc" }, "last_page"],
    ["GET", "/people/priya-raman", { include: "coworkers" }, "with_expansions"],
    ["GET", "/people/", { view: "compact" }, "compact_page"],
    ["get", "/people", { view: ["compact", "full"] }, "compact_page"],
    ["GET", "/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/members", { status: "proposed" }, "proposed"],
  ])("%s %s %j -> %s", (method, path, query, example) => {
    expect(pick(method, path, query)?.example).toBe(example);
  });

  it("a body key picks an example of another 2xx response, with that status", () => {
    expect(pick("POST", "/targets", {}, { input: "Data engineers", kind: "people" })).toEqual({
      example: "created",
      status: 202,
    });
    expect(pick("POST", "/targets", {}, { input: "Contoso", kind: "company" })).toBeUndefined();
    expect(pick("POST", "/targets", {}, "kind=people")).toBeUndefined();
  });

  it.each([
    ["GET", "/people", {}],
    ["GET", "/people", { offset: "3" }],
    ["GET", "/events", { cursor: "" }],
    ["POST", "/people", { view: "compact" }],
    ["GET", "/people/priya-raman/coworkers", { include: "x" }],
    ["GET", "/unknown", { view: "compact" }],
    ["GET", "/v1/people", { view: "compact" }],
  ])("no match: %s %s %j", (method, path, query) => {
    expect(pick(method, path, query)).toBeUndefined();
  });
});

describe("pastLastPage", () => {
  const page = { data: [{ id: 1 }], meta: { total: 3, offset: 0, limit: 1, has_more: true } };

  it("answers an offset past the examples with an empty last page that keeps the total", () => {
    expect(pastLastPage(page, { offset: "25", limit: "5" })).toEqual({
      data: [],
      meta: { total: 3, offset: 25, limit: 5, has_more: false },
    });
  });

  it("leaves a first page, a bad offset and a body that is not an offset page alone", () => {
    expect(pastLastPage(page, {})).toBeUndefined();
    expect(pastLastPage(page, { offset: "x" })).toBeUndefined();
    expect(pastLastPage({ data: [], meta: { count: 0 } }, { offset: "2" })).toBeUndefined();
  });
});
