/**
 * Coverage from marks: per operation, status, named example and parameter, the evidence kinds that exercised
 * it through a real cause; the statuses only forced answers reached (`Prefer: code=`, a kit fault), listed
 * apart and counted nowhere; the totals per dimension; the Markdown table; and the comparison of two reports
 * that the gate applies.
 */
import { markdownCode } from "../escape/markdown.js";
import { paramPointer, type Mark, type OperationCells } from "../../contract-core/index.js";

export const EVIDENCE = ["recordings", "fuzz", "workflows", "suite"] as const;
export type Evidence = (typeof EVIDENCE)[number];
/** One-letter marks of the Markdown table. */
const LETTER: Record<Evidence, string> = { recordings: "R", fuzz: "F", workflows: "W", suite: "S" };

export interface SourceInfo {
  /** False when the source could not be collected (the reason says why). */
  collected: boolean;
  exchanges: number;
  how: string;
  reason?: string;
}

export interface CoverageReport {
  spec: string;
  sources: Record<Evidence, SourceInfo>;
  operations: {
    operationId: string;
    method: string;
    path: string;
    evidence: Evidence[];
    statuses: {
      status: string;
      /** The kinds whose exchanges caused the status. */
      evidence: Evidence[];
      /** The kinds that reached it only by forcing it (counted in no total). */
      forced: Evidence[];
      examples: { name: string; evidence: Evidence[] }[];
    }[];
    parameters: { in: string; name: string; valid: Evidence[]; invalid: Evidence[] }[];
  }[];
  totals: Totals;
}

export interface Count {
  covered: number;
  total: number;
}

export interface Totals {
  operations: Count;
  statuses: Count;
  examples: Count;
  /** Parameters sent at least once with a valid value / with an invalid value. */
  parametersValid: Count;
  parametersInvalid: Count;
}

const DIMENSIONS: { key: keyof Totals; label: string }[] = [
  { key: "operations", label: "operations" },
  { key: "statuses", label: "operation × status" },
  { key: "examples", label: "named examples" },
  { key: "parametersValid", label: "parameters sent valid" },
  { key: "parametersInvalid", label: "parameters sent invalid" },
];

/** The report of `cells` given every source's marks. */
export function buildReport(
  spec: string,
  cells: OperationCells[],
  marks: Partial<Record<Evidence, Mark[]>>,
  sources: Record<Evidence, SourceInfo>,
): CoverageReport {
  const seen = new Map<string, Set<Evidence>>();
  const forced = new Map<string, Set<Evidence>>();
  for (const source of EVIDENCE) {
    const add = (key: string) => seen.set(key, (seen.get(key) ?? new Set()).add(source));
    for (const mark of marks[source] ?? []) {
      if (mark.status === null) {
        if (!mark.forced) add(mark.operationId);
        continue;
      }
      // The request side of a forced answer is real (the validator judged its parameters); its answer is not.
      for (const p of mark.valid) add(`${mark.operationId} valid ${p}`);
      for (const p of mark.invalid) add(`${mark.operationId} invalid ${p}`);
      const cell = `${mark.operationId} ${mark.status}`;
      if (mark.forced) {
        forced.set(cell, (forced.get(cell) ?? new Set()).add(source));
        continue;
      }
      add(mark.operationId);
      add(cell);
      for (const name of mark.examples) add(`${mark.operationId} ${mark.status} ${name}`);
    }
  }
  const get = (key: string) => EVIDENCE.filter((e) => seen.get(key)?.has(e));
  const operations = cells.map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    evidence: get(op.operationId),
    statuses: op.statuses.map((s) => ({
      status: s.status,
      evidence: get(`${op.operationId} ${s.status}`),
      forced: EVIDENCE.filter((e) => forced.get(`${op.operationId} ${s.status}`)?.has(e)),
      examples: s.examples.map((name) => ({ name, evidence: get(`${op.operationId} ${s.status} ${name}`) })),
    })),
    parameters: op.parameters.map((p) => ({
      in: p.in,
      name: p.name,
      valid: get(`${op.operationId} valid ${paramPointer(p)}`),
      invalid: get(`${op.operationId} invalid ${paramPointer(p)}`),
    })),
  }));
  return { spec, sources, operations, totals: totalsOf(operations) };
}

function count<T>(items: T[], covered: (item: T) => boolean): Count {
  return { covered: items.filter(covered).length, total: items.length };
}

function totalsOf(operations: CoverageReport["operations"]): Totals {
  const statuses = operations.flatMap((op) => op.statuses);
  const parameters = operations.flatMap((op) => op.parameters);
  return {
    operations: count(operations, (op) => op.evidence.length > 0),
    statuses: count(statuses, (s) => s.evidence.length > 0),
    examples: count(
      statuses.flatMap((s) => s.examples),
      (e) => e.evidence.length > 0,
    ),
    parametersValid: count(parameters, (p) => p.valid.length > 0),
    parametersInvalid: count(parameters, (p) => p.invalid.length > 0),
  };
}

