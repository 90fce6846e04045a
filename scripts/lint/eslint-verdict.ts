/**
 * ESLint's clean verdict remembered for the exact inputs it was reached on, so that `npm run lint` (and `npm test`)
 * does not lint again a tree whose code is byte for byte what passed last time (most of lint's CPU: the
 * type-aware rules build and query a TypeScript program of the whole project).
 *
 * Why a whole-tree key and not ESLint's own --cache: ESLint's cache is per file, but a type-aware rule's verdict
 * on a file also depends on the types of everything it imports (an imported function turning async makes an
 * unchanged caller's call a floating promise). So the key here is the content of everything the verdict can
 * depend on: every file ESLint lints, every file of the TypeScript program (tsconfig.json's files), every code
 * and JSON file of the project (a module may import one from outside tsconfig.json's list, or a JSON module),
 * the ESLint and TypeScript configurations, and the installed packages (package-lock.json and npm's record of
 * node_modules, node_modules/.package-lock.json). Any change to any of them lints the whole tree again. Only a
 * clean verdict is kept: a run with problems always runs again, so a failure is never hidden. The record lives
 * in node_modules/.cache, which a fresh clone or `npm ci` does not have: there the lint simply runs. Not seen:
 * a hand edit inside node_modules that npm did not record.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The files outside the linted ones and the program that the verdict also depends on. */
const CONFIG_FILES = [
  "eslint.config.js",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "node_modules/.package-lock.json",
];

/** Files a module can import: code (JavaScript, TypeScript, declarations) and JSON. */
const CODE_OR_JSON = /\.(?:[cm]?[jt]sx?|json)$/;

/** tsconfig.json's files (the TypeScript program's roots), relative to root; none without a tsconfig. */
async function programFiles(root: string): Promise<string[]> {
  const tsconfig = path.join(root, "tsconfig.json");
  if (!existsSync(tsconfig)) return [];
  const { default: ts } = await import("typescript");
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  return (parsed?.fileNames ?? []).map((f) => path.relative(root, f));
}

/**
 * The key of ESLint's verdict on `linted` (relative paths) in `root`: a SHA-256 over the argument list and the
 * path and content of every input (see the top of this file). `project` is the project's file list
 * (lint.ts's projectFiles), read for its code and JSON files.
 */
export async function eslintInputsKey(root: string, linted: string[], project: string[]): Promise<string> {
  const inputs = new Set([
    ...linted,
    ...(await programFiles(root)),
    ...project.filter((f) => CODE_OR_JSON.test(f)),
    ...CONFIG_FILES,
  ]);
  const hash = createHash("sha256");
  hash.update(JSON.stringify(linted));
  for (const file of [...inputs].sort()) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`);
    hash.update(existsSync(full) ? readFileSync(full) : "\0missing\0");
  }
  return hash.digest("hex");
}

/** Where the key of the last clean verdict is kept. */
export const VERDICT_FILE = path.join("node_modules", ".cache", "eslint-verdict", "clean.key");

/**
 * Runs `lint` unless the last clean verdict was reached on the inputs' key (`key()`); records the key when this
 * run is clean and the key is the same after it as before (an input edited while ESLint read the tree leaves no
 * record), and forgets any record when it is not clean. `cached` says whether the lint was skipped.
 */
export async function withCleanVerdict<T extends { problems: number }>(
  root: string,
  key: () => Promise<string>,
  lint: () => Promise<T>,
): Promise<{ cached: true } | { cached: false; outcome: T }> {
  const file = path.join(root, VERDICT_FILE);
  const before = await key();
  if (existsSync(file) && readFileSync(file, "utf8") === before) return { cached: true };
  rmSync(file, { force: true });
  const outcome = await lint();
  if (outcome.problems === 0 && (await key()) === before) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, before);
  }
  return { cached: false, outcome };
}
