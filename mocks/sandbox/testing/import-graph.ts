/**
 * The import graph of the whole repository (every TypeScript source outside node_modules and dist, tests
 * included) and its circles: a file that reaches itself through its imports, type-only imports and
 * re-exports counted (a circle of types is still two modules that must be read together). Imports are read by
 * TypeScript's pre-processor, as the layer rule (layers.ts) reads them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

// fixtures hold deliberate bad trees (the layer rule's cycle fixture among them).
const SKIP = new Set(["node_modules", "dist", ".git", "scratch", "fixtures"]);

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** A relative specifier to the `.ts` file it names, or null (a package, a built-in, a .d.ts or a JSON file). */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")])
    if (existsSync(candidate) && candidate.endsWith(".ts")) return candidate;
  return null;
}

/** file (relative to root) -> the repository files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const abs of sources(resolve(root))) {
    const imports = ts
      .preProcessFile(readFileSync(abs, "utf8"), true, true)
      .importedFiles.map((f) => resolveImport(abs, f.fileName))
      .filter((t): t is string => t !== null)
      .map((t) => relative(root, t));
    graph.set(relative(root, abs), [...new Set(imports)]);
  }
  return graph;
}

/** Every circle, as the files of a strongly connected group (Tarjan), each group sorted; none when acyclic. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
