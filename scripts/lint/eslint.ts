/**
 * ESLint (typescript-eslint) in the lint process, through its Node API: lints the given files or directories
 * and returns how many problems it found with the stylish report of them. Given a TypeScript program (npm test's,
 * which typechecks it too), the type-aware rules read their types from it instead of the project service's own.
 */
import type { ESLint as ESLintType } from "eslint";
import type { Program } from "typescript";

export interface EslintOptions {
  /** The directory ESLint runs in (its configuration is looked up from here), and paths are shown from. */
  cwd: string;
  /** What to lint (files or directories, relative to cwd); ignored files are left out silently. */
  patterns: string[];
  /** Instead of the configuration file found from cwd (tests hand a configuration of their own). */
  eslintConfig?: ESLintType.Options["baseConfig"];
  /** The program holding every TypeScript file linted (its checker's types are shared with whoever made it). */
  program?: Program;
}

export interface EslintOutcome {
  /** Errors plus warnings: the project allows no warning. */
  problems: number;
  /** ESLint's stylish report; empty when clean. */
  text: string;
  /** How many files were linted. */
  files: number;
}

export async function runEslint({ cwd, patterns, eslintConfig, program }: EslintOptions): Promise<EslintOutcome> {
  const { ESLint } = await import("eslint");
  const eslint = new ESLint({
    cwd,
    warnIgnored: false,
    ...(eslintConfig ? { overrideConfigFile: true, baseConfig: eslintConfig } : {}),
    // A file the program lacks is an error of typescript-eslint's, as one outside tsconfig.json is to the service.
    ...(program
      ? {
          overrideConfig: {
            files: ["**/*.ts"],
            languageOptions: { parserOptions: { projectService: false, programs: [program] } },
          },
        }
      : {}),
  });
  const results = await eslint.lintFiles(patterns);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const text = problems === 0 ? "" : String(await (await eslint.loadFormatter("stylish")).format(results)).trim();
  return { problems, text, files: results.length };
}
