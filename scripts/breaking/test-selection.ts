/**
 * Which test files the gate can prove a change cannot affect. A test file qualifies when it is closed over its
 * sources: nothing in its import closure (followed by esbuild, JSON imports included) can read a file, start a
 * process or load code by a computed name, and every package it imports is one that reads no project file.
 * Such a test's verdict depends only on the files in its closure (plus the toolchain and configuration, whose
 * changes make the gate run everything); when none of them changed, it is skipped. Anything the analysis cannot
 * follow (a build error, an unknown package) keeps the test in the run.
 */
import { build, type Metafile } from "esbuild";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Packages a closed test may import: none of them reads or writes files or starts processes on its own
 * (openapi-fetch and MSW intercept or send fetch calls in memory; Ajv compiles the schemas it is given).
 * vitest is the runner; its snapshot matchers, which read files, are refused by SOURCE_IO below.
 */
export const CLOSED_PACKAGES: readonly string[] = ["vitest", "openapi-fetch", "ajv", "ajv-formats", "msw"];

/** Node built-ins that reach files, processes, other threads, the network or the module loader. */
const IO_BUILTINS =
  /^(?:node:)?(?:fs|fs\/promises|child_process|worker_threads|module|net|http|https|http2|dgram|cluster|inspector|vm|repl|tls|wasi)$/;

/**
 * Source text that reaches a file or code by a computed name: the module's own location (to build a path),
 * the working directory, CommonJS require, workers, vite's import.meta.glob, snapshot files, and dynamic
 * imports whose specifier is not a string literal (esbuild cannot follow those).
 */
const SOURCE_IO =
  /import\.meta\.(?:url|dirname|filename|glob|resolve)|process\.cwd\s*\(|process\.chdir\s*\(|\brequire\s*\(|__dirname|__filename|new\s+Worker\s*\(|toMatch(?:File)?Snapshot\s*\(|\bimport\s*\(\s*(?!["'][^"'`$]*["']\s*\))/;

const packageOf = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] ?? specifier);

export interface TestSelection {
  /** Test files (repository-relative) no change can affect. */
  skip: string[];
  /** Why a test file was kept (only for closed ones a change reaches, for the log). */
  reached: Record<string, string[]>;
}

/** The import closure of each entry in `metafile`, as repository-relative paths. */
function closures(metafile: Metafile, entries: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const entry of entries) {
    const seen = new Set<string>();
    const stack = [entry];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const i of metafile.inputs[file]?.imports ?? []) if (!i.external) stack.push(i.path);
    }
    out.set(entry, seen);
  }
  return out;
}

/** Whether every module of `closure` is closed (see the file comment); `texts` caches module sources. */
async function isClosed(
  closure: Set<string>,
  metafile: Metafile,
  cwd: string,
  texts: Map<string, Promise<boolean>>,
): Promise<boolean> {
  for (const file of closure) {
    const input = metafile.inputs[file];
    if (!input) return false;
    for (const i of input.imports) {
      if (!i.external) continue;
      if (IO_BUILTINS.test(i.path)) return false;
      if (!i.path.startsWith("node:") && !CLOSED_PACKAGES.includes(packageOf(i.path))) return false;
    }
    if (file.endsWith(".json")) continue;
    let clean = texts.get(file);
    if (!clean) {
      clean = readFile(join(cwd, file), "utf8").then(
        (text) => !SOURCE_IO.test(text),
        () => false,
      );
      texts.set(file, clean);
    }
    if (!(await clean)) return false;
  }
  return true;
}

/**
 * The test files among `testFiles` (repository-relative) that no file in `changed` can affect; an empty
 * selection when esbuild cannot follow the imports.
 */
export async function selectTests(
  cwd: string,
  testFiles: readonly string[],
  changed: readonly string[],
): Promise<TestSelection> {
  const selection: TestSelection = { skip: [], reached: {} };
  if (testFiles.length === 0) return selection;
  let metafile: Metafile;
  try {
    ({ metafile } = await build({
      absWorkingDir: cwd,
      entryPoints: [...testFiles],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      packages: "external",
      outdir: "out",
      splitting: true,
      logLevel: "silent",
    }));
  } catch {
    return selection;
  }
  const changedSet = new Set(changed);
  const texts = new Map<string, Promise<boolean>>();
  for (const [test, closure] of closures(metafile, testFiles)) {
    if (!(await isClosed(closure, metafile, cwd, texts))) continue;
    const reached = [...closure].filter((f) => changedSet.has(f));
    if (reached.length === 0) selection.skip.push(test);
    else selection.reached[test] = reached;
  }
  return selection;
}
