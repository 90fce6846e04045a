/** Byte assembly: chunks of text and pre-encoded bytes give exactly the UTF-8 of the concatenated text, in shared slabs. */
import { describe, expect, it } from "vitest";
import { releaseBytes, utf8, Utf8Chunks } from "./utf8-chunks.js";

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

  it("answers share slabs but never each other's bytes: interleaved, finished, and past a slab's end", () => {
    const expected = (text: string) => Array.from(new TextEncoder().encode(text));
    const a = new Utf8Chunks().text("Łódź ");
    const b = new Utf8Chunks().text("東京 ");
    a.bytes(utf8("a-bytes "));
    b.text("b-text ");
    const doneA = a.text("😀").finish();
    // A large answer moves to a new slab with what it already wrote; earlier answers keep their bytes.
    const c = new Utf8Chunks().text("c ");
    for (let i = 0; i < 40; i++) c.bytes(utf8("é".repeat(10_000)));
    const doneB = b.text("end").finish();
    const doneC = c.finish();
    const later = new Utf8Chunks().text("x".repeat(100_000)).finish();
    expect(Array.from(doneA)).toEqual(expected("Łódź a-bytes 😀"));
    expect(Array.from(doneB)).toEqual(expected("東京 b-text end"));
    expect(Array.from(doneC)).toEqual(expected(`c ${"é".repeat(400_000)}`));
    expect(later.length).toBe(100_000);
  });

  it("reuses a slab only once every answer in it was released; an answer held is never overwritten", () => {
    const ANSWER_BYTES = 40_000;
    const answer = (i: number) =>
      new Utf8Chunks()
        .text(`answer ${i} `)
        .bytes(utf8("é".repeat(ANSWER_BYTES / 2)))
        .finish();
    const held = answer(0);
    const heldCopy = Array.from(held);
    const released = new Set<ArrayBufferLike>();
    const seen: ArrayBufferLike[] = [];
    for (let i = 1; i < 200; i++) {
      const bytes = answer(i);
      seen.push(bytes.buffer);
      if (bytes.buffer !== held.buffer) {
        released.add(bytes.buffer);
        releaseBytes(bytes);
      }
    }
    // Released slabs came back (fewer distinct buffers than slabs filled), the held one never did: only the
    // answers written right after it, while its slab had room, share its buffer. (The slab it lands in is
    // whatever earlier answers of this worker left, of any size: the count of those answers is not fixed.)
    expect(new Set(seen).size).toBeLessThanOrEqual(6);
    const firstElsewhere = seen.findIndex((b) => b !== held.buffer);
    expect(firstElsewhere).toBeGreaterThanOrEqual(0);
    expect(firstElsewhere).toBeLessThanOrEqual(Math.floor(held.buffer.byteLength / ANSWER_BYTES));
    expect(seen.slice(firstElsewhere).includes(held.buffer)).toBe(false);
    expect(Array.from(held)).toEqual(heldCopy);
    // Releasing bytes that no slab holds (or twice-created empty answers) changes nothing.
    releaseBytes(new Uint8Array(4));
    releaseBytes(new Utf8Chunks().finish());
    expect(Array.from(held)).toEqual(heldCopy);
  });

  it("a negative control: a changed or reordered chunk gives different bytes", () => {
    const bytes = (parts: string[]) => Array.from(parts.reduce((o, p) => o.text(p), new Utf8Chunks()).finish());
    expect(bytes(["Łódź", "x"])).not.toEqual(bytes(["x", "Łódź"]));
    expect(bytes(["Lodz"])).not.toEqual(bytes(["Łódź"]));
  });
});
