// createSpecCompiler: one compiler per document content and options, shared between its callers; what each
// compiles follows its own content and options.
import { describe, expect, it } from "vitest";
import { createSpecCompiler } from "./ajv.js";

const docWith = (maximum: number) => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  components: { schemas: { Limit: { type: "integer", maximum } } },
});
const limit = { $ref: "#/components/schemas/Limit" };
const objectWithLimit = { type: "object", properties: { n: limit } };

describe("createSpecCompiler", () => {
  it("hands one compiler to callers with equal content and options, and compiles a schema text once", () => {
    const a = createSpecCompiler(docWith(100), { allErrors: false });
    const b = createSpecCompiler(structuredClone(docWith(100)), { allErrors: false });
    expect(b).toBe(a);
    expect(b.compile({ ...limit })).toBe(a.compile(limit));
    expect(a.compile(limit)(100)).toBe(true);
    expect(a.compile(limit)(101)).toBe(false);
  });

  it("makes a compiler of its own for other components, options or extension keywords, each judging by its own", () => {
    const base = createSpecCompiler(docWith(100), { allErrors: false });
    const lower = createSpecCompiler(docWith(10), { allErrors: false });
    expect(lower).not.toBe(base);
    expect(lower.compile(limit)(50)).toBe(false);
    expect(base.compile(limit)(50)).toBe(true);
    expect(createSpecCompiler(docWith(100), { allErrors: true })).not.toBe(base);
    expect(createSpecCompiler({ ...docWith(100), "x-audience": "public" }, { allErrors: false })).not.toBe(base);
    const coercing = createSpecCompiler(docWith(100), { coerceTypes: true });
    const strict = createSpecCompiler(docWith(100), { coerceTypes: false });
    expect(coercing).not.toBe(strict);
    expect(coercing.compile(objectWithLimit)({ n: "5" })).toBe(true);
    expect(strict.compile(objectWithLimit)({ n: "5" })).toBe(false);
  });

  it("does not share a compiler made with options that are not plain values", () => {
    const options = { formats: { even: (s: string) => s.length % 2 === 0 } };
    expect(createSpecCompiler(docWith(100), options)).not.toBe(createSpecCompiler(docWith(100), options));
  });

  it("keeps the 8 most recently used compilers and makes a dropped one again", () => {
    const first = createSpecCompiler(docWith(1000));
    for (let i = 0; i < 8; i++) createSpecCompiler(docWith(2000 + i));
    expect(createSpecCompiler(docWith(1000))).not.toBe(first);
    const kept = createSpecCompiler(docWith(3000));
    for (let i = 0; i < 6; i++) createSpecCompiler(docWith(4000 + i));
    // Used again before it was dropped: the most recent once more, so 7 more still leave it among the 8.
    expect(createSpecCompiler(docWith(3000))).toBe(kept);
    for (let i = 0; i < 7; i++) createSpecCompiler(docWith(5000 + i));
    expect(createSpecCompiler(docWith(3000))).toBe(kept);
  });
});
