/**
 * The gate's trace check (scripts/trace/README.md): every statement of the API reference traced, no entry
 * outdated; and the statements whose spec elements this change touches, compared with the base commit's spec
 * (both bundled from their sources the same way), listed for the reviewer; and prove mode
 * (scripts/trace/prove.ts) over the entries the change touches (those statements, and each entry of
 * spec/trace.yaml that is new or differs from the base's): a touched entry that is unproven, and whose
 * `unproven:` does not acknowledge it, fails the check.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleSpec } from "../../contract-core/index.js";
import { referencePath, reportLines, runTrace } from "../trace/cli.js";
import { reviewMarkdown, statementsToReview } from "../trace/review.js";
import { newlyUnproven, proveEntries, vitestRunner, type CheckRunner } from "../trace/prove.js";
import { loadTrace, totalsLine, traceFailed, TRACE_FILE, type TraceEntry } from "../trace/trace.js";
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
  {
    reference,
    prove = vitestRunner(cwd),
  }: { reference?: string; /** The runner of the named checks; false: no proving. */ prove?: CheckRunner | false } = {
    reference: referencePath(undefined),
  },
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
    const head = loadTrace(join(cwd, TRACE_FILE));
    const touched = touchedEntries(head, join(work, TRACE_FILE), new Set(items.map((i) => i.statement.id)));
    let proved = "";
    let proveFailed = false;
    if (prove && touched.length > 0) {
      const proof = await proveEntries({
        bundle: bundleSpec(join(cwd, "spec/openapi.yaml")),
        entries: touched,
        run: prove,
      });
      const fresh = newlyUnproven(proof);
      proveFailed = fresh.length > 0;
      for (const p of fresh) lines.push(`✘ unproven ${p.id}: ${p.problems.join("; ")}`);
      proved = `; prove: ${proof.totals.proven} of ${proof.totals.entries} touched entries proven (${proof.totals.mutations} mutations)`;
    } else proved = `; prove: ${touched.length === 0 ? "no entry touched" : "not run"}`;
    return {
      status: status === "fail" || proveFailed ? "fail" : "pass",
      note: `${note}; ${items.length} to re-read${proved}`,
      output: lines.join("\n"),
      markdown: reviewMarkdown(items),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The head's entries that are new, differ from the base trace file's, or whose spec elements changed (`changed`). */
export function touchedEntries(head: TraceEntry[], baseFile: string, changed: ReadonlySet<string>): TraceEntry[] {
  const base = new Map(existsSync(baseFile) ? loadTrace(baseFile).map((e) => [e.id, JSON.stringify(e)]) : []);
  return head.filter((e) => changed.has(e.id) || base.get(e.id) !== JSON.stringify(e));
}
