/**
 * Finds a spec-held number written again in code: a numeric literal on a line of mocks/ or client/ source that
 * names a parameter or property (`limit`, `MAX_EMAILS`, `result_limit`) whose default, bound or clamp in the
 * spec is that number. The spec's values come from generated/spec-constants.ts (drift-checked against spec/).
 * 0 and 1 are left out: every offset, count and index starts there, so they name no spec value.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PARAMETER_RULES, PROPERTY_RULES } from "../generated/spec-constants.js";

export interface LiteralHit {
  file: string;
  line: number;
  text: string;
  value: number;
  name: string;
}

const flat = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");
const TRIVIAL = new Set([0, 1]);

/** Normalized parameter or property name -> the numbers the spec gives it (defaults, bounds, clamps). */
export function specNumbers(
  tables: readonly Record<string, Record<string, Record<string, unknown>>>[] = [PARAMETER_RULES, PROPERTY_RULES],
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const add = (name: string, value: unknown) => {
    if (typeof value !== "number" || TRIVIAL.has(value)) return;
    const key = flat(name);
    if (!out.has(key)) out.set(key, new Set());
    out.get(key)!.add(value);
  };
  for (const table of tables)
    for (const byName of Object.values(table))
      for (const [name, rule] of Object.entries(byName))
        for (const [keyword, value] of Object.entries(rule)) {
          if (keyword === "x-clamp" && typeof value === "object" && value !== null)
            for (const bound of Object.values(value)) add(name, bound);
          else add(name, value);
        }
  return out;
}

/** The code of a line without its comment and string literals (a quoted number or a comment is no literal). */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith("*") || trimmed.startsWith("/*") || trimmed.startsWith("//")) return "";
  return line
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
    .replace(/\/\/.*$/, "")
    .replace(/\/\*.*?\*\//g, "");
}

/** The hits in one source text. */
export function findSpecLiterals(file: string, source: string, numbers = specNumbers()): LiteralHit[] {
  const hits: LiteralHit[] = [];
  source.split("\n").forEach((text, i) => {
    const code = codeOf(text);
    const names = flat(code);
    for (const m of code.matchAll(/(?<![\w.$])\d[\d_]*(?![\w.])/g)) {
      const value = Number(m[0].replaceAll("_", ""));
      for (const [name, values] of numbers)
        if (values.has(value) && names.includes(name)) hits.push({ file, line: i + 1, text: text.trim(), value, name });
    }
  });
  return hits;
}

/** The shipped source files under `dirs` (tests, type tests, test helpers and fixtures left out). */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["node_modules", "fixtures", "testing", "golden"].includes(entry.name)) walk(path);
      } else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name)) out.push(path);
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return out.map((p) => relative(root, p)).sort();
}

export function scanSpecLiterals(root: string, dirs: readonly string[] = ["mocks", "client"]): LiteralHit[] {
  const numbers = specNumbers();
  return sourceFiles(root, dirs).flatMap((file) =>
    findSpecLiterals(file, readFileSync(join(root, file), "utf8"), numbers),
  );
}
