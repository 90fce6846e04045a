/** Byte assembly: chunks of text and pre-encoded bytes give exactly the UTF-8 of the concatenated text. */
import { describe, expect, it } from "vitest";
import { utf8, Utf8Chunks } from "./utf8-chunks.js";

const TEXTS = [
  "",
  '{"plain":"ascii only"}',
  "Łódź, Kraków",
  "Zürich café ÿ",
  "東京 ソウル",
  "emoji 😀 and 𝒜 (astral: two UTF-16 units each)",
  "mixed: a\u0000b\u007f\u0080\u07ff\u0800\uffff",
  "x".repeat(10_000) + "é",
];

describe("Utf8Chunks", () => {
  it("text chunks, byte chunks and their mixes equal TextEncoder on the whole text", () => {
    for (const a of TEXTS) {
      for (const b of TEXTS) {
        const expected = Array.from(new TextEncoder().encode(`${a},${b}`));
        expect(Array.from(new Utf8Chunks().text(a).text(",").text(b).finish())).toEqual(expected);
        expect(Array.from(new Utf8Chunks().bytes(utf8(a)).text(",").bytes(utf8(b)).finish())).toEqual(expected);
        expect(Array.from(new Utf8Chunks().text(a).bytes(utf8(",")).text(b).finish())).toEqual(expected);
      }
    }
  });

  it("the result is exactly the written bytes (no slack from the size bound)", () => {
    const out = new Utf8Chunks().text("ab").text("😀").finish();
    expect(out.length).toBe(6);
    expect(new TextDecoder().decode(out)).toBe("ab😀");
    expect(new Utf8Chunks().finish().length).toBe(0);
  });

  it("a negative control: a changed or reordered chunk gives different bytes", () => {
    const bytes = (parts: string[]) => Array.from(parts.reduce((o, p) => o.text(p), new Utf8Chunks()).finish());
    expect(bytes(["Łódź", "x"])).not.toEqual(bytes(["x", "Łódź"]));
    expect(bytes(["Lodz"])).not.toEqual(bytes(["Łódź"]));
  });
});
