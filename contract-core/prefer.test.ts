// The Prefer grammar: parsing, the query fallbacks, supported vs unsupported preferences, invalid values.
import { describe, expect, it } from "vitest";
import { parsePrefer, preferenceAppliedHeader, preferencePairs, MAX_PREFER_LATENCY_MS } from "./prefer.js";

describe("Prefer grammar", () => {
  it("reads code, example, dynamic, seed and latency, with , or ; and quotes", () => {
    expect(parsePrefer('code=404, example="missing"; dynamic=false')).toEqual({
      ok: true,
      preferences: { code: 404, example: "missing", dynamic: false },
      applied: ["code=404", "example=missing", "dynamic=false"],
      ignored: [],
    });
    const result = parsePrefer("dynamic=true;seed=abc, latency=250");
    expect(result.ok && result.preferences).toEqual({ dynamic: true, seed: "abc", latencyMs: 250 });
  });

  it("names are case-insensitive and the first occurrence wins", () => {
    expect([...preferencePairs("Code=201, code=404")]).toEqual([["code", "201"]]);
    expect([...preferencePairs(["respond-async", "wait=10"])]).toEqual([
      ["respond-async", ""],
      ["wait", "10"],
    ]);
  });

  it("ignores unsupported preferences and does not list them as applied", () => {
    expect(parsePrefer("return=minimal, respond-async")).toEqual({
      ok: true,
      preferences: {},
      applied: [],
      ignored: ["return", "respond-async"],
    });
    const sandboxLike = parsePrefer("code=404, dynamic=true, latency=5", ["code", "example", "latency"]);
    expect(sandboxLike).toEqual({
      ok: true,
      preferences: { code: 404, latencyMs: 5 },
      applied: ["code=404", "latency=5"],
      ignored: ["dynamic"],
    });
    // An unsupported preference is ignored even when its value would be invalid.
    expect(parsePrefer("dynamic=yes", ["code"]).ok).toBe(true);
  });

  it("falls back to __ query parameters and always strips them", () => {
    const query = new URLSearchParams("limit=2&__code=402&__example=x");
    const result = parsePrefer(undefined, undefined, query);
    expect(result.ok && result.preferences).toEqual({ code: 402, example: "x" });
    expect(query.toString()).toBe("limit=2");
    const withHeader = new URLSearchParams("__code=402");
    const fromHeader = parsePrefer("code=404", undefined, withHeader);
    expect(fromHeader.ok && fromHeader.preferences).toEqual({ code: 404 });
    expect(withHeader.has("__code")).toBe(false);
  });

  it.each([
    ["code=4044", "code"],
    ["code=abc", "code"],
    ["code=", "code"],
    ["code=099", "code"],
    ["dynamic=yes", "dynamic"],
    ["latency=-5", "latency"],
    ["latency=fast", "latency"],
    ["example=", "example"],
  ])("rejects %s, naming the preference", (header, name) => {
    const result = parsePrefer(header);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.name).toBe(name);
      expect(result.message).toMatch(new RegExp(`^Prefer ${name} `));
    }
  });

  it("caps latency", () => {
    const result = parsePrefer("latency=999999");
    expect(result.ok && result.preferences.latencyMs).toBe(MAX_PREFER_LATENCY_MS);
  });

  it("renders Preference-Applied only when something was applied", () => {
    expect(preferenceAppliedHeader([])).toBeUndefined();
    expect(preferenceAppliedHeader(["code=404", "latency=5"])).toBe("code=404, latency=5");
  });
});
