// runEslint on a small project of its own: a clean file passes, a file breaking a type-aware rule is reported,
// an ignored file is left out without a warning, and a program handed in (npm test's) is where the types come from.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "eslint/config";
import ts from "typescript";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import { runEslint } from "./eslint.js";

const dir = mkdtempSync(join(tmpdir(), "eslint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "NodeNext",
      types: [],
      skipLibCheck: true,
    },
    include: ["*.ts"],
  }),
);
writeFileSync(join(dir, "clean.ts"), "export async function f(): Promise<void> {}\nawait f();\n");
writeFileSync(join(dir, "floating.ts"), "async function f(): Promise<void> {}\nf();\n");

/** The project's type-aware rule that needs types the most: a promise nobody awaits. */
const eslintConfig = defineConfig(...tseslint.configs.recommended, {
  files: ["**/*.ts"],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: dir } },
  rules: { "@typescript-eslint/no-floating-promises": "error" },
});

describe("runEslint", () => {
  it("passes a clean file", async () => {
    expect(await runEslint({ cwd: dir, patterns: ["clean.ts"], eslintConfig })).toEqual({
      problems: 0,
      text: "",
      files: 1,
    });
  });

  it("reports a floating promise, found through the types, with the file and the rule", async () => {
    const outcome = await runEslint({ cwd: dir, patterns: ["."], eslintConfig });
    expect(outcome).toMatchObject({ problems: 1, files: 2 });
    expect(outcome.text).toContain("floating.ts");
    expect(outcome.text).toContain("@typescript-eslint/no-floating-promises");
  });

  it("leaves an ignored file out without a warning", async () => {
    const ignored = [{ ignores: ["floating.ts"] }, ...eslintConfig];
    expect(await runEslint({ cwd: dir, patterns: ["floating.ts"], eslintConfig: ignored })).toEqual({
      problems: 0,
      text: "",
      files: 0,
    });
  });

  it("reads the types from a program handed in, and fails a file that program lacks", async () => {
    const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext };
    const program = ts.createProgram([join(dir, "floating.ts")], { ...options, types: [], skipLibCheck: true });
    const outcome = await runEslint({ cwd: dir, patterns: ["."], eslintConfig, program });
    expect(outcome).toMatchObject({ problems: 2, files: 2 });
    expect(outcome.text).toContain("@typescript-eslint/no-floating-promises");
    expect(outcome.text).toMatch(/clean\.ts\n[^\n]*Parsing error[^]*not found in any of the provided program/);
  });
});
