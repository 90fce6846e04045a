/** The plain SHA-256 agrees with node:crypto (ids and job outcomes depend on it). */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { INITIAL, K, sha256Hex } from "./sha256.js";

/** FIPS 180-4's tables (4.2.2 and 5.3.3), as the standard prints them. */
const STANDARD_K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];
const STANDARD_INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

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

  it("derives the round constants and the initial hash value exactly as the standard's tables", () => {
    expect([...K]).toEqual(STANDARD_K);
    expect(INITIAL).toEqual(STANDARD_INITIAL);
  });

  it("differs for different input", () => {
    expect(sha256Hex("a")).not.toBe(sha256Hex("b"));
  });
});
