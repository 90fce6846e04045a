/**
 * Breaking-change detector for OpenAPI 3.x documents.
 *
 *   npm run breaking -- <base-spec> <head-spec> [--json] [--no-optic]
 *   npm run breaking -- --policy        (prints the policy as a Markdown table)
 *
 * Inputs may be YAML or JSON, bundled or split roots (split roots are bundled
 * with Redocly first). Our own rules (breaking-policy.ts) decide the verdict; Optic's
 * breaking-changes ruleset runs as a cross-check over the same documents and
 * anything it flags that our rules did not is reported too (source "optic").
 *
 * Exit codes: 1 when the head breaks clients of the base, 0 otherwise,
 * 2 when an input cannot be read (the message names the file) or on bad usage.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  COMMON_OPTIONS,
  isMain,
  parseCommandLine,
  usageError,
  UsageError,
  type CommandSpec,
} from "../../contract-core/index.js";
import { detectChanges } from "./differ.js";
import { formatText, policyMarkdown } from "./format.js";
import { type LoadedSpec, InputError, loadInput } from "./load.js";
import { mergeOptic, runOptic } from "./optic.js";
import type { Change } from "./policy.js";

export { escapeToken, operationKey } from "./json.js";
export { detectChanges } from "./differ.js";
export { describeOperation, formatText, markdownTable, policyMarkdown } from "./format.js";
export { InputError, type LoadedSpec, loadInput } from "./load.js";
export { type OpticHit, changedOperations, mergeOptic, opticLocation, runOptic } from "./optic.js";
export { type Change, POLICY, type RuleId } from "./policy.js";

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

export async function compareSpecFiles(
  baseFile: string,
  headFile: string,
  options: CompareOptions = {},
): Promise<Report> {
  const workDir = await mkdtemp(join(tmpdir(), "breaking-"));
  try {
    // allSettled: a failing input must not let the other one's bundler write into a removed directory
    const [b, h] = await Promise.allSettled([loadInput(baseFile), loadInput(headFile)]);
    if (b.status === "rejected") throw b.reason;
    if (h.status === "rejected") throw h.reason;
    const [base, head] = [b.value, h.value];
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
    if (e instanceof InputError) {
      console.error(`breaking: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

if (isMain(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
