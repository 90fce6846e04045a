// createSpecCompiler (the spec's own checks): component refs resolved, one function per schema text, and
// the options it was made with applied.
import { describe, expect, it } from "vitest";
import { createSpecCompiler } from "./ajv.js";

const doc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  components: { schemas: { Limit: { type: "integer", maximum: 100 } } },
};
const limit = { $ref: "#/components/schemas/Limit" };
const objectWithLimit = { type: "object", properties: { n: limit } };

describe("createSpecCompiler", () => {
  it("judges by the document's components and compiles a schema text once", () => {
    const compiler = createSpecCompiler(doc, { allErrors: false });
    expect(compiler.compile({ ...limit })).toBe(compiler.compile(limit));
    expect(compiler.compile(limit)(100)).toBe(true);
    expect(compiler.compile(limit)(101)).toBe(false);
    expect(compiler.compile(limit).errors?.[0]?.message).toBe("must be <= 100");
  });

  it("applies the options it was made with", () => {
    expect(createSpecCompiler(doc, { coerceTypes: true }).compile(objectWithLimit)({ n: "5" })).toBe(true);
    expect(createSpecCompiler(doc, { coerceTypes: false }).compile(objectWithLimit)({ n: "5" })).toBe(false);
  });

  it("refuses a schema strict mode refuses (an unknown keyword)", () => {
    expect(() => createSpecCompiler(doc).compile({ type: "string", minLenght: 1 })).toThrow(/unknown keyword/);
  });
});
