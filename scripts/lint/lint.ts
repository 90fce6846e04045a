/**
 * npm run lint: Redocly lint on the split spec and the Arazzo workflows (spec/workflows), then Spectral on
 * the bundle (spectral:oas, OWASP, house rules) and on the root (layout rules), then the code: Prettier's check
 * and typescript-eslint. Zero errors and zero warnings, or exit 1.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { ISpectralDiagnostic, RulesetDefinition, Spectral } from "@stoplight/spectral-core";
import {
  REDOCLY_ENV,
  REPO_ROOT as repoRoot,
  SPEC_ROOT_PATH,
  bundleSpec,
  isMain,
  runCommand,
  type CommandSpec,
} from "../../contract-core/index.js";

const SEVERITY = ["error", "warning", "info", "hint"] as const;

// Spectral and the rulesets load only when a lint runs (--help stays instant), and each ruleset is
// compiled once per process: setRuleset is the costly part, and a Spectral instance can run it many times.
const spectralModules = () => Promise.all([import("@stoplight/spectral-core"), import("@stoplight/spectral-parsers")]);
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

function report(label: string, diagnostics: ISpectralDiagnostic[]): number {
  const counted = diagnostics.filter((d) => d.severity <= 1);
  for (const d of diagnostics) {
    console.log(`  ${SEVERITY[d.severity]} ${d.code} ${d.path.join(".")}: ${d.message}`);
  }
  console.log(
    `${counted.length ? "✘" : "✔"} ${label}: ${diagnostics.filter((d) => d.severity === 0).length} errors, ${diagnostics.filter((d) => d.severity === 1).length} warnings`,
  );
  return counted.length;
}

export const LINT_COMMAND: CommandSpec = {
  name: "npm run lint",
  summary:
    "Lints the spec (Redocly on spec/openapi.yaml and the Arazzo workflows, Spectral with spectral:oas, OWASP and the house rules on the bundle and the root) and the code (Prettier check, typescript-eslint); zero warnings or exit 1.",
};

/** Runs one of the project's own code linters; prints its findings only when it has some. */
function runCodeLinter(label: string, bin: string, args: string[]): number {
  try {
    execFileSync(join(repoRoot, "node_modules/.bin", bin), args, {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    console.log(`✔ ${label}`);
    return 0;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    console.log(`${e.stdout ?? ""}${e.stderr ?? ""}`.trim());
    console.log(`✘ ${label}`);
    return 1;
  }
}

async function main(): Promise<number> {
  const { bundleRuleset, rootRuleset } = await import("./ruleset.js");
  let problems = 0;
  const root = SPEC_ROOT_PATH;
  const workflows = ["spec/workflows", "spec/workflows/parts"].flatMap((dir) =>
    readdirSync(join(repoRoot, dir))
      .filter((f) => f.endsWith(".arazzo.yaml"))
      .map((f) => join(repoRoot, dir, f)),
  );
  try {
    const out = execFileSync(
      join(repoRoot, "node_modules/.bin/redocly"),
      ["lint", root, ...workflows, "--format", "stylish"],
      {
        env: { ...process.env, ...REDOCLY_ENV },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const warnings = /(\d+) warnings?/.exec(out);
    if (warnings && Number(warnings[1]) > 0) {
      console.log(out);
      problems++;
    }
    console.log(
      `${problems ? "✘" : "✔"} redocly lint ${relative(repoRoot, root)} and ${workflows.length} Arazzo workflow files`,
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    console.log(e.stdout ?? "", e.stderr ?? "");
    console.log("✘ redocly lint failed");
    problems++;
  }
  problems += report("spectral (root layout)", await runSpectral(rootRuleset, readFileSync(root, "utf8"), root));
  problems += report(
    "spectral (bundle: spectral:oas + OWASP + house rules)",
    await runSpectral(bundleRuleset, bundleSpec(root), "openapi.json"),
  );
  // Prettier's cache is keyed by each file's content and Prettier's version and options, so a hit is the
  // same verdict; it lives in node_modules/.cache, which `npm ci` empties.
  problems += runCodeLinter("prettier --check (code, spec YAML, docs)", "prettier", [
    "--check",
    "--cache",
    "--cache-strategy",
    "content",
    "--log-level",
    "warn",
    ".",
  ]);
  problems += runCodeLinter("eslint (typescript-eslint, zero warnings)", "eslint", ["--max-warnings", "0", "."]);
  return problems ? 1 : 0;
}

if (isMain(import.meta.url)) await runCommand(LINT_COMMAND, main);
