/**
 * The compiler host that shares parsed declaration files between programs: a file is reused only while its
 * text and the settings that shape a parsed file are the same, and programs built on shared files still
 * type-check as programs of their own.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { cachingCompilerHost, createProgramSharingDeclarations } from "./typescript-source-cache.js";

const dir = mkdtempSync(path.join(tmpdir(), "tg-ts-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const shapes = write("shapes.d.ts", "export declare function area(side: number): number;\n");
const user = write("user.ts", 'import { area } from "./shapes.js";\nexport const a: number = area(2);\n');
const wrongUser = write("wrong.ts", 'import { area } from "./shapes.js";\nexport const a: number = area("2");\n');

function program(roots: string[], options = OPTIONS): ts.Program {
  return createProgramSharingDeclarations(ts, roots, options);
}

const errors = (p: ts.Program) =>
  ts.getPreEmitDiagnostics(p).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));

describe("cachingCompilerHost", () => {
  it("gives two programs the same parsed declaration files (TypeScript's lib included), and sources of their own", () => {
    const first = program([user]);
    const second = program([user]);
    expect(second.getSourceFile(shapes)).toBe(first.getSourceFile(shapes));
    const lib = first.getSourceFiles().find((f) => /lib\.es5\.d\.ts$/.test(f.fileName))!;
    expect(lib).toBeDefined();
    expect(second.getSourceFile(lib.fileName)).toBe(lib);
    expect(second.getSourceFile(user)).not.toBe(first.getSourceFile(user));
  });

  it("type-checks each program on the shared files: a wrong call is reported every time, a right one never", () => {
    expect(errors(program([user]))).toEqual([]);
    for (let i = 0; i < 2; i++)
      expect(errors(program([wrongUser]))).toEqual([
        "Argument of type 'string' is not assignable to parameter of type 'number'.",
      ]);
    expect(errors(program([user, wrongUser]))).toHaveLength(1);
  });

  it("parses a declaration file again once its text changed, and the program sees the new text", () => {
    const before = program([user]);
    const was = before.getSourceFile(shapes);
    write("shapes.d.ts", "export declare function area(side: string): number;\n");
    try {
      const after = program([user]);
      expect(after.getSourceFile(shapes)).not.toBe(was);
      expect(errors(after)).toEqual(["Argument of type 'number' is not assignable to parameter of type 'string'."]);
      expect(errors(program([wrongUser]))).toEqual([]);
    } finally {
      write("shapes.d.ts", "export declare function area(side: number): number;\n");
    }
    expect(errors(program([user]))).toEqual([]);
  });

  it("keeps files apart for settings that change a parsed or bound file (target, strictness), shares them across others", () => {
    const es2022 = program([user]);
    const es5 = program([user], { ...OPTIONS, target: ts.ScriptTarget.ES5 });
    expect(es5.getSourceFile(shapes)).not.toBe(es2022.getSourceFile(shapes));
    // Strict mode is bound into a file (the binder's strict-mode checks), not read from the program.
    const loose = program([user], { ...OPTIONS, strict: false });
    expect(loose.getSourceFile(shapes)).not.toBe(es2022.getSourceFile(shapes));
    const otherCheck = program([user], { ...OPTIONS, noUnusedLocals: true });
    expect(otherCheck.getSourceFile(shapes)).toBe(es2022.getSourceFile(shapes));
  });

  it("parses afresh when the compiler asks for a new file, and leaves a missing file to the default host", () => {
    const host = cachingCompilerHost(ts, OPTIONS);
    const shared = host.getSourceFile(shapes, ts.ScriptTarget.ES2022);
    expect(host.getSourceFile(shapes, ts.ScriptTarget.ES2022)).toBe(shared);
    expect(host.getSourceFile(shapes, ts.ScriptTarget.ES2022, undefined, true)).not.toBe(shared);
    expect(host.getSourceFile(path.join(dir, "missing.d.ts"), ts.ScriptTarget.ES2022)).toBeUndefined();
  });
});
