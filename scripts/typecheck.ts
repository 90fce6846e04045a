/**
 * `npm run typecheck`: `tsc --noEmit` over the project (incremental, its build info in node_modules/.cache), on
 * the command-line convention: --help prints the usage without compiling, an unknown option exits 2 naming it.
 * Exit 1 when tsc reports an error. `npm test` checks the same program in its own process (projectProgram,
 * typecheckProgram) and hands it to ESLint's type-aware rules, so the types are computed once for both.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { stripVTControlCharacters } from "node:util";
import type { Program } from "typescript";
import { EXIT, REPO_ROOT, isMain, runCommand, type CommandSpec } from "../contract-core/index.js";
import { houseRuleHints } from "./typecheck-hints.js";

export const TYPECHECK_COMMAND: CommandSpec = {
  name: "npm run typecheck",
  summary:
    "Type-checks the project with tsc --noEmit (tsconfig.json; incremental, its build info in node_modules/.cache).",
  notes: ["The files checked are tsconfig.json's include list: a scratch file in scratch/ is not one of them."],
};

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const ARGS = ["--noEmit", "--incremental", "--tsBuildInfoFile", "node_modules/.cache/tsc/tsbuildinfo"];

/** What the typecheck prints for tsc's output: the house-rule hints first, tsc's output, a line when it passed. */
export function typecheckReport(tscOutput: string, ok: boolean): string {
  const hints = houseRuleHints(stripVTControlCharacters(tscOutput));
  // tsc says nothing when it finds nothing: one line says what passed.
  const passed = ok ? "✔ tsc --noEmit: no type errors (tsconfig.json's include list)\n" : "";
  return hints.map((hint) => `${hint}\n`).join("") + (hints.length > 0 ? "\n" : "") + tscOutput + passed;
}

/** The program tsc --noEmit checks: tsconfig.json's files and options, nothing emitted or cached. */
export async function projectProgram(root = REPO_ROOT): Promise<Program> {
  const { default: ts } = await import("typescript");
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
  const config = ts.getParsedCommandLineOfConfigFile(`${root}/tsconfig.json`, {}, host);
  if (!config) throw new Error(`${root}/tsconfig.json: not a TypeScript configuration`);
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    configFileParsingDiagnostics: config.errors,
  });
}

/** tsc --noEmit's check of a program (its diagnostics as tsc prints them without --pretty), as typecheckReport. */
export async function typecheckProgram(program: Program, root = REPO_ROOT): Promise<{ ok: boolean; output: string }> {
  const { default: ts } = await import("typescript");
  // In tsc's order: a syntax error stops it before the options, a global error before the semantic check.
  const diagnostics = [...program.getConfigFileParsingDiagnostics()];
  const none = diagnostics.length;
  diagnostics.push(...program.getSyntacticDiagnostics());
  if (diagnostics.length === none)
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  if (diagnostics.length === none) diagnostics.push(...program.getSemanticDiagnostics());
  const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  return {
    ok: errors === 0,
    output: typecheckReport(ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), host), errors === 0),
  };
}

if (isMain(import.meta.url))
  await runCommand(TYPECHECK_COMMAND, async () => {
    const child = spawn(process.execPath, [TSC, ...ARGS, ...(process.stdout.isTTY ? ["--pretty"] : [])], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, "close")) as [number | null];
    process.stdout.write(typecheckReport(output, code === 0));
    return code === 0 ? EXIT.ok : EXIT.failures;
  });
