// The gate's proof that a test file cannot be affected: closed test files (own sources, JSON and reader-free
// packages only) are skipped when nothing in their closure changed; every way out of the closure keeps a test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectTests } from "./test-selection.js";

const FILES: Record<string, string> = {
  "lib/sum.ts":
    'import data from "./data.json" with { type: "json" };\nexport const sum = (a: number) => a + data.n;\n',
  "lib/data.json": '{ "n": 1 }\n',
  "lib/later.ts": "export const later = 2;\n",
  "lib/reader.ts": 'import { readFileSync } from "node:fs";\nexport const read = () => readFileSync("x", "utf8");\n',
  "lib/types.ts": "export interface Shape { n: number }\n",
  "closed.test.ts":
    'import { expect, it } from "vitest";\nimport type { Shape } from "./lib/types.js";\nimport { sum } from "./lib/sum.js";\nconst s: Shape = { n: 1 };\nit("sums", async () => expect(sum(s.n) + (await import("./lib/later.js")).later).toBe(4));\n',
  "reads.test.ts":
    'import { it } from "vitest";\nimport { read } from "./lib/reader.js";\nit("reads", () => void read);\n',
  "where.test.ts": 'import { it } from "vitest";\nit("where", () => void new URL(".", import.meta.url));\n',
  "package.test.ts":
    'import { it } from "vitest";\nimport { parse } from "yaml";\nit("parses", () => void parse("a: 1"));\n',
  "computed.test.ts":
    'import { it } from "vitest";\nconst name = "./lib/sum.js";\nit("loads", async () => void (await import(name)));\n',
  "snapshot.test.ts": 'import { expect, it } from "vitest";\nit("snaps", () => expect(1).toMatchSnapshot());\n',
  "spawns.test.ts":
    'import { it } from "vitest";\nimport { execFileSync } from "node:child_process";\nit("spawns", () => void execFileSync);\n',
};
const TESTS = Object.keys(FILES).filter((f) => f.endsWith(".test.ts"));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "test-selection-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("selectTests", () => {
  it("skips a closed test file when nothing in its closure changed, and only that one", async () => {
    const selection = await selectTests(dir, TESTS, ["README.md"]);
    expect(selection.skip).toEqual(["closed.test.ts"]);
  });

  it("keeps a closed test file when a source, a JSON import or a dynamically imported module of its closure changed", async () => {
    for (const changed of ["lib/sum.ts", "lib/data.json", "lib/later.ts", "closed.test.ts"]) {
      const selection = await selectTests(dir, TESTS, [changed]);
      expect(selection.skip, changed).toEqual([]);
      expect(selection.reached["closed.test.ts"], changed).toEqual([changed]);
    }
  });

  it("never skips a test that reads files, names its location, imports an unknown package, computes an import, snapshots or spawns", async () => {
    const selection = await selectTests(dir, TESTS, []);
    expect(selection.skip).toEqual(["closed.test.ts"]);
    for (const test of TESTS.filter((t) => t !== "closed.test.ts"))
      expect(selection.reached[test], test).toBeUndefined();
  });

  it("a type-only import is not part of the closure: it cannot change what runs", async () => {
    expect((await selectTests(dir, TESTS, ["lib/types.ts"])).skip).toEqual(["closed.test.ts"]);
  });

  it("selects nothing when esbuild cannot follow the imports", async () => {
    writeFileSync(join(dir, "broken.test.ts"), 'import { gone } from "./lib/gone.js";\nvoid gone;\n');
    try {
      expect(await selectTests(dir, [...TESTS, "broken.test.ts"], ["README.md"])).toEqual({ skip: [], reached: {} });
    } finally {
      rmSync(join(dir, "broken.test.ts"));
    }
  });
});
