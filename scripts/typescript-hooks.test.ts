/**
 * scripts/typescript-hooks.ts: a TypeScript file's `./x.js` import reaches `x.ts`, a real `x.js` still loads,
 * a missing module is reported under the name the source wrote, and nothing else is rewritten.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, RUN_TYPESCRIPT } from "../contract-core/spec.js";

const dir = mkdtempSync(join(tmpdir(), "typescript-hooks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** Runs `file` (in the scratch folder) as the npm scripts run theirs. */
function run(file: string, args: readonly string[] = RUN_TYPESCRIPT) {
  const result = spawnSync(process.execPath, [...args, join(dir, file)], { cwd: dir, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

write({
  "package.json": JSON.stringify({ type: "module" }),
  "typed.ts": "export const twice = (n: number): number => n * 2;\n",
  "plain.js": "export const plain = 'plain js';\n",
  "main.ts": [
    'import { twice } from "./typed.js";',
    'import { plain } from "./plain.js";',
    'import type { Server } from "node:http";',
    "const none: Server | null = null;",
    "console.log(twice(21), plain, none);",
  ].join("\n"),
  "missing.ts": 'import { gone } from "./gone.js";\nconsole.log(gone);\n',
  "from-js.js": 'import { twice } from "./typed.js";\nconsole.log(twice(1));\n',
  "enum.ts": "enum Color { Red }\nconsole.log(Color.Red);\n",
  "query.mjs": 'await import("./main.ts?run=1");\n',
});

describe("scripts/typescript-hooks.ts", () => {
  it("resolves a TypeScript file's ./x.js import to x.ts, and still loads a real x.js", () => {
    expect(run("main.ts")).toMatchObject({ status: 0, stdout: "42 plain js null" });
  });

  it("does so for a TypeScript module imported with a query (vitest adds one to the files it imports)", () => {
    expect(run("query.mjs")).toMatchObject({ status: 0, stdout: "42 plain js null" });
  });

  it("reports a module that exists in neither form under the name the source wrote", () => {
    const result = run("missing.ts");
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("ERR_MODULE_NOT_FOUND");
    expect(result.stderr).toMatch(/gone\.js/);
    expect(result.stderr).not.toMatch(/gone\.ts/);
  });

  it("rewrites nothing for a JavaScript importer (only TypeScript sources use the convention)", () => {
    const result = run("from-js.js");
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("ERR_MODULE_NOT_FOUND");
  });

  it("is what makes the .js specifiers work: without it Node finds no typed.js", () => {
    const result = run("main.ts", []);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/typed\.js/);
  });

  it("leaves syntax Node cannot strip to Node's own error, which tsconfig's erasableSyntaxOnly keeps out of the sources", () => {
    const result = run("enum.ts");
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX");
    const tsconfig = JSON.parse(readFileSync(join(REPO_ROOT, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions.erasableSyntaxOnly).toBe(true);
  });
});
