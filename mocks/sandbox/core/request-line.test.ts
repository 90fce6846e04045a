/** The request line step: method, normalized path, query and the API flag from a plain URL or an absolute one. */
import { describe, expect, it } from "vitest";
import { readRequestLine } from "./request-line.js";

describe("readRequestLine", () => {
  it("upper-cases the method, splits path and query, and marks paths under the base path", () => {
    const line = readRequestLine("get", "/v1/people?limit=2&q=a", "/v1");
    expect([line.method, line.path, line.query.get("limit"), line.query.get("q"), line.api]).toEqual([
      "GET",
      "/v1/people",
      "2",
      "a",
      true,
    ]);
  });

  it("reduces an absolute URL to its path and decodes the path once for every decision", () => {
    expect(readRequestLine("GET", "https://api.example.test/%761/me", "/v1")).toMatchObject({
      path: "/v1/me",
      api: true,
    });
    expect(readRequestLine("GET", "http://host", "/v1")).toMatchObject({ path: "/", api: false });
    expect(readRequestLine("POST", "/__sandbox/reset", "/v1").api).toBe(false);
  });

  it("keeps a path that cannot be normalized as '/', still counted as an API request", () => {
    const line = readRequestLine("GET", "/v1/%E0%A4%A", "/v1");
    expect(line.normalized.ok).toBe(false);
    expect([line.path, line.api]).toEqual(["/", true]);
  });
});
