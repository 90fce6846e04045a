// npm test's typecheck in-process (projectProgram, typecheckProgram) on a small project of its own: a clean one
// passes with the line `npm run typecheck` prints, errors are reported as tsc reports them (a syntax error stops
// the check before the semantic one), hints lead.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectProgram, typecheckProgram, typecheckReport } from "./typecheck.js";

const project = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), "typecheck-"));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "ES2022",
    lib: ["ES2022"],
    module: "NodeNext",
    types: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  dirs.push(dir);
  return dir;
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const PASSED = "✔ tsc --noEmit: no type errors (tsconfig.json's include list)\n";

describe("typecheckProgram", () => {
  it("passes a clean project with the line npm run typecheck prints", async () => {
    const dir = project({ "clean.ts": "export const n: number = 1;\n" });
    expect(await typecheckProgram(await projectProgram(dir), dir)).toEqual({ ok: true, output: PASSED });
  });

  it("reports a type error in the include list as tsc does, from the project's root", async () => {
    const dir = project({
      "clean.ts": "export const n: number = 1;\n",
      "bad.ts": "export {};\nconst s: string = 5;\n",
    });
    expect(await typecheckProgram(await projectProgram(dir), dir)).toEqual({
      ok: false,
      output: "bad.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.\n",
    });
  });

  it("stops at a syntax error before the semantic check, as tsc does", async () => {
    const dir = project({ "broken.ts": "export const a = ;\n", "bad.ts": "export {};\nconst s: string = 5;\n" });
    expect(await typecheckProgram(await projectProgram(dir), dir)).toEqual({
      ok: false,
      output: "broken.ts(1,18): error TS1109: Expression expected.\n",
    });
  });
});

describe("typecheckReport", () => {
  it("puts the house-rule hints before tsc's output, and the passed line only when it passed", () => {
    const tsc =
      "mocks/x.ts(3,5): error TS2741: Property 'name' is missing in type '{}' but required in type 'Person'.\n";
    const report = typecheckReport(tsc, false);
    expect(report).toMatch(/^house rule \(spec\/DECISIONS\.md 1[^\n]*mocks\/x\.ts:3 does not produce `name`/);
    expect(report.endsWith(`\n\n${tsc}`)).toBe(true);
    expect(typecheckReport("", true)).toBe(PASSED);
  });
});
