/**
 * The gate's trace check (scripts/trace/README.md): every statement of the API reference traced, no entry
 * outdated; and the statements whose spec elements this change touches, compared with the base commit's spec
 * (both bundled from their sources the same way), listed for the reviewer; and prove mode
 * (scripts/trace/prove.ts) over the entries the change touches (those statements, and each entry of
 * spec/trace.yaml that is new or differs from the base's): a touched entry that is unproven, and whose
 * `unproven:` does not acknowledge it, fails the check.
 */
import { join } from "node:path";
import { bundleFile } from "../../contract-core/redocly.js";
import { filesAt } from "../changelog/history.js";
import { referencePath, reportLines, runTrace } from "../trace/cli.js";
import { reviewMarkdown, statementsToReview } from "../trace/review.js";
import { newlyUnproven, proveEntries, vitestRunner, type CheckRunner } from "../trace/prove.js";
import { loadTrace, parseTrace, totalsLine, traceFailed, TRACE_FILE, type TraceEntry } from "../trace/trace.js";
import type { ResolvedBase } from "./breaking-check.js";

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
  // The base's spec/ from git objects: its bundle, and its trace file (none before the trace existed).
  const baseFiles = filesAt(cwd, base.sha, ["spec"]);
  const headRoot = join(cwd, "spec/openapi.yaml");
  const [baseBundle, headBundle] = await Promise.all([
    bundleFile(headRoot, {
      files: { dir: cwd, files: baseFiles },
      configDir: cwd,
      label: `spec/openapi.yaml at ${base.label}`,
    }),
    bundleFile(headRoot, { configDir: cwd }),
  ]);
  const items = statementsToReview(report, baseBundle.doc, headBundle.doc);
  const head = loadTrace(join(cwd, TRACE_FILE));
  const baseTrace = baseFiles.get(TRACE_FILE);
  const baseEntries = baseTrace === undefined ? [] : parseTrace(baseTrace, `${TRACE_FILE} at ${base.label}`);
  const touched = touchedEntries(head, baseEntries, new Set(items.map((i) => i.statement.id)));
  let proved: string;
  let proveFailed = false;
  if (prove && touched.length > 0) {
    const proof = await proveEntries({ bundle: headBundle.doc, entries: touched, run: prove });
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
}

/** The head's entries that are new, differ from the base's entries, or whose spec elements changed (`changed`). */
export function touchedEntries(
  head: TraceEntry[],
  baseEntries: TraceEntry[],
  changed: ReadonlySet<string>,
): TraceEntry[] {
  const base = new Map(baseEntries.map((e) => [e.id, JSON.stringify(e)]));
  return head.filter((e) => changed.has(e.id) || base.get(e.id) !== JSON.stringify(e));
}
