import { loadSpec } from "../../contract-core/index.js";
import { describe, expect, it } from "vitest";
import { exampleMatcher } from "./match.js";

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
    ["GET", "/targets/3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c/members", { status: "proposed" }, "proposed"],
  ])("%s %s %j -> %s", (method, path, query, example) => {
    expect(pick(method, path, query)).toBe(example);
  });

  it.each([
    ["GET", "/people", {}],
    ["GET", "/people", { offset: "3" }],
    ["GET", "/events", { cursor: "" }],
    ["POST", "/people", { view: "compact" }],
    ["GET", "/people/priya-raman/coworkers", { include: "x" }],
    ["GET", "/unknown", { view: "compact" }],
  ])("no match: %s %s %j", (method, path, query) => {
    expect(pick(method, path, query)).toBeUndefined();
  });
});
