// Unit tests of the pure parts: Prefer parsing, violation wording, error replies.
import { describe, expect, it } from "vitest";
import { describeViolations, errorReply } from "./errors.js";
import { parsePreferHeader, readPreferences } from "./prefer.js";

describe("Prefer parsing", () => {
  it("reads code, example, dynamic and seed, with , or ; and quotes", () => {
    expect(readPreferences('code=404, example="missing"; dynamic=false', new URLSearchParams())).toEqual({
      ok: true,
      value: { code: 404, exampleKey: "missing", dynamic: false },
    });
    expect(readPreferences("dynamic=true;seed=abc", new URLSearchParams())).toEqual({ ok: true, value: { dynamic: true, seed: "abc" } });
  });

  it("ignores unrelated preferences", () => {
    expect(readPreferences("return=minimal, respond-async", new URLSearchParams())).toEqual({ ok: true, value: {} });
    expect([...parsePreferHeader("Code=201, code=404")]).toEqual([["code", "201"]]);
  });

  it("falls back to __ query parameters and always strips them", () => {
    const query = new URLSearchParams("limit=2&__code=402&__example=x");
    expect(readPreferences(undefined, query)).toEqual({ ok: true, value: { code: 402, exampleKey: "x" } });
    expect(query.toString()).toBe("limit=2");
    const withHeader = new URLSearchParams("__code=402");
    expect(readPreferences("code=404", withHeader)).toEqual({ ok: true, value: { code: 404 } });
    expect(withHeader.has("__code")).toBe(false);
  });

  it.each(["code=4044", "code=abc", "code=", "dynamic=yes"])("rejects %s", (header) => {
    expect(readPreferences(header, new URLSearchParams()).ok).toBe(false);
  });
});

describe("violation messages", () => {
  it("drops Prism's 'Request ' prefix, de-duplicates and keeps only errors", () => {
    const message = describeViolations([
      { message: "Request query parameter limit must be <= 100", severity: 0 },
      { message: "Request query parameter limit must be <= 100", severity: "Error" },
      { message: "Request header X-Foo is deprecated", severity: 1 },
      { message: "Request body must have required property 'status'", severity: 0 },
    ]);
    expect(message).toBe("query parameter limit must be <= 100; body must have required property 'status'");
  });

  it("never answers an empty message", () => {
    expect(describeViolations([])).toBe("invalid request");
  });
});

describe("error replies", () => {
  it("keep messages within the spec's 2000 characters", () => {
    const long = errorReply(400, "invalid_request", "x".repeat(5000)).body as { error: { message: string } };
    expect(long.error.message).toHaveLength(2000);
    expect(long.error.message.endsWith("...")).toBe(true);
    const short = errorReply(400, "invalid_request", "limit must be <= 100").body as { error: { message: string } };
    expect(short.error.message).toBe("limit must be <= 100");
  });
});
