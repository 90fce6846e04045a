/** The plain SHA-256 agrees with node:crypto (ids and job outcomes depend on it). */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "./sha256.js";

describe("sha256Hex", () => {
  it("matches node:crypto on empty, short, multi-block and non-ASCII input", () => {
    for (const text of [
      "",
      "abc",
      "talent-graph-sandbox:target:1",
      "x".repeat(55),
      "x".repeat(56),
      "y".repeat(200),
      "Zoë – 東京",
    ]) {
      expect(sha256Hex(text), JSON.stringify(text)).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("differs for different input", () => {
    expect(sha256Hex("a")).not.toBe(sha256Hex("b"));
  });
});
