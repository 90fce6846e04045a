/**
 * npm run lint: Redocly lint on the split spec and the Arazzo workflows (spec/workflows), then Spectral on
 * the bundle (spectral:oas, OWASP, house rules) and on the root (layout rules), then the code: Prettier's check
 * and typescript-eslint. Zero errors and zero warnings, or exit 1.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { ISpectralDiagnostic, RulesetDefinition, Spectral } from "@stoplight/spectral-core";
import type { Program } from "typescript";
import {
  InputError,
  REDOCLY_ENV,
  REPO_ROOT as repoRoot,
  SPEC_ROOT_PATH,
  escapeLogText,
  isMain,
  runCommand,
  type CommandSpec,
  type ParsedCommandLine,
} from "../../contract-core/index.js";
import { bundleFile } from "../../contract-core/redocly.js";
import { runEslint } from "./eslint.js";

const SEVERITY = ["error", "warning", "info", "hint"] as const;

// Spectral and the rulesets load only when a lint runs (--help stays instant), and each ruleset is
// compiled once per process: setRuleset is the costly part, and a Spectral instance can run it many times.
// spectral-parsers is CommonJS whose export names Node cannot read from its source: they are on its default export.
const spectralModules = async () => {
  const [core, parsers] = await Promise.all([
    import("@stoplight/spectral-core"),
    import("@stoplight/spectral-parsers"),
  ]);
  return [core, parsers.default] as const;
};
const compiled = new WeakMap<RulesetDefinition, Spectral>();

/** Runs a ruleset on a document (JSON object or YAML text); returns every diagnostic. */
export async function runSpectral(
  ruleset: RulesetDefinition,
  source: string | object,
  name = "spec",
): Promise<ISpectralDiagnostic[]> {
  const [{ Document, Spectral }, { Json, Yaml }] = await spectralModules();
  let spectral = compiled.get(ruleset);
  if (!spectral) {
    spectral = new Spectral();
    spectral.setRuleset(ruleset);
    compiled.set(ruleset, spectral);
  }
  const doc =
    typeof source === "string"
      ? new Document(source, Yaml, name)
      : new Document(JSON.stringify(source, null, 2), Json, name);
  return spectral.run(doc);
}

function report(label: string, diagnostics: ISpectralDiagnostic[], log: (line: string) => void): number {
  const counted = diagnostics.filter((d) => d.severity <= 1);
  for (const d of diagnostics) {
    const where = `${relative(repoRoot, resolve(repoRoot, d.source ?? label))}:${d.range.start.line + 1}`;
    log(`  ${SEVERITY[d.severity]} ${d.code} ${where} ${d.path.join(".")}: ${d.message}`);
  }
  log(
    `${counted.length ? "✘" : "✔"} ${label}: ${diagnostics.filter((d) => d.severity === 0).length} errors, ${diagnostics.filter((d) => d.severity === 1).length} warnings`,
  );
  return counted.length;
}

export const LINT_COMMAND: CommandSpec = {
  name: "npm run lint",
  summary:
    "Lints the spec (Redocly on spec/openapi.yaml and the Arazzo workflows, Spectral with spectral:oas, OWASP and the house rules on the bundle and the root) and the code (Prettier check, typescript-eslint); zero warnings or exit 1.",
  positionals: "[files...]",
  options: {
    "eslint-all": {
      type: "boolean",
      description:
        "with files: ESLint still lints the whole tree (its type-aware rules read the types of every import, so a change to types can alter other files' verdicts)",
    },
  },
  notes: [
    "With files, Prettier checks and ESLint lints only those (ignored and other kinds of file are left out; a missing one exits 2); the spec is linted whole either way.",
  ],
};

/** ESLint lints these kinds of file; passing it any other kind is an error. */
const ESLINT_FILE = /\.(?:[cm]?[jt]s|tsx)$/;

/** Prettier (a command with its arguments), ESLint (what it lints, in-process) or a note that nothing is linted. */
export type CodeLintStep =
  { label: string; bin: "prettier"; args: string[] } | { label: string; eslint: string[] } | { label: string };

// Prettier's cache is keyed by each file's content and Prettier's version and options, so a hit is the same
// verdict; it lives in node_modules/.cache, which `npm ci` empties.
const PRETTIER_CHECK = ["--check", "--cache", "--cache-strategy", "content", "--log-level", "warn"];

/**
 * The project's files (relative paths): every file git tracks, and the untracked, not ignored files under a
 * folder that holds tracked ones (new work not yet added). A scratch file beside the project (at the root, or in
 * a folder of its own) is the user's business and not judged. Undefined outside a git checkout.
 */
