/**
 * The sandbox's layers and the rule that keeps them: a source file imports only from its own layer or
 * below, never sideways into a sibling layer of the same rank (the MSW host and the Node host), no import
 * cycle exists, and nothing in a browser-safe layer reaches Node built-ins or Fastify (directly or through
 * what it imports), so the core and the MSW host run in a browser; those layers reach contract-core through
 * its node-free entry (`contract-core/portable.ts`) only. No shipped module imports `scripts/`, `examples/`
 * or a test folder. Imports are read by TypeScript's pre-processor (static, re-export, side-effect and
 * dynamic); tests (testing/, *.test.ts, fixtures) are not layered.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/**
 * Lowest rank first. A file's layer is the first whose pattern matches its path relative to the sandbox root.
 * Layers of the same rank may not import each other; `browserSafe` layers stay free of Node and Fastify.
 */
export const LAYERS: readonly { name: string; rank: number; match: RegExp; browserSafe: boolean }[] = [
  { name: "errors", rank: 0, match: /^contract\/errors\.ts$/, browserSafe: true },
  { name: "data generation", rank: 1, match: /^data\//, browserSafe: true },
  { name: "read-side domain", rank: 2, match: /^domain\//, browserSafe: true },
  { name: "area contract", rank: 3, match: /^contract\//, browserSafe: true },
  { name: "areas", rank: 4, match: /^areas\//, browserSafe: true },
  { name: "core", rank: 5, match: /^core\//, browserSafe: true },
  { name: "host-common", rank: 6, match: /^hosts\/[^/]+\.ts$/, browserSafe: true },
  { name: "Node host", rank: 7, match: /^hosts\/node\//, browserSafe: false },
  { name: "MSW host", rank: 7, match: /^hosts\/msw\//, browserSafe: true },
  { name: "entry", rank: 8, match: /^start\.ts$/, browserSafe: false },
];

const FORBIDDEN_IN_BROWSER = /^(node:|fastify$|fastify\/)/;

export interface LayerReport {
  /** "data/graph.ts (data generation) imports domain/search.ts (read-side domain)" */
  upward: string[];
  /** "hosts/msw/msw.ts (MSW host) imports hosts/node/cli.ts (Node host)": a sibling layer of the same rank. */
  sideways: string[];
  /** "areas/lists.ts imports testing/harness.ts": a shipped module reaching scripts/, examples/ or a test folder. */
  toolingImports: string[];
  /** Each cycle as a chain of files, first repeated last. */
  cycles: string[][];
  /** "core/core.ts reaches node:fs through hosts/node/node-state-storage.ts" */
  notBrowserSafe: string[];
  /** Source files outside every layer. */
  unlayered: string[];
  /** "core/prefer.ts imports contract-core/prefer.ts": browser-safe layers reach contract-core through its node-free entry only. */
  deepCoreImports: string[];
}

/** The one contract-core file the browser-safe layers may import. */
export const PORTABLE_CORE_ENTRY = "contract-core/portable.ts";

const isTest = (file: string) => /\.test(-d)?\.ts$|^testing\/|(^|\/)fixtures\//.test(file);
/** A path (relative to the sandbox root) no shipped module may import: the repository's tooling or a test. */
const isTooling = (rel: string) =>
  isTest(rel) || /^(\.\.\/)+(scripts|examples)\/|\.test(-d)?\.ts$|(^|\/)(testing|fixtures)\//.test(rel);

/** Import specifiers of a TypeScript source, in source order. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

function listSources(dir: string, root: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") listSources(path, root, out);
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(relative(root, path));
  }
  return out;
}

/** A relative `.js` specifier to the `.ts` file it names (absolute path), or null for packages and built-ins. */
function resolveImport(fromAbs: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(fromAbs), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")])
    if (existsSync(candidate)) return candidate;
  return null;
}

/** The index of the file's layer in LAYERS, or -1 outside every layer. */
export function layerOf(file: string): number {
  return LAYERS.findIndex((l) => l.match.test(file));
}

/** The rank of the file's layer (lower imports nothing above it), or -1 outside every layer. */
export function rankOf(file: string): number {
  return LAYERS[layerOf(file)]?.rank ?? -1;
}

/** Checks every non-test source file under `root` (the sandbox folder, or a fixture shaped like it). */
export function checkLayers(root: string): LayerReport {
  const rootAbs = resolve(root);
  const files = listSources(rootAbs, rootAbs).filter((f) => !isTest(f));
  const report: LayerReport = {
    upward: [],
    sideways: [],
    cycles: [],
    notBrowserSafe: [],
    unlayered: [],
    deepCoreImports: [],
    toolingImports: [],
  };
  const edges = new Map<string, string[]>();

  // What each file (inside the root or not, e.g. contract-core) imports, resolved; cached for the reach walk.
  const importCache = new Map<string, { local: string[]; external: string[] }>();
  const importsOfFile = (abs: string) => {
    let entry = importCache.get(abs);
    if (!entry) {
      entry = { local: [], external: [] };
      for (const spec of importsOf(readFileSync(abs, "utf8"))) {
        const target = resolveImport(abs, spec);
        if (target) entry.local.push(target);
        else if (!spec.startsWith(".")) entry.external.push(spec);
      }
      importCache.set(abs, entry);
    }
    return entry;
  };

  for (const file of files) {
    const layer = layerOf(file);
    if (layer < 0) {
      report.unlayered.push(file);
      continue;
    }
    const from = LAYERS[layer]!;
    const abs = join(rootAbs, file);
    for (const spec of importsOf(readFileSync(abs, "utf8"))) {
      const rel = relative(rootAbs, resolve(dirname(abs), spec)).replace(/\.js$/, ".ts");
      if (spec.startsWith(".") && isTooling(rel))
        report.toolingImports.push(`${file} imports ${rel.replace(/^(\.\.\/)+/, "")}`);
    }
    const inside: string[] = [];
    for (const target of importsOfFile(abs).local) {
      const rel = relative(rootAbs, target);
      if (rel.startsWith("..")) {
        const core = /(?:^|\/)(contract-core\/[^/]+\.ts)$/.exec(target)?.[1];
        if (from.browserSafe && core !== undefined && core !== PORTABLE_CORE_ENTRY)
          report.deepCoreImports.push(`${file} imports ${core}`);
        continue;
      }
      inside.push(rel);
      const to = LAYERS[layerOf(rel)];
      if (to === undefined) continue;
      if (to.rank > from.rank) report.upward.push(`${file} (${from.name}) imports ${rel} (${to.name})`);
      else if (to.rank === from.rank && to !== from)
        report.sideways.push(`${file} (${from.name}) imports ${rel} (${to.name})`);
    }
    edges.set(file, inside);
    if (from.browserSafe) {
      const reached = reachForbidden(abs, importsOfFile);
      if (reached)
        report.notBrowserSafe.push(
          `${file} reaches ${reached.spec}${reached.via.length ? ` through ${reached.via.map((v) => relative(rootAbs, v)).join(" -> ")}` : ""}`,
        );
    }
  }
  report.cycles = findCycles(edges);
  return report;
}

function reachForbidden(
  start: string,
  importsOfFile: (abs: string) => { local: string[]; external: string[] },
): { spec: string; via: string[] } | null {
  const seen = new Set<string>([start]);
  const queue: { file: string; via: string[] }[] = [{ file: start, via: [] }];
  while (queue.length > 0) {
    const { file, via } = queue.shift()!;
    const { local, external } = importsOfFile(file);
    const bad = external.find((s) => FORBIDDEN_IN_BROWSER.test(s));
    if (bad) return { spec: bad, via };
    for (const next of local) {
      if (seen.has(next) || /\.test\.ts$/.test(next)) continue;
      seen.add(next);
      queue.push({ file: next, via: [...via, next] });
    }
  }
  return null;
}

/** Every elementary cycle found by a depth-first walk (each reported once, from its smallest file name). */
function findCycles(edges: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, "active" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "active");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "active") {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(" -> "), [...rotated, rotated[0]!]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return [...cycles.values()];
}
