/**
 * ESLint (typescript-eslint) in the lint process, through its Node API: lints the given files or directories
 * and returns how many problems it found with the stylish report of them.
 */
import type { ESLint as ESLintType } from "eslint";

export interface EslintOptions {
  /** The directory ESLint runs in (its configuration is looked up from here), and paths are shown from. */
  cwd: string;
  /** What to lint (files or directories, relative to cwd); ignored files are left out silently. */
  patterns: string[];
  /** Instead of the configuration file found from cwd (tests hand a configuration of their own). */
  eslintConfig?: ESLintType.Options["baseConfig"];
}

export interface EslintOutcome {
  /** Errors plus warnings: the project allows no warning. */
  problems: number;
  /** ESLint's stylish report; empty when clean. */
  text: string;
  /** How many files were linted. */
  files: number;
}

export async function runEslint({ cwd, patterns, eslintConfig }: EslintOptions): Promise<EslintOutcome> {
  const { ESLint } = await import("eslint");
  const eslint = new ESLint({
    cwd,
    warnIgnored: false,
    ...(eslintConfig ? { overrideConfigFile: true, baseConfig: eslintConfig } : {}),
  });
  const results = await eslint.lintFiles(patterns);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const text = problems === 0 ? "" : String(await (await eslint.loadFormatter("stylish")).format(results)).trim();
  return { problems, text, files: results.length };
}
