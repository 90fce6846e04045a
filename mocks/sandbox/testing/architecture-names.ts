/**
 * The code names a Markdown document quotes (`createSandboxCore`, `core/pipeline.ts`, the helper lists of its
 * map) and whether each resolves: a name to a declaration in the repository's TypeScript sources, a path to a
 * file. ARCHITECTURE.md's test (architecture.test.ts) keeps the document naming only what exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Identifiers and `.ts` paths the text quotes in backticks, and the `a/b/c` identifier lists of its code blocks. */
export function quotedNames(markdown: string): { names: string[]; paths: string[] } {
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    const token = m[1]!.replace(/\(.*\)$/, "");
    if (IDENT.test(token)) names.add(token);
    else if (/^[\w./-]+\.ts$/.test(token)) paths.add(token);
  }
  for (const block of markdown.matchAll(/```\n([\s\S]*?)```/g))
    for (const list of block[1]!.matchAll(/(?<![\w./-])([A-Za-z_$][\w$]*(?:\/[A-Za-z_$][\w$]*)+)(?![\w./-])/g))
      for (const name of list[1]!.split("/")) names.add(name);
  return { names: [...names].sort(), paths: [...paths].sort() };
}

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "dist", "scratch"].includes(e.name) || e.name.startsWith(".")) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) sources(path, out);
    else if (e.name.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(e.name)) out.push(path);
  }
  return out;
}

/** The names declared by the sources under `root` (functions, classes, types, variables, methods, properties). */
export function declaredNames(root: string, dirs: readonly string[]): Set<string> {
  const out = new Set<string>();
  const declaration =
    /\b(?:function\*?|class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)|^\s*(?:readonly\s+|async\s+|get\s+)?([A-Za-z_$][\w$]*)\??\s*[(:<]/gm;
  for (const dir of dirs)
    for (const file of sources(join(root, dir)))
      for (const m of readFileSync(file, "utf8").matchAll(declaration)) out.add(m[1] ?? m[2]!);
  return out;
}

/** What `markdown` quotes that resolves to nothing: names not declared, paths (from `bases`) not found. */
export function unresolvedNames(
  markdown: string,
  declared: ReadonlySet<string>,
  bases: readonly string[],
): { names: string[]; paths: string[] } {
  const { names, paths } = quotedNames(markdown);
  return {
    names: names.filter((n) => !declared.has(n)),
    paths: paths.filter((p) => !bases.some((base) => existsSync(join(base, p)))),
  };
}
