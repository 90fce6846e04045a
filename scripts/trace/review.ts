/**
 * Which statements a change of the spec touches: a traced statement whose spec pointers resolve to something
 * else in the head bundle than in the base bundle (the element with every `$ref` inside it followed), so a
 * reviewer re-reads those sentences of the reference.
 */
import { markdownCode, markdownText } from "../escape/markdown.js";
import { atPointer, type TraceReport, type TracedStatement } from "./trace.js";

/** The value at `pointer` with every internal `$ref` inside it replaced by its target, as canonical JSON. */
export function resolvedJson(doc: unknown, pointer: string): string | undefined {
  const start = atPointer(doc, pointer);
  if (start === undefined) return undefined;
  const expand = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => expand(n, seen));
    if (node === null || typeof node !== "object") return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#")) {
      if (seen.includes(ref)) return { $ref: ref };
      return expand(atPointer(doc, ref), [...seen, ref]);
    }
    const entries = Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, expand(v, seen)]));
  };
  return JSON.stringify(expand(start, []));
}

export interface ReviewItem {
  statement: TracedStatement;
  /** The statement's pointers whose element changed (or is new). */
  changed: string[];
}

export function statementsToReview(report: TraceReport, base: unknown, head: unknown): ReviewItem[] {
  const cache = new Map<string, boolean>();
  const differs = (p: string) => {
    if (!cache.has(p)) cache.set(p, resolvedJson(base, p) !== resolvedJson(head, p));
    return cache.get(p)!;
  };
  return report.statements
    .filter((s) => s.status === "traced")
    .map((statement) => ({ statement, changed: statement.spec.filter(differs) }))
    .filter((item) => item.changed.length > 0);
}

/** The gate summary's section: one line per statement to re-read. */
export function reviewMarkdown(items: ReviewItem[]): string {
  if (items.length === 0) return "No statement of the reference has a spec element this change touches.";
  const lines = [
    `This change touches the spec elements of ${items.length} statement${items.length === 1 ? "" : "s"} of the reference; re-read ${items.length === 1 ? "it" : "them"}:`,
    "",
  ];
  for (const { statement, changed } of items)
    lines.push(
      `- ${markdownCode(statement.id)}: “${markdownText(statement.quote)}” (${changed.map((p) => markdownCode(p)).join(", ")})`,
    );
  return lines.join("\n");
}
