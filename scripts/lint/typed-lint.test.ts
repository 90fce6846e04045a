// typedLint on a small project of its own: the typecheck finds type errors (again from its build info), and
// ESLint's type-aware rules see types on the program the typecheck built as they do through the project service.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import { typedLint } from "./typed-lint.js";

const dir = mkdtempSync(join(tmpdir(), "typed-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TSCONFIG = {
  compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "NodeNext", types: [], skipLibCheck: true },
  include: ["*.ts"],
};
/** The project's type-aware rule that needs types the most: a promise nobody awaits. */
const eslintConfig = (projectService: boolean) =>
  defineConfig(...tseslint.configs.recommended, {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: projectService ? { projectService: true, tsconfigRootDir: dir } : {} },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  });

function project(files: Record<string, string>): void {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}
const typecheck = { tsconfig: join(dir, "tsconfig.json"), buildInfo: join(dir, "cache", "tsbuildinfo") };

describe("typedLint", () => {
  it("a clean project: no error from tsc nor ESLint, and the build info is written", async () => {
    project({
      "a.ts": "export const a: number = 1;\n",
      "b.ts": 'import { a } from "./a.js";\nexport const b = a + 1;\n',
    });
    const outcome = await typedLint({ cwd: dir, patterns: ["."], typecheck, eslintConfig: eslintConfig(false) });
    expect(outcome.tsc).toMatchObject({ problems: 0, text: "", files: 2 });
    expect(outcome.eslint).toMatchObject({ problems: 0, text: "", files: 2 });
    expect(existsSync(typecheck.buildInfo)).toBe(true);
  });

  it("a type error is reported as tsc reports it, and again when its file is unchanged since the last build", async () => {
    project({ "b.ts": 'import { a } from "./a.js";\nexport const b: string = a;\n' });
    for (let run = 0; run < 2; run++) {
      const { tsc } = await typedLint({ cwd: dir, patterns: [], typecheck });
      expect(tsc?.problems).toBe(1);
      expect(tsc?.text).toMatch(/^b\.ts\(2,14\): error TS2322: Type 'number' is not assignable to type 'string'\./);
    }
    project({ "b.ts": 'import { a } from "./a.js";\nexport const b = a + 1;\n' });
  });

  it("ESLint's type-aware rules find a floating promise on the typechecked program, as through the project service", async () => {
    project({ "c.ts": "async function f(): Promise<void> {}\nf();\n" });
    const shared = await typedLint({ cwd: dir, patterns: ["."], typecheck, eslintConfig: eslintConfig(false) });
    const service = await typedLint({ cwd: dir, patterns: ["c.ts"], eslintConfig: eslintConfig(true) });
    expect(shared.tsc?.problems).toBe(0);
    for (const { eslint } of [shared, service]) {
      expect(eslint?.problems).toBe(1);
      expect(eslint?.text).toContain("@typescript-eslint/no-floating-promises");
    }
    expect(service.tsc).toBeUndefined();
    rmSync(join(dir, "c.ts"));
  });

  it("without patterns ESLint does not run; an ignored file is left out without a warning", async () => {
    expect(await typedLint({ cwd: dir, patterns: [], typecheck })).not.toHaveProperty("eslint");
    const ignored = [{ ignores: ["a.ts"] }, ...eslintConfig(true)];
    const outcome = await typedLint({ cwd: dir, patterns: ["a.ts"], eslintConfig: ignored });
    expect(outcome.eslint).toMatchObject({ problems: 0, text: "", files: 0 });
  });
});
