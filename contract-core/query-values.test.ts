/** The query read once: every value of each name, in order; a record with single values unwrapped. */
import { describe, expect, it } from "vitest";
import { queryRecord, queryValues } from "./query-values.js";

describe("queryValues", () => {
  it("gives every value of each name in the query's order, decoded, names in first-seen order", () => {
    const values = queryValues(new URLSearchParams("b=2&a=x%20y&b=1&c=&a=z"));
    expect([...values]).toEqual([
      ["b", ["2", "1"]],
      ["a", ["x y", "z"]],
      ["c", [""]],
    ]);
  });

  it("agrees with getAll for every name, and has no name the query lacks", () => {
    const params = new URLSearchParams("skills=go&skills=rust,python&limit=25&skills=");
    const values = queryValues(params);
    for (const name of new Set(params.keys())) expect(values.get(name)).toEqual(params.getAll(name));
    expect(values.has("offset")).toBe(false);
    expect(queryValues(new URLSearchParams("")).size).toBe(0);
  });
});

describe("queryRecord", () => {
  it("maps a name given once to its value and a repeated one to all of them", () => {
    expect(queryRecord(new URLSearchParams("limit=2&skills=go&skills=rust"))).toEqual({
      limit: "2",
      skills: ["go", "rust"],
    });
    expect(queryRecord(new URLSearchParams("limit=2&limit=3")).limit).not.toBe("3");
  });
});
