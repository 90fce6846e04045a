/**
 * `npm run build:client [-- --out <dir>]`: compiles client/ to ESM + declarations in <dir>/client
 * (default dist/), for the package export "./client". The declarations import the generated
 * OpenAPI types (generated/schema.d.ts); tsc does not emit .d.ts inputs, so every declaration file
 * of the project that the client uses is copied to the same relative place under <dir>.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type ts from "typescript";
import { isMain, runCommand, type CommandSpec } from "../contract-core/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = path.join(ROOT, "client", "tsconfig.build.json");
// The compiler is loaded on first build, not on import: `--help` and importers that never build stay fast.
const require = createRequire(import.meta.url);
const compiler = (): typeof ts => require("typescript") as typeof ts;

export interface BuildResult {
  outDir: string;
  /** Files written or copied, relative to outDir. */
  files: string[];
}

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return compiler().formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  });
}

function isProjectDeclaration(file: ts.SourceFile): boolean {
  const relative = path.relative(ROOT, file.fileName);
  return file.isDeclarationFile && !relative.startsWith("..") && !relative.split(path.sep).includes("node_modules");
}

export interface BuildOptions {
  /** Default dist/. */
  outDir?: string;
  /**
   * Type-check before emitting (default true). Tests turn it off: `npm run typecheck` already checks
   * these files, and emitting alone is several times faster.
   */
  typeCheck?: boolean;
}

export function buildClient({ outDir = path.join(ROOT, "dist"), typeCheck = true }: BuildOptions = {}): BuildResult {
  const ts = compiler();
  const parsed = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    { outDir, noCheck: !typeCheck },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(formatDiagnostics([diagnostic]));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${CONFIG}`);
  if (parsed.errors.length > 0) throw new Error(formatDiagnostics(parsed.errors));

  for (const dir of ["client", "generated"]) rmSync(path.join(outDir, dir), { recursive: true, force: true });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const files: string[] = [];
  const emit = program.emit(undefined, (fileName, text) => {
    mkdirSync(path.dirname(fileName), { recursive: true });
    ts.sys.writeFile(fileName, text);
    files.push(path.relative(outDir, fileName));
  });
  const diagnostics = [
    ...(typeCheck ? ts.getPreEmitDiagnostics(program) : program.getSyntacticDiagnostics()),
    ...emit.diagnostics,
  ];
  if (diagnostics.length > 0 || emit.emitSkipped) throw new Error(formatDiagnostics(diagnostics));

  for (const file of program.getSourceFiles().filter(isProjectDeclaration)) {
    const relative = path.relative(ROOT, file.fileName);
    mkdirSync(path.dirname(path.join(outDir, relative)), { recursive: true });
    cpSync(file.fileName, path.join(outDir, relative));
    files.push(relative);
  }
  for (const required of ["client/index.js", "client/index.d.ts"]) {
    if (!existsSync(path.join(outDir, required))) throw new Error(`build did not write ${required}`);
  }
  return { outDir, files: files.sort() };
}

export const BUILD_CLIENT_COMMAND: CommandSpec = {
  name: "npm run build:client",
  summary:
    "Compiles the typed client to dist/ (ESM JavaScript and declarations) and checks that the built entry loads.",
  options: { out: { type: "string", value: "<dir>", description: "output folder (default dist/)" } },
};

if (isMain(import.meta.url)) {
  await runCommand(BUILD_CLIENT_COMMAND, async ({ values }) => {
    const { outDir, files } = buildClient({
      outDir: typeof values.out === "string" ? path.resolve(values.out) : undefined,
    });
    const entry = await import(pathToFileURL(path.join(outDir, "client", "index.js")).href);
    if (typeof entry.createTalentGraphClient !== "function")
      throw new Error("built entry lacks createTalentGraphClient");
    console.log(`build:client wrote ${files.length} files to ${path.relative(process.cwd(), outDir) || "."}`);
    for (const file of files) console.log(`  ${file}`);
  });
}