/** The same report with only some evidence kinds counted (the gate compares what it can collect on both sides). */
export function restrictTo(report: CoverageReport, keep: readonly Evidence[]): CoverageReport {
  const only = (list: Evidence[]) => list.filter((e) => keep.includes(e));
  const operations = report.operations.map((op) => ({
    ...op,
    evidence: only(op.evidence),
    statuses: op.statuses.map((s) => ({
      ...s,
      evidence: only(s.evidence),
      forced: only(s.forced ?? []),
      examples: s.examples.map((e) => ({ ...e, evidence: only(e.evidence) })),
    })),
    parameters: op.parameters.map((p) => ({ ...p, valid: only(p.valid), invalid: only(p.invalid) })),
  }));
  return { ...report, operations, totals: totalsOf(operations) };
}

function percent({ covered, total }: Count): string {
  return total === 0 ? "n/a" : `${((100 * covered) / total).toFixed(1)} %`;
}

/** One line per dimension: `operation × status   112/131  (85.5 %)`. */
export function totalsLines(totals: Totals): string[] {
  return DIMENSIONS.map(({ key, label }) => {
    const c = totals[key];
    return `${label.padEnd(24)} ${`${c.covered}/${c.total}`.padStart(9)}  (${percent(c)})`;
  });
}

const marksOf = (evidence: Evidence[]): string =>
  evidence.length === 0 ? "·" : evidence.map((e) => LETTER[e]).join("");

/** A status cell's letters: the causing kinds, else the forcing ones in parentheses (`(S)`), else `·`. */
const statusMarks = (s: { evidence: Evidence[]; forced?: Evidence[] }): string =>
  s.evidence.length === 0 && (s.forced?.length ?? 0) > 0 ? `(${marksOf(s.forced!)})` : marksOf(s.evidence);

/** Operations as rows, statuses as columns (each operation's own), evidence kinds as letters. */
export function markdownTable(report: CoverageReport): string {
  const lines = [
    "# Contract coverage",
    "",
    `Evidence: ${EVIDENCE.map((e) => `**${LETTER[e]}** ${e}`).join(", ")}; **·** none; in parentheses: ` +
      "reached only by forcing the status (`Prefer: code=`, a kit fault), which counts in no total. " +
      "Examples and parameters: covered/total.",
    "",
    "| Source | Collected | Exchanges | How |",
    "| --- | --- | --- | --- |",
    ...EVIDENCE.map((e) => {
      const s = report.sources[e];
      return `| ${e} | ${s.collected ? "yes" : `no: ${s.reason ?? ""}`} | ${s.exchanges} | ${s.how} |`;
    }),
    "",
    "| Total | Covered |",
    "| --- | --- |",
    ...DIMENSIONS.map(({ key, label }) => {
      const c = report.totals[key];
      return `| ${label} | ${c.covered}/${c.total} (${percent(c)}) |`;
    }),
    "",
    "| Operation | Statuses | Examples | Parameters valid / invalid |",
    "| --- | --- | --- | --- |",
  ];
  for (const op of report.operations) {
    const statuses = op.statuses.map((s) => `${s.status} ${statusMarks(s)}`).join(", ");
    const examples = op.statuses.flatMap((s) => s.examples);
    const exampleCount = `${examples.filter((e) => e.evidence.length > 0).length}/${examples.length}`;
    const params = op.parameters;
    const paramCount = `${params.filter((p) => p.valid.length > 0).length}/${params.length} / ${params.filter((p) => p.invalid.length > 0).length}/${params.length}`;
    lines.push(`| \`${op.operationId}\` | ${statuses} | ${exampleCount} | ${paramCount} |`);
  }
  const forced = forcedOnlyCells(report);
  lines.push("", `## Forced only (${forced.length})`, "");
  lines.push(
    ...(forced.length === 0 ? ["None."] : forced.map((f) => `- ${f.cell} (${f.sources.join(", ")}): ${f.why}`)),
  );
  const uncovered = uncoveredCells(report);
  lines.push("", `## Uncovered (${uncovered.length})`, "");
  lines.push(...(uncovered.length === 0 ? ["None."] : uncovered.map((c) => `- ${c}`)));
  return `${lines.join("\n")}\n`;
}

/** The operations and operation × status cells no evidence caused (forced-only ones included), as `createList 409`. */
export function uncoveredCells(report: CoverageReport): string[] {
  return report.operations.flatMap((op) =>
    op.evidence.length === 0
      ? [`${op.operationId} (no evidence at all)`]
      : op.statuses.filter((s) => s.evidence.length === 0).map((s) => `${op.operationId} ${s.status}`),
  );
}

export interface ForcedCell {
  cell: string;
  sources: Evidence[];
  why: string;
}

/** Why a status may have no caused evidence. */
function whyForced(status: string): string {
  return status.startsWith("5")
    ? "a server error has no cause a client can produce in a sandbox: only forcing it reaches it"
    : "only `Prefer: code=` or a kit fault answered it: no recording, workflow step, fuzz case or sandbox test produces it";
}

