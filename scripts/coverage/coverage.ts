/**
 * npm run coverage: which operations, documented statuses, named examples and request parameters of the bundled
 * spec the project's evidence exercises (recordings, a fuzz run, the Arazzo workflows, the sandbox's behaviour
 * suite). Writes dist/coverage/coverage.json and coverage.md, and prints one total per dimension.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  COMMON_OPTIONS,
  DEFAULT_SPEC_PATH,
  REPO_ROOT,
  createMarker,
  getValidator,
  isMain,
  runCommand,
  usageError,
  type CommandSpec,
  type Exchange,
  type Mark,
} from "../../contract-core/index.js";
import { collect } from "./evidence.js";
import {
  EVIDENCE,
  buildReport,
  forcedOnlyCells,
  markdownTable,
  totalsLines,
  uncoveredCells,
  type CoverageReport,
  type Evidence,
  type SourceInfo,
} from "./report.js";

export const COMMAND: CommandSpec = {
  name: "npm run coverage",
  summary:
    "Contract coverage: which operations, statuses, named examples and parameters the recordings, a fuzz run, " +
    "the workflows and the sandbox suite exercise through a real cause (answers forced by Prefer: code= or a " +
    "kit fault are listed apart).",
  options: {
    out: COMMON_OPTIONS.out("dist/coverage", "folder for coverage.json and coverage.md"),
    only: {
      type: "string",
      value: "<sources>",
      description: `comma-separated evidence kinds to collect (${EVIDENCE.join(", ")}; default all)`,
    },
    uncovered: { type: "boolean", description: "also list every uncovered operation and status" },
  },
  notes: ["The suite's evidence is what the sandbox's test harness logged in the last test run (npm test writes it)."],
};

/** Collects the chosen sources and builds the report of the bundled spec. */
export async function computeCoverage(only: readonly Evidence[] = EVIDENCE): Promise<CoverageReport> {
  const marker = createMarker(DEFAULT_SPEC_PATH);
  const { basePath } = getValidator(DEFAULT_SPEC_PATH);
  const sources = {} as Record<Evidence, SourceInfo>;
  const marks: Partial<Record<Evidence, Mark[]>> = {};
  for (const source of EVIDENCE) {
    if (!only.includes(source)) {
      sources[source] = { collected: false, exchanges: 0, how: "", reason: "not asked for (--only)" };
      continue;
    }
    const collected = await collect(source, basePath);
    sources[source] = collected.info;
    marks[source] = [
      ...(collected.marks ?? []),
      ...(collected.exchanges ?? []).map((e: Exchange) => marker.mark(e)).filter((m): m is Mark => m !== null),
    ];
  }
  return buildReport("generated/openapi.json", marker.cells, marks, sources);
}

export function parseOnly(value: unknown): Evidence[] {
  if (typeof value !== "string" || value === "") return [...EVIDENCE];
  const names = value.split(",").map((s) => s.trim());
  const unknown = names.filter((n) => !(EVIDENCE as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw usageError(COMMAND, `--only takes ${EVIDENCE.join(", ")}; "${unknown.join(", ")}" is not one of them.`);
  return names as Evidence[];
}

/** What the command prints about a report: each source, the totals, the forced-only cells, and (asked) the uncovered ones. */
export function consoleLines(report: CoverageReport, listUncovered: boolean): string[] {
  const lines = EVIDENCE.map((source) => {
    const s = report.sources[source];
    return `${source.padEnd(11)} ${s.collected ? `${s.exchanges} exchanges` : `not collected: ${s.reason}`}`;
  });
  lines.push("", ...totalsLines(report.totals));
  const forced = forcedOnlyCells(report);
  if (forced.length > 0) {
    lines.push("", `forced only (${forced.length}, counted in no total):`);
    lines.push(...forced.map((f) => `  ${f.cell} (${f.sources.join(", ")}): ${f.why}`));
  }
  if (listUncovered) {
    const uncovered = uncoveredCells(report);
    lines.push("", uncovered.length === 0 ? "uncovered: none" : `uncovered (${uncovered.length}):`);
    lines.push(...uncovered.map((cell) => `  ${cell}`));
  }
  return lines;
}

export async function main(args: { values: Record<string, unknown> }): Promise<number> {
  const only = parseOnly(args.values.only);
  const report = await computeCoverage(only);
  const out = resolve(REPO_ROOT, String(args.values.out));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "coverage.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, "coverage.md"), markdownTable(report));
  for (const line of consoleLines(report, args.values.uncovered === true)) console.log(line);
  console.log(`\nwrote ${join(String(args.values.out), "coverage.json")} and coverage.md`);
  return 0;
}

if (isMain(import.meta.url)) await runCommand(COMMAND, main);
