// The Prefer grammar: parsing, the query fallbacks, supported vs unsupported preferences, invalid values.
import { describe, expect, it } from "vitest";
import {
  honouredPreferences,
  parsePrefer,
  preferenceAppliedHeader,
  preferencePairs,
  MAX_PREFER_LATENCY_MS,
} from "./prefer.js";

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

describe("Preference-Applied names what the answer honoured", () => {
  const honoured = (header: string, status: number) => {
    const result = parsePrefer(header, ["code", "example", "dynamic", "seed", "latency"]);
    if (!result.ok) throw new Error(result.message);
    return honouredPreferences(result, status);
  };
  it("code only when the answer has that status", () => {
    expect(honoured("code=429", 429)).toEqual(["code=429"]);
    // A keyless request is refused before the preference is read: nothing was applied.
    expect(honoured("code=429", 401)).toEqual([]);
  });
  it("example and dynamic when the answer is the one they choose; seed only beside dynamic", () => {
    expect(honoured("example=compact_page", 200)).toEqual(["example=compact_page"]);
    expect(honoured("example=compact_page", 400)).toEqual([]);
    expect(honoured("example=not_found, code=404", 404)).toEqual(["example=not_found", "code=404"]);
    expect(honoured("dynamic=true, seed=4", 200)).toEqual(["dynamic=true", "seed=4"]);
    expect(honoured("seed=4", 200)).toEqual([]);
    expect(honoured("dynamic=true, seed=4", 401)).toEqual([]);
  });
  it("latency whatever the answer (the delay happened)", () => {
    expect(honoured("latency=10, code=201", 400)).toEqual(["latency=10"]);
  });
});