/** The statuses reached only by forced answers: counted in no total, listed apart with why. */
export function forcedOnlyCells(report: CoverageReport): ForcedCell[] {
  return report.operations.flatMap((op) =>
    op.statuses
      .filter((s) => s.evidence.length === 0 && (s.forced?.length ?? 0) > 0)
      .map((s) => ({ cell: `${op.operationId} ${s.status}`, sources: s.forced, why: whyForced(s.status) })),
  );
}

export interface Comparison {
  /** Operations or operation × status cells the head adds that no evidence caused. */
  addedWithoutEvidence: string[];
  /** Dimensions whose covered count fell below the base's, each with the cells the head no longer covers. */
  fallen: { label: string; base: Count; head: Count; lost: string[] }[];
  /** Cells whose evidence changed: added, removed, or covered differently. */
  changed: { cell: string; base: Evidence[] | null; head: Evidence[] | null }[];
}

function cellMap(report: CoverageReport): Map<string, Evidence[]> {
  const cells = new Map<string, Evidence[]>();
  for (const op of report.operations) {
    cells.set(op.operationId, op.evidence);
    for (const s of op.statuses) cells.set(`${op.operationId} ${s.status}`, s.evidence);
  }
  return cells;
}

/** Every covered cell of one dimension, named as a reviewer finds it: `getPerson 200 example dossier`. */
function coveredIn(report: CoverageReport, key: keyof Totals): Set<string> {
  const names = report.operations.flatMap((op) => {
    if (key === "operations") return op.evidence.length > 0 ? [op.operationId] : [];
    if (key === "statuses")
      return op.statuses.filter((s) => s.evidence.length > 0).map((s) => `${op.operationId} ${s.status}`);
    if (key === "examples")
      return op.statuses.flatMap((s) =>
        s.examples.filter((e) => e.evidence.length > 0).map((e) => `${op.operationId} ${s.status} example ${e.name}`),
      );
    const side = key === "parametersValid" ? "valid" : "invalid";
    return op.parameters
      .filter((p) => p[side].length > 0)
      .map((p) => `${op.operationId} ${p.in} parameter ${p.name} sent ${side}`);
  });
  return new Set(names);
}

/** What the gate judges: cells the head adds without caused evidence, totals that fell (naming the cells), and every changed cell. */
export function compareReports(base: CoverageReport, head: CoverageReport): Comparison {
  const before = cellMap(base);
  const after = cellMap(head);
  const changed: Comparison["changed"] = [];
  const addedWithoutEvidence: string[] = [];
  for (const [cell, evidence] of after) {
    const old = before.get(cell);
    if (old === undefined) {
      changed.push({ cell, base: null, head: evidence });
      if (evidence.length === 0) addedWithoutEvidence.push(cell);
    } else if (old.join() !== evidence.join()) changed.push({ cell, base: old, head: evidence });
  }
  for (const [cell, evidence] of before) if (!after.has(cell)) changed.push({ cell, base: evidence, head: null });
  const fallen = DIMENSIONS.filter(({ key }) => head.totals[key].covered < base.totals[key].covered).map(
    ({ key, label }) => {
      const still = coveredIn(head, key);
      return {
        label,
        base: base.totals[key],
        head: head.totals[key],
        lost: [...coveredIn(base, key)].filter((c) => !still.has(c)),
      };
    },
  );
  return { addedWithoutEvidence, fallen, changed };
}

/** The findings that fail the gate, one line each, naming the cells: `listLists 409 is new and …`. */
export function comparisonFailures(comparison: Comparison): string[] {
  return [
    ...comparison.addedWithoutEvidence.map(
      (cell) => `${markdownCode(cell)} is new in this change and no evidence causes it (forced answers do not count)`,
    ),
    ...comparison.fallen.map(
      (f) =>
        `${f.label} fell to ${f.head.covered} (base ${f.base.covered}); no longer covered: ` +
        (f.lost.length > 0
          ? f.lost.map((c) => markdownCode(c)).join(", ")
          : "(cells renamed or removed with the spec)"),
    ),
  ];
}

/** The gate summary's section: totals beside the base's and the changed cells (comparisonFailures says what fails). */
export function comparisonMarkdown(comparison: Comparison, base: CoverageReport, head: CoverageReport): string {
  const lines = ["| Total | Base | Head |", "| --- | --- | --- |"];
  for (const { key, label } of DIMENSIONS) {
    const b = base.totals[key];
    const h = head.totals[key];
    lines.push(`| ${label} | ${b.covered}/${b.total} | ${h.covered}/${h.total} |`);
  }
  if (comparison.changed.length > 0) {
    lines.push("", "| Cell | Base | Head |", "| --- | --- | --- |");
    const show = (e: Evidence[] | null) => (e === null ? "(not in spec)" : marksOf(e));
    for (const c of comparison.changed)
      lines.push(`| ${markdownCode(c.cell, { table: true })} | ${show(c.base)} | ${show(c.head)} |`);
  } else lines.push("", "No cell changed.");
  return `${lines.join("\n")}\n`;
}
