/**
 * `npm run breaking`: the breaking-change detector (see README.md). Our own rules (differ.ts, policy.ts) decide
 * the verdict; Optic's breaking-changes ruleset runs as a cross-check (optic.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  COMMON_OPTIONS,
  type Obj,
  SpecLoadError,
  isMain,
  loadSpec,
  parseCommandLine,
  usageError,
  UsageError,
  type CommandSpec,
} from "../../contract-core/index.js";
import { detectChanges } from "./differ.js";
import { formatText, policyMarkdown } from "./format.js";
import { mergeOptic, runOptic } from "./optic.js";
import type { Change } from "./policy.js";

export { detectChanges, operationKey } from "./differ.js";
export { formatText, markdownTable, policyMarkdown } from "./format.js";
export { type OpticHit, mergeOptic, opticLocation } from "./optic.js";
export { type Change, POLICY, type RuleId } from "./policy.js";

/** An input, bundled (all $refs local) when it was a split root. */
export interface LoadedSpec {
  file: string;
  doc: Obj;
}

export interface Report {
  base: LoadedSpec;
  head: LoadedSpec;
  changes: Change[];
  breaking: Change[];
  nonBreaking: Change[];
  notes: string[];
}

export interface CompareOptions {
  /** Run Optic as a cross-check (default true). */
  optic?: boolean;
}

/** Compares two spec files; an input that cannot be read, parsed or bundled throws SpecLoadError naming it. */
export async function compareSpecFiles(
  baseFile: string,
  headFile: string,
  options: CompareOptions = {},
): Promise<Report> {
  const base: LoadedSpec = { file: baseFile, doc: loadSpec(baseFile) };
  const head: LoadedSpec = { file: headFile, doc: loadSpec(headFile) };
  const workDir = await mkdtemp(join(tmpdir(), "breaking-"));
  try {
    let changes = detectChanges(base.doc, head.doc);
    const notes: string[] = [];
    if (options.optic !== false) {
      try {
        const merged = mergeOptic(changes, await runOptic(base.doc, head.doc, workDir));
        changes = merged.changes;
        notes.push(...merged.notes);
      } catch (e) {
        notes.push(`Optic cross-check skipped: ${(e as Error).message.split("\n")[0]}`);
      }
    }
    return {
      base,
      head,
      changes,
      breaking: changes.filter((c) => c.breaking),
      nonBreaking: changes.filter((c) => !c.breaking),
      notes,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

// CLI

export const BREAKING_COMMAND: CommandSpec = {
  name: "npm run breaking",
  summary:
    "Compares two OpenAPI documents (YAML or JSON, split or bundled) and lists breaking changes by the policy; exit 1 when any.",
  options: {
    json: COMMON_OPTIONS.json(),
    "no-optic": { type: "boolean", description: "skip the Optic cross-check" },
    policy: { type: "boolean", description: "print the breaking-change policy table (Markdown) and exit" },
  },
  positionals: "<base-spec> <head-spec>",
};

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(BREAKING_COMMAND, argv);
    if (parsed && !parsed.values.policy && parsed.positionals.length !== 2)
      throw usageError(BREAKING_COMMAND, "give two specs: the base and the head");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(e.message);
    return 2;
  }
  if (!parsed) return 0;
  if (parsed.values.policy) {
    console.log(policyMarkdown());
    return 0;
  }
  const files = parsed.positionals;
  const flag = (name: string) => parsed.values[name] === true;
  const [baseFile = "", headFile = ""] = files;
  try {
    const report = await compareSpecFiles(baseFile, headFile, { optic: !flag("no-optic") });
    if (flag("json")) {
      console.log(
        JSON.stringify({ breaking: report.breaking, nonBreaking: report.nonBreaking, notes: report.notes }, null, 2),
      );
    } else console.log(formatText(report));
    return report.breaking.length > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof SpecLoadError) {
      console.error(`breaking: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

if (isMain(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
