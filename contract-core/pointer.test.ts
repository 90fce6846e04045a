/** resolvePointer: plain tokens as they are, `~0`/`~1` escapes, and percent-encoding in the `#` (fragment) form only. */
import { describe, expect, it } from "vitest";
import { resolvePointer } from "./pointer.js";

describe("resolvePointer", () => {
  const doc = {
    components: { schemas: { Person: { type: "object" } } },
    paths: { "/people/{id}": { get: 1 }, "a~b": 2, "50%": 3, "a b": 4 },
    list: ["x", "y"],
  };

  it("follows plain tokens, array indices and the whole document", () => {
    expect(resolvePointer(doc, "#/components/schemas/Person")).toEqual({ type: "object" });
    expect(resolvePointer(doc, "/list/1")).toBe("y");
    expect(resolvePointer(doc, "#")).toBe(doc);
    expect(resolvePointer(doc, "#/components/schemas/Nobody")).toBeUndefined();
    expect(resolvePointer(doc, "#/list/0/deeper")).toBeUndefined();
  });

  it("reads ~1 as / and ~0 as ~, in both forms", () => {
    expect(resolvePointer(doc, "#/paths/~1people~1{id}/get")).toBe(1);
    expect(resolvePointer(doc, "/paths/a~0b")).toBe(2);
  });

  it("decodes percent-encoding in the fragment form, and only there", () => {
    expect(resolvePointer(doc, "#/paths/~1people~1%7Bid%7D/get")).toBe(1);
    expect(resolvePointer(doc, "#/paths/a%20b")).toBe(4);
    expect(resolvePointer(doc, "#/paths/50%25")).toBe(3);
    expect(resolvePointer(doc, "/paths/50%")).toBe(3);
    expect(resolvePointer(doc, "/paths/a%20b")).toBeUndefined();
  });
});
