/**
 * Proves that a changed file cannot change what TypeScript (tsc, and typescript-eslint's type-aware rules) sees:
 * a TypeScript file whose syntax tree, printed without comments, is the same and whose directive comments are
 * the same; a JSON file with the same shape (the type of a JSON module widens every string, number and boolean
 * to its kind, so only keys, kinds and array lengths matter). The gate uses it to skip the typecheck and the
 * whole-tree ESLint pass when a spec change only rewords descriptions (they land in comments in
 * generated/schema.d.ts and in strings in generated/openapi.json). Anything it cannot read counts as a change.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

/** File kinds TypeScript can see: sources and declarations, and JSON modules. */
export const TS_VISIBLE = /\.(?:[cm]?ts|tsx|json)$/;

/**
 * Lines that carry a comment with meaning for a checker: triple-slash references, `@ts-` directives, JSX
 * pragmas, ESLint and global directives. Over-matching (such text in a string) only makes the proof stricter.
 */
const DIRECTIVE = /\/\/\/|@ts-|@jsx|eslint|\bglobals?\b/;

/**
 * The compiler, loaded on the first proof: every gate run (and its --help) would otherwise pay for loading it,
 * and `require` loads it in about half the time an ESM import of its 9 MB CommonJS file takes.
 */
let compiler: { ts: typeof TypeScript; printer: TypeScript.Printer } | undefined;

function typescript(): { ts: typeof TypeScript; printer: TypeScript.Printer } {
  if (!compiler) {
    const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;
    compiler = { ts, printer: ts.createPrinter({ removeComments: true }) };
  }
  return compiler;
}

function printedWithoutComments(name: string, text: string): string {
  const { ts, printer } = typescript();
  const kind = name.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return printer.printFile(ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, kind));
}

const directiveLines = (text: string) => text.split("\n").filter((line) => DIRECTIVE.test(line));

/** True when two versions of a TypeScript file differ only in comments and layout that no checker reads. */
export function sameTypeScript(name: string, before: string, after: string): boolean {
  if (before === after) return true;
  // `@ts-expect-error` and `@ts-ignore` act on the next line: a comment added between them and their target
  // moves the target, so a file with such a directive must be unchanged to count as the same.
  if (/@ts-/.test(before) || /@ts-/.test(after)) return false;
  const [a, b] = [directiveLines(before), directiveLines(after)];
  if (a.length !== b.length || a.some((line, i) => line !== b[i])) return false;
  return printedWithoutComments(name, before) === printedWithoutComments(name, after);
}

type Shape = null | "string" | "number" | "boolean" | "null" | Shape[] | { [key: string]: Shape };

function shapeOf(value: unknown): Shape {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === "object") {
    const out: { [key: string]: Shape } = {};
    for (const key of Object.keys(value as object).sort()) out[key] = shapeOf((value as Record<string, unknown>)[key]);
    return out;
  }
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return null;
}

/** True when two versions of a JSON file give the same TypeScript type: same keys, kinds and array lengths. */
export function sameJsonShape(before: string, after: string): boolean {
  if (before === after) return true;
  try {
    return JSON.stringify(shapeOf(JSON.parse(before))) === JSON.stringify(shapeOf(JSON.parse(after)));
  } catch {
    return false;
  }
}

/** True when `path`'s two versions (undefined: the file does not exist on that side) look the same to TypeScript. */
export function sameForTypeScript(path: string, before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return before === after;
  if (path.endsWith(".json")) return sameJsonShape(before, after);
  return sameTypeScript(path, before, after);
}
