/**
 * ESLint (typescript-eslint) and, when asked, the project's typecheck on one TypeScript program. tsc and
 * ESLint's type-aware rules otherwise each build the whole program (parse, bind, check) in a process of their
 * own: with `typecheck`, the program is built once (incrementally, with `npm run typecheck`'s build info),
 * tsc's diagnostics are read from it, and ESLint's parser is handed the same program instead of building one
 * through its project service.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { ESLint as ESLintType } from "eslint";
import type ts from "typescript";

export interface TypedLintOptions {
  /** The directory ESLint runs in (its configuration is looked up from here), and paths are shown from. */
  cwd: string;
  /** ESLint lints these (files or directories, relative to cwd; ignored ones are left out silently); none: no ESLint. */
  patterns: string[];
  /**
   * Typecheck the project of this tsconfig.json on the program ESLint then uses; its build info goes to
   * `buildInfo` (npm run typecheck's), so an unchanged file is not checked again.
   */
  typecheck?: { tsconfig: string; buildInfo: string };
  /** Instead of the configuration file found from cwd (tests hand a configuration of their own). */
  eslintConfig?: ESLintType.Options["baseConfig"];
}

export interface CheckOutcome {
  /** Errors, plus warnings where a warning fails (ESLint runs with zero warnings allowed). */
  problems: number;
  /** What to print: the tool's own report, empty when clean. */
  text: string;
  ms: number;
}

export interface TypedLintOutcome {
  /** Present when `typecheck` was asked. */
  tsc?: CheckOutcome & { files: number };
  /** Present when there were patterns to lint. */
  eslint?: CheckOutcome & { files: number };
}

/** What `tsc --noEmit --pretty false` prints for these diagnostics. */
function formatDiagnostics(typescript: typeof ts, diagnostics: readonly ts.Diagnostic[], cwd: string): string {
  return typescript.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => cwd,
    getNewLine: () => "\n",
  });
}

/** Builds the project's program from its build info and reads every diagnostic tsc reports. */
function typecheckProject(
  typescript: typeof ts,
  cwd: string,
  { tsconfig, buildInfo }: NonNullable<TypedLintOptions["typecheck"]>,
): { program: ts.Program; outcome: CheckOutcome & { files: number } } {
  const started = performance.now();
  const configErrors: ts.Diagnostic[] = [];
  const parsed = typescript.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d) },
  );
  if (!parsed) throw new Error(`${tsconfig}: ${formatDiagnostics(typescript, configErrors, cwd)}`);
  const options = { ...parsed.options, incremental: true, tsBuildInfoFile: buildInfo };
  mkdirSync(dirname(buildInfo), { recursive: true });
  const builder = typescript.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: typescript.getConfigFileParsingDiagnostics(parsed),
  });
  // tsc's order: configuration, options, syntax, globals, then semantics (only when the earlier are clean).
  let diagnostics: readonly ts.Diagnostic[] = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
  ];
  if (diagnostics.length === 0) diagnostics = [...builder.getGlobalDiagnostics(), ...builder.getSemanticDiagnostics()];
  // With noEmit this writes only the build info (as tsc --incremental does), and reports what emitting finds.
  diagnostics = [...diagnostics, ...builder.emit().diagnostics];
  const errors = diagnostics.filter((d) => d.category === typescript.DiagnosticCategory.Error);
  return {
    program: builder.getProgram(),
    outcome: {
      problems: errors.length,
      text: formatDiagnostics(typescript, diagnostics, cwd).trim(),
      ms: performance.now() - started,
      files: parsed.fileNames.length,
    },
  };
}

export async function typedLint(options: TypedLintOptions): Promise<TypedLintOutcome> {
  const { cwd, patterns } = options;
  const { ESLint } = await import("eslint");
  let tsc: TypedLintOutcome["tsc"];
  let program: ts.Program | undefined;
  if (options.typecheck) {
    const typescript = (await import("typescript")).default;
    ({ program, outcome: tsc } = typecheckProject(typescript, cwd, options.typecheck));
  }
  if (patterns.length === 0) return tsc ? { tsc } : {};
  const started = performance.now();
  const eslint = new ESLint({
    cwd,
    warnIgnored: false,
    ...(options.eslintConfig ? { overrideConfigFile: true, baseConfig: options.eslintConfig } : {}),
    // The type-aware rules read types from the program just checked, not from one the project service builds.
    ...(program
      ? {
          overrideConfig: [
            { files: ["**/*.ts"], languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
          ],
        }
      : {}),
  });
  const results = await eslint.lintFiles(patterns);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const text = problems === 0 ? "" : String(await (await eslint.loadFormatter("stylish")).format(results)).trim();
  return {
    ...(tsc ? { tsc } : {}),
    eslint: { problems, text, ms: performance.now() - started, files: results.length },
  };
}
