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

  it("matches node:crypto at every length across the one-, two- and three-block boundaries", () => {
    for (let n = 0; n <= 200; n++) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i * 7 + n) % 95))).join("");
      expect(sha256Hex(text), `length ${n}`).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("differs for different input", () => {
    expect(sha256Hex("a")).not.toBe(sha256Hex("b"));
  });
});