export function projectFiles(root = repoRoot): string[] | undefined {
  const list = (...args: string[]) =>
    execFileSync("git", ["ls-files", "-z", ...args], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\0")
      .filter(Boolean);
  let tracked: string[];
  let untracked: string[];
  try {
    tracked = list();
    untracked = list("--others", "--exclude-standard");
  } catch {
    return undefined;
  }
  const folders = new Set(tracked.filter((f) => f.includes("/")).map((f) => f.slice(0, f.indexOf("/"))));
  const inProject = untracked.filter((f) => f.includes("/") && folders.has(f.slice(0, f.indexOf("/"))));
  return [...tracked, ...inProject].filter((f) => existsSync(join(root, f))).sort();
}

/**
 * The code linters to run: on the whole tree, on the project's files (`project`, see projectFiles), or on
 * `files` (existing paths relative to the repository root). Prettier's verdict on a file depends on that file
 * alone; ESLint's type-aware rules also read the types the file imports, hence `eslintAll` when a change may
 * alter those.
 */
export function codeLintSteps(files: string[] | undefined, eslintAll: boolean, project?: string[]): CodeLintStep[] {
  const steps: CodeLintStep[] = [];
  if (files === undefined && project) {
    const label = "the project's files; untracked files beside its folders are not judged";
    steps.push({
      label: `prettier --check (code, spec YAML, docs: ${label})`,
      bin: "prettier",
      args: [...PRETTIER_CHECK, "--ignore-unknown", "--", ...project],
    });
    steps.push({
      label: "eslint (typescript-eslint, zero warnings)",
      eslint: project.filter((f) => ESLINT_FILE.test(f)),
    });
    return steps;
  }
  if (files === undefined)
    steps.push({ label: "prettier --check (code, spec YAML, docs)", bin: "prettier", args: [...PRETTIER_CHECK, "."] });
  else if (files.length === 0) steps.push({ label: "prettier --check: none of the given files exists" });
  else
    steps.push({
      label: `prettier --check (${files.length} of the given files)`,
      bin: "prettier",
      args: [...PRETTIER_CHECK, "--ignore-unknown", "--no-error-on-unmatched-pattern", "--", ...files],
    });
  const eslintFiles = files === undefined || eslintAll ? undefined : files.filter((f) => ESLINT_FILE.test(f));
  if (eslintFiles === undefined) steps.push({ label: "eslint (typescript-eslint, zero warnings)", eslint: ["."] });
  else if (eslintFiles.length === 0)
    steps.push({ label: "eslint: none of the given files is JavaScript or TypeScript" });
  else
    steps.push({
      label: `eslint (typescript-eslint, zero warnings; ${eslintFiles.length} of the given files)`,
      eslint: eslintFiles,
    });
  return steps;
}

/** Runs a tool from node_modules/.bin in the repository: whether it exited 0, and its output. */
function runBin(bin: string, args: string[], env = process.env): { ok: boolean; output: string } {
  try {
    const output = execFileSync(join(repoRoot, "node_modules/.bin", bin), args, {
      cwd: repoRoot,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}`.trim() };
  }
}

export interface LintOptions {
  /** Only these files' code (paths relative to the repository root); all the project's files when undefined. */
  files?: string[];
  /** With files: ESLint still lints the whole tree. */
  eslintAll?: boolean;
  /** The TypeScript program ESLint's type-aware rules read (see runEslint); the project service's otherwise. */
  program?: Program;
  /** Where each line of the report goes. */
  log?: (line: string) => void;
}

/** The whole lint, `npm run lint`'s: writes its report through `log`; returns the exit code (0 or 1). */
export async function lint({
  files,
  eslintAll = false,
  program,
  log = console.log,
}: LintOptions = {}): Promise<number> {
  const { bundleRuleset, rootRuleset } = await import("./ruleset.js");
  let problems = 0;
  const root = SPEC_ROOT_PATH;
  const workflows = ["spec/workflows", "spec/workflows/parts"].flatMap((dir) =>
    readdirSync(join(repoRoot, dir))
      .filter((f) => f.endsWith(".arazzo.yaml"))
      .map((f) => join(repoRoot, dir, f)),
  );
  const redocly = runBin("redocly", ["lint", root, ...workflows, "--format", "stylish"], {
    ...process.env,
    ...REDOCLY_ENV,
  });
  const warnings = Number(/(\d+) warnings?/.exec(redocly.output)?.[1] ?? 0);
  if (!redocly.ok || warnings > 0) {
    log(redocly.output);
    problems++;
  }
  log(
    redocly.ok
      ? `${problems ? "✘" : "✔"} redocly lint ${relative(repoRoot, root)} and ${workflows.length} Arazzo workflow files`
      : "✘ redocly lint failed",
  );
  problems += report("spectral (root layout)", await runSpectral(rootRuleset, readFileSync(root, "utf8"), root), log);
  problems += report(
    "spectral (bundle: spectral:oas + OWASP + house rules)",
    await runSpectral(bundleRuleset, (await bundleFile(root, { configDir: repoRoot })).doc, "openapi.json"),
    log,
  );
  for (const step of codeLintSteps(files, eslintAll, files ? undefined : projectFiles())) {
    if ("bin" in step) {
      const { ok, output } = runBin(step.bin, step.args);
      if (!ok) log(output);
      log(`${ok ? "✔" : "✘"} ${step.label}`);
      problems += ok ? 0 : 1;
    } else if ("eslint" in step) {
      const eslint = await runEslint({ cwd: repoRoot, patterns: step.eslint, ...(program ? { program } : {}) });
      if (eslint.text) log(eslint.text);
      log(`${eslint.problems ? "✘" : "✔"} ${step.label}`);
      problems += eslint.problems;
    } else log(`✔ ${step.label}`);
  }
  return problems ? 1 : 0;
}

async function main({ values, positionals }: ParsedCommandLine): Promise<number> {
  // A file named that does not exist is a mistake in the call (a typo would otherwise lint nothing and pass).
  const missing = positionals.filter((f) => !existsSync(resolve(repoRoot, f)));
  if (missing.length > 0) throw new InputError(`no such file: ${missing.map((f) => escapeLogText(f)).join(", ")}`);
  return lint({ ...(positionals.length > 0 ? { files: positionals } : {}), eslintAll: values["eslint-all"] === true });
}

if (isMain(import.meta.url)) await runCommand(LINT_COMMAND, main);
