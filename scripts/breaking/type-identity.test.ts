// The proof the gate relies on to skip the typecheck: each accepted change keeps every type, and each rejected
// one is a change a checker could see (or one the proof cannot rule out).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { sameForTypeScript, sameJsonShape, sameTypeScript } from "./type-identity.js";

const BASE = `/** A person. */
export interface Person {
  /** Profile headline. */
  headline: string | null; // trailing note
  tags: string[];
}
export const greeting = \`hello \${"world"} // not a comment\`;
export const limit = 25;
`;
const same = (after: string) => sameTypeScript("x.ts", BASE, after);

describe("sameTypeScript", () => {
  it("accepts changes to comments, JSDoc and layout", () => {
    expect(same(BASE)).toBe(true);
    expect(same(BASE.replace("Profile headline.", "Profile headline, as the person wrote it."))).toBe(true);
    expect(same(BASE.replace("// trailing note", "// another note"))).toBe(true);
    expect(same(BASE.replace("/** A person. */\n", ""))).toBe(true);
    expect(same(BASE.replace("tags: string[];", "tags:   string[] ;\n\n"))).toBe(true);
  });

  it("rejects any change to code, types or literals", () => {
    expect(same(BASE.replace("headline: string | null", "headline: string"))).toBe(false);
    expect(same(BASE.replace("headline:", "headline?:"))).toBe(false);
    expect(same(BASE.replace("limit = 25", "limit = 26"))).toBe(false);
    expect(same(BASE.replace('"world"', '"earth"'))).toBe(false);
    // Text after `//` inside a template literal is code, not a comment.
    expect(same(BASE.replace("// not a comment", "// changed"))).toBe(false);
    expect(same(BASE.replace("export const limit", "const limit"))).toBe(false);
  });

  it("rejects changes to comments a checker reads, and any change in a file with a @ts- directive", () => {
    expect(same(`/// <reference types="node" />\n${BASE}`)).toBe(false);
    expect(same(`/* eslint-disable */\n${BASE}`)).toBe(false);
    expect(same(BASE.replace("// trailing note", "// eslint-disable-line"))).toBe(false);
    const directive = `// @ts-expect-error: wrong on purpose\nexport const n: number = "x";\n`;
    expect(
      sameTypeScript(
        "d.ts",
        directive,
        `// @ts-expect-error: wrong on purpose\n// moved\nexport const n: number = "x";\n`,
      ),
    ).toBe(false);
    expect(sameTypeScript("d.ts", directive, directive)).toBe(true);
  });

  it("holds for the generated types when a spec description is reworded, and not when a property is renamed", () => {
    const types = readFileSync(join(REPO_ROOT, "generated", "schema.d.ts"), "utf8");
    const jsdoc = types.indexOf("/** @description ");
    expect(jsdoc).toBeGreaterThan(0);
    const reworded = `${types.slice(0, jsdoc)}/** @description Reworded. ${types.slice(jsdoc + 17)}`;
    expect(sameTypeScript("schema.d.ts", types, reworded)).toBe(true);
    expect(sameTypeScript("schema.d.ts", types, types.replace(/\bheadline(\??):/, "headline_text$1:"))).toBe(false);
  });
});

describe("sameJsonShape", () => {
  const doc = JSON.stringify({ info: { title: "T", version: "1.0.0" }, tags: [{ name: "a" }], max: 100, open: true });
  const edit = (f: (d: any) => void) => {
    const d = JSON.parse(doc);
    f(d);
    return JSON.stringify(d, null, 2);
  };

  it("accepts changed string, number and boolean values and key order", () => {
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.info.title = "Reworded")),
      ),
    ).toBe(true);
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.max = 200)),
      ),
    ).toBe(true);
    expect(
      sameJsonShape(
        doc,
        JSON.stringify({ max: 1, open: false, tags: [{ name: "b" }], info: { version: "2", title: "" } }),
      ),
    ).toBe(true);
  });

  it("rejects a changed key, kind or array length, and text that is not JSON", () => {
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.info.summary = "new")),
      ),
    ).toBe(false);
    expect(
      sameJsonShape(
        doc,
        edit((d) => delete d.open),
      ),
    ).toBe(false);
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.max = "100")),
      ),
    ).toBe(false);
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.open = null)),
      ),
    ).toBe(false);
    expect(
      sameJsonShape(
        doc,
        edit((d) => d.tags.push({ name: "b" })),
      ),
    ).toBe(false);
    expect(
      sameJsonShape(
        doc,
        edit((d) => (d.tags = { name: "a" })),
      ),
    ).toBe(false);
    expect(sameJsonShape(doc, `${doc.slice(0, -1)}`)).toBe(false);
  });
});

describe("sameForTypeScript", () => {
  it("treats an added or deleted file as a change, and picks the proof by the file's kind", () => {
    expect(sameForTypeScript("a.ts", undefined, "export {};\n")).toBe(false);
    expect(sameForTypeScript("a.ts", "export {};\n", undefined)).toBe(false);
    expect(sameForTypeScript("a.json", '{"a":"x"}', '{"a":"y"}')).toBe(true);
    expect(sameForTypeScript("a.ts", 'export const a = "x";\n', 'export const a = "y";\n')).toBe(false);
  });
});
