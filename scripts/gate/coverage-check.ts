/**
 * The gate's coverage check: the working tree's contract coverage (`npm run coverage`, after the tests, whose
 * sandbox suite logs its evidence) judged against the base commit's by the two rules of README.md.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  EVIDENCE,
  buildReport,
  compareReports,
  comparisonFailures,
  forcedOnlyCells,
  comparisonMarkdown,
  restrictTo,
  type CoverageReport,
  type Evidence,
  type SourceInfo,
} from "../coverage/report.js";
import { cellsOf } from "../../contract-core/index.js";
import { markdownCode } from "../escape/markdown.js";
import { extractCommit, type ResolvedBase } from "./breaking-check.js";

const run = promisify(execFile);
/** Collected on the base as on the head (the base's tests do not run here, so it has no suite log). */
const BOTH_SIDES: readonly Evidence[] = ["recordings", "fuzz", "workflows"];
const COVERAGE_SCRIPT = "scripts/coverage/coverage.ts";

export interface CoverageOutcome {
  status: "pass" | "fail" | "skip";
  note: string;
  /** What failed, one Markdown line each naming the cells (`listLists 409`): the summary lists them. */
  details?: string[];
  /** The summary's section: totals beside the base's, changed cells, forced-only cells. */
  markdown?: string;
  /** Everything the coverage runs printed. */
  output: string;
}

/** Runs the coverage command of the tree at `root` (its own code), writing to `out`; returns its report and output. */
async function coverageOf(root: string, out: string, only?: readonly Evidence[]): Promise<[CoverageReport, string]> {
  const args = ["--import", "./scripts/typescript-hooks.ts", COVERAGE_SCRIPT, "--out", out];
  if (only) args.push("--only", only.join(","));
  const { stdout, stderr } = await run(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return [JSON.parse(readFileSync(join(out, "coverage.json"), "utf8")) as CoverageReport, stdout + stderr];
}

const line = (r: CoverageReport): string => {
  const t = r.totals;
  return `operations ${t.operations.covered}/${t.operations.total}, statuses ${t.statuses.covered}/${t.statuses.total}, examples ${t.examples.covered}/${t.examples.total}`;
};

export async function coverageCheck(cwd: string, base: ResolvedBase): Promise<CoverageOutcome> {
  const work = mkdtempSync(join(tmpdir(), "gate-coverage-"));
  let output = "";
  try {
    let head: CoverageReport;
    try {
      const [report, printed] = await coverageOf(cwd, join(work, "head"));
      head = report;
      output += printed;
    } catch (e) {
      return { status: "fail", note: `npm run coverage failed: ${(e as Error).message.split("\n")[0]}`, output };
    }
    if ("skip" in base || "error" in base)
      return { status: "pass", note: `${line(head)}; no base to compare with`, output };
    const short = base.sha.slice(0, 7);
    // The base's tree as committed, with this checkout's node_modules.
    const tree = join(work, "base");
    mkdirSync(tree, { recursive: true });
    await extractCommit(cwd, base.sha, tree);
    if (!existsSync(join(tree, "generated/openapi.json")))
      return { status: "pass", note: `${line(head)}; the base has no bundled spec to compare with`, output };
    const baseDoc = JSON.parse(readFileSync(join(tree, "generated/openapi.json"), "utf8")) as unknown;
    const uncollected = Object.fromEntries(
      EVIDENCE.map((e) => [e, { collected: false, exchanges: 0, how: "", reason: "not run on the base" }]),
    ) as Record<Evidence, SourceInfo>;
    let baseReport = buildReport("generated/openapi.json", cellsOf(baseDoc), {}, uncollected);
    let compared = false;
    if (existsSync(join(tree, COVERAGE_SCRIPT))) {
      symlinkSync(join(cwd, "node_modules"), join(tree, "node_modules"));
      try {
        const [report, printed] = await coverageOf(tree, join(work, "base-out"), BOTH_SIDES);
        baseReport = report;
        output += printed;
        compared = true;
      } catch (e) {
        output += `coverage of the base failed: ${(e as Error).message}\n`;
      }
    }
    return { ...judgeCoverage(baseReport, head, compared ? `${base.label} (${short})` : undefined), output };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The gate's two rules on a head report (every source) against the base's: a cell the head adds needs caused
 * evidence from some source, and no total of the sources collected on both sides may fall (`against` names the
 * base; undefined when the base has no coverage command, so there are no base totals to fall below).
 */
export function judgeCoverage(
  baseReport: CoverageReport,
  head: CoverageReport,
  against: string | undefined,
): Omit<CoverageOutcome, "output"> {
  const restricted = restrictTo(head, BOTH_SIDES);
  const comparison = compareReports(baseReport, restricted);
  if (!against) comparison.fallen = [];
  comparison.addedWithoutEvidence = compareReports(baseReport, head).addedWithoutEvidence;
  const forced = forcedOnlyCells(head);
  const markdown = [
    `With every source (the sandbox suite included), counting caused evidence only: ${line(head)}.`,
    `Compared ${against ? `with ${against}` : "with nothing (the base has no coverage command)"}` +
      " on the recordings, the fuzz run and the workflows:",
    "",
    comparisonMarkdown(comparison, baseReport, restricted).trimEnd(),
    ...(forced.length > 0
      ? [
          "",
          `Forced only (${forced.length}; counted in no total):`,
          "",
          ...forced.map((f) => `- ${markdownCode(f.cell)} (${f.sources.join(", ")}): ${f.why}`),
        ]
      : []),
  ].join("\n");
  const details = comparisonFailures(comparison);
  if (details.length > 0) {
    const first = details[0]!.replaceAll("`", "");
    const more = details.length > 1 ? ` (and ${details.length - 1} more)` : "";
    return { status: "fail", note: `${first}${more}; ${line(head)}`, details, markdown };
  }
  const vs = against ? `vs ${against}` : "the base has no coverage command: totals not compared";
  return { status: "pass", note: `${line(head)}; ${comparison.changed.length} cell(s) changed ${vs}`, markdown };
}
