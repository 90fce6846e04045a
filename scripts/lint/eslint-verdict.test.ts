// ESLint's remembered clean verdict (eslint-verdict.ts): the key moves with every input a type-aware verdict can
// depend on (a linted file, a file it imports that is not linted, a JSON module, the configurations, the
// installed packages) and not with a Markdown file; a clean run is kept, a failing one is never kept and forgets
// the record, so the next run lints again; an input edited while the lint ran leaves no record.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eslintInputsKey, withCleanVerdict } from "./eslint-verdict.js";

const root = mkdtempSync(join(tmpdir(), "eslint-verdict-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string) => {
  mkdirSync(join(root, file, ".."), { recursive: true });
  writeFileSync(join(root, file), text);
};
write("tsconfig.json", JSON.stringify({ include: ["src"], compilerOptions: { noEmit: true } }));
write("eslint.config.js", "export default [];\n");
write("package.json", "{}\n");
write("package-lock.json", "{}\n");
write("node_modules/.package-lock.json", "{}\n");
write("src/a.ts", "export const a = 1;\n");
// Imported by a.ts's callers, but not among the linted files: the program still reads it.
write("src/types.d.ts", "export type T = number;\n");
write("data/limits.json", "{}\n");
// Outside tsconfig.json's list, but a module of the program may import it.
write("tools/helper.ts", "export const h = 1;\n");
write("README.md", "# readme\n");
const linted = ["src/a.ts", "eslint.config.js"];
const project = [
  "README.md",
  "data/limits.json",
  "eslint.config.js",
  "src/a.ts",
  "src/types.d.ts",
  "tools/helper.ts",
  "tsconfig.json",
];
const key = () => eslintInputsKey(root, linted, project);

describe("the key of ESLint's verdict", () => {
  it("changes with each input the verdict depends on, and with the list linted", async () => {
    const inputs: [string, string][] = [
      ["src/a.ts", "export const a = 2;\n"],
      ["src/types.d.ts", "export type T = () => Promise<number>;\n"],
      ["data/limits.json", '{ "max": 1 }\n'],
      ["tools/helper.ts", "export const h = 2;\n"],
      ["eslint.config.js", "export default [{}];\n"],
      ["tsconfig.json", JSON.stringify({ include: ["src"], compilerOptions: { strict: true } })],
      ["package-lock.json", '{ "v": 2 }\n'],
      ["node_modules/.package-lock.json", '{ "v": 2 }\n'],
    ];
    for (const [file, text] of inputs) {
      const before = await key();
      write(file, text);
      expect(await key(), file).not.toBe(before);
    }
    expect(await eslintInputsKey(root, ["src/a.ts"], project)).not.toBe(await key());
  });

  it("a new file of the program changes it; a Markdown file does not", async () => {
    const before = await key();
    write("README.md", "# changed\n");
    expect(await key()).toBe(before);
    write("src/b.ts", "export const b = 1;\n");
    expect(await key()).not.toBe(before);
  });
});

describe("withCleanVerdict", () => {
  const lint = (problems: number, during?: () => void) => {
    const calls: number[] = [];
    return { calls, run: async () => (during?.(), calls.push(problems), { problems }) };
  };
  const fixed = (k: string) => async () => k;

  it("keeps a clean verdict for its key only; a failing run is never kept and forgets the record", async () => {
    const clean = lint(0);
    expect(await withCleanVerdict(root, fixed("k1"), clean.run)).toEqual({ cached: false, outcome: { problems: 0 } });
    expect(await withCleanVerdict(root, fixed("k1"), clean.run)).toEqual({ cached: true });
    expect(clean.calls).toEqual([0]);
    expect(await withCleanVerdict(root, fixed("k2"), clean.run)).toMatchObject({ cached: false });
    const failing = lint(3);
    expect(await withCleanVerdict(root, fixed("k3"), failing.run)).toEqual({ cached: false, outcome: { problems: 3 } });
    expect(await withCleanVerdict(root, fixed("k3"), failing.run)).toMatchObject({ cached: false });
    // The failed run forgot k2's record too: the tree that passed must pass again before it is trusted.
    expect(await withCleanVerdict(root, fixed("k2"), clean.run)).toMatchObject({ cached: false });
    expect(failing.calls).toEqual([3, 3]);
  });

  it("keeps no verdict when an input changed while the lint ran", async () => {
    // The key is taken on A, ESLint reads B: a record would pass A, which no lint has read.
    write("src/a.ts", "export const a = 3;\n");
    const edited = lint(0, () => write("src/a.ts", "export const a = 4;\n"));
    expect(await withCleanVerdict(root, key, edited.run)).toMatchObject({ cached: false });
    write("src/a.ts", "export const a = 3;\n");
    const clean = lint(0);
    expect(await withCleanVerdict(root, key, clean.run)).toMatchObject({ cached: false });
    expect(await withCleanVerdict(root, key, clean.run)).toEqual({ cached: true });
    expect(clean.calls).toEqual([0]);
  });
});
