/**
 * Release notes in Markdown, from the changelog's entry of the whole release (the last release's contract to
 * this one, built by the changelog's own entryOf, so titles, reasons and migration lines read as on the page):
 * the breaking changes each with what a client must do, then additions, deprecations and description edits.
 */
import { listOperations } from "../../contract-core/index.js";
import { type EntryChange, entryOf } from "../changelog/entries.js";
import { MARKER_FILE } from "../changelog/history.js";
import { changeTitle, operationSummaries } from "../changelog/titles.js";
import type { ReleasePlan } from "./plan.js";
import { installLine } from "./version.js";

/** Markdown code, safe for any text (a backtick inside widens the fence). */
const md = (text: string): string => {
  const fence = "`".repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${fence}${fence.length > 1 ? " " : ""}${text}${fence.length > 1 ? " " : ""}${fence}`;
};
/** Plain text for a Markdown line: no HTML, no link or emphasis syntax. */
const plain = (text: string): string => text.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`).replace(/\s+/g, " ");

export async function releaseNotes(cwd: string, plan: ReleasePlan, name: string): Promise<string> {
  void cwd;
  const { next, last, head, base } = plan;
  // The gate's sentence, its rule ids and operations as code (they come from the spec: data, never Markdown).
  const because = [...new Set(next.because.map((c) => `${md(c.rule)} on ${md(c.operationId ?? c.operation)}`))];
  const why =
    next.level === "major" || next.level === "minor"
      ? `${next.version}: ${because.slice(0, 5).join(", ")}${because.length > 5 ? ` and ${because.length - 5} more` : ""}`
      : plain(next.sentence);
  const lines = [`# ${name} ${next.version}`, "", `${why}${last ? ` (since ${last.tag})` : ""}.`];
  lines.push("", `Install: ${md(installLine(name, next.version))}`);
  lines.push("", "The version is the contract's and its package's; the URL's `/v1` is the service's and stays.");
  if (!base?.doc) {
    const ops = listOperations(head.doc ?? {});
    lines.push("", `The first release: ${ops.length} operations. The history before it is on the changelog page.`);
    lines.push("", `## Operations (${ops.length})`, "");
    for (const { method, path, operation } of ops) {
      const summary = typeof operation.summary === "string" ? `${plain(operation.summary)} ` : "";
      lines.push(`- ${summary}(${md(`${method.toUpperCase()} ${path}`)})`);
    }
    return lines.join("\n");
  }
  const entry = entryOf(base, head, `Release ${next.version}`, new Date().toISOString(), head.files.get(MARKER_FILE));
  const summaries = operationSummaries(base.doc, head.doc);
  const section = (title: string, changes: EntryChange[], more: (c: EntryChange) => string[] = () => []) => {
    if (changes.length === 0) return;
    lines.push("", `## ${title} (${changes.length})`, "");
    for (const c of changes) {
      lines.push(`- ${plain(changeTitle(c, summaries))} (${md(c.rule)})`);
      for (const extra of more(c)) lines.push(`  ${extra}`);
    }
  };
  const of = (kind: EntryChange["kind"]) => (entry?.changes ?? []).filter((c) => c.kind === kind);
  section("Breaking changes", of("breaking"), (c) => [
    `Why it breaks clients: ${plain(c.why ?? "")}.`,
    `Migration: ${c.migration ? plain(c.migration) : "(none written)"}`,
  ]);
  section("Additions and changes", of("non-breaking"));
  section("Deprecations", of("deprecation"));
  section("Description-only", of("description"));
  if (!entry) lines.push("", "No change to the contract: the package's code changed.");
  return lines.join("\n");
}
