/**
 * The gate's trace check (scripts/trace/README.md): every statement of the API reference traced, no entry
 * outdated; and the statements whose spec elements this change touches, compared with the base commit's spec
 * (both bundled from their sources the same way), listed for the reviewer.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleSpec } from "../../contract-core/index.js";
import { referencePath, reportLines, runTrace } from "../trace/cli.js";
import { reviewMarkdown, statementsToReview } from "../trace/review.js";
import { totalsLine, traceFailed } from "../trace/trace.js";
import { extractCommit, type ResolvedBase } from "./breaking-check.js";

export interface TraceOutcome {
  status: "pass" | "fail";
  note: string;
  /** The summary's section: the statements to re-read. */
  markdown?: string;
  output: string;
}

export async function traceCheck(
  cwd: string,
  base: ResolvedBase,
  { reference }: { reference?: string } = { reference: referencePath(undefined) },
): Promise<TraceOutcome> {
  const { report } = runTrace({ root: cwd, reference });
  const lines = reportLines(report);
  if (!reference) lines.unshift("No API reference found: checked pointers and checks of every entry, not the quotes.");
  const status = traceFailed(report) ? "fail" : "pass";
  const note = `${totalsLine(report)}${reference ? "" : " (no reference: quotes not checked)"}`;
  if (!("sha" in base))
    return {
      status,
      note,
      output: lines.join("\n"),
      markdown: `Statements to re-read: not compared (${"skip" in base ? base.skip : base.error}).`,
    };
  const work = mkdtempSync(join(tmpdir(), "gate-trace-"));
  try {
    await extractCommit(cwd, base.sha, work, ["spec"]);
    const items = statementsToReview(
      report,
      bundleSpec(join(work, "spec/openapi.yaml")),
      bundleSpec(join(cwd, "spec/openapi.yaml")),
    );
    return {
      status,
      note: `${note}; ${items.length} to re-read`,
      output: lines.join("\n"),
      markdown: reviewMarkdown(items),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
