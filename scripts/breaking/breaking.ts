/**
 * `npm run breaking`: the breaking-change detector (see README.md). Our own rules (differ.ts, policy.ts) decide
 * the verdict; their fixture suite (breaking.test.ts) is what their correctness rests on.
 */
import {
  COMMON_OPTIONS,
  type Obj,
  SpecLoadError,
  isMain,
  openApiDocument,
  parseCommandLine,
  readSpec,
  usageError,
  UsageError,
  type CommandSpec,
} from "../../contract-core/index.js";
import { BundleError, bundleFile } from "../../contract-core/redocly.js";
import { detectChanges } from "./differ.js";
import { formatText, policyMarkdown } from "./format.js";
import type { Change } from "./policy.js";

export { type DetectOptions, PreparedSpec, detectChanges, operationKey } from "./differ.js";
export { formatText, markdownTable, policyMarkdown } from "./format.js";
export { type Change, POLICY, type RuleId, UNCLASSIFIED_WHY, needsReview } from "./policy.js";

export interface Report {
  /** The documents compared, bundled (all $refs local) when an input was a split root. */
  base: Obj;
  head: Obj;
  changes: Change[];
  breaking: Change[];
  nonBreaking: Change[];
  notes: string[];
}

/** Compares two spec files. An input that cannot be read, parsed or bundled throws SpecLoadError naming it. */
export async function compareSpecFiles(baseFile: string, headFile: string): Promise<Report> {
  const [base, head] = await Promise.all([loadSpecFile(baseFile), loadSpecFile(headFile)]);
  return compareSpecs(base, head);
}

/** A spec file as loadSpec reads it, a split root bundled in-process. */
async function loadSpecFile(file: string): Promise<Obj> {
  const { doc, split } = readSpec(file);
  if (!split) return doc;
  try {
    return openApiDocument((await bundleFile(file)).doc, file);
  } catch (e) {
    throw e instanceof BundleError ? new SpecLoadError(e.message) : e;
  }
}

/** Compares two bundled documents. */
export function compareSpecs(base: Obj, head: Obj): Report {
  const changes = detectChanges(base, head);
  const notes: string[] = [];
  const breaking = changes.filter((c) => c.breaking);
  return { base, head, changes, breaking, nonBreaking: changes.filter((c) => !c.breaking), notes };
}

// CLI

export const BREAKING_COMMAND: CommandSpec = {
  name: "npm run breaking",
  summary:
    "Compares two OpenAPI documents (YAML or JSON, split or bundled) and lists breaking changes by the policy; exit 1 when any.",
  options: {
    json: COMMON_OPTIONS.json(),
    policy: { type: "boolean", description: "print the breaking-change policy table (Markdown) and exit" },
  },
  positionals: "<base-spec> <head-spec>",
};

/** The command line: exit 1 when the head breaks clients of the base, 2 on bad usage or an unreadable input. */
export async function main(argv: string[]): Promise<number> {
  try {
    const parsed = parseCommandLine(BREAKING_COMMAND, argv);
    if (!parsed) return 0;
    if (parsed.values.policy === true) {
      console.log(policyMarkdown());
      return 0;
    }
    const [baseFile, headFile] = parsed.positionals;
    if (baseFile === undefined || headFile === undefined || parsed.positionals.length > 2)
      throw usageError(BREAKING_COMMAND, "give two specs: the base and the head");
    const report = await compareSpecFiles(baseFile, headFile);
    const { breaking, nonBreaking, notes } = report;
    console.log(
      parsed.values.json === true ? JSON.stringify({ breaking, nonBreaking, notes }, null, 2) : formatText(report),
    );
    return breaking.length > 0 ? 1 : 0;
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof SpecLoadError)) throw e;
    console.error(e instanceof UsageError ? e.message : `breaking: ${e.message}`);
    return 2;
  }
}

if (isMain(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
