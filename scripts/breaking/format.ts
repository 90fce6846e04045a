/** Text and Markdown renderings of reported changes and of the policy. */
import { type Change, type RuleDef, OPTIC_RULE, POLICY } from "./policy.js";

export const describeOperation = (c: Change): string => (c.operationId ? `${c.operation} (${c.operationId})` : c.operation);

export function formatText(report: { breaking: Change[]; nonBreaking: Change[]; notes: string[] }): string {
  const lines: string[] = [];
  const block = (c: Change, mark: string) => {
    lines.push(`  ${mark} ${describeOperation(c)}`);
    lines.push(`    at    ${c.location || "(operation)"}${c.component ? `  [${c.component}]` : ""}`);
    lines.push(`    what  ${c.message}`);
    if (c.why) lines.push(`    why   ${c.why}`);
    lines.push(`    rule  ${c.rule}${c.optic && c.rule !== OPTIC_RULE ? ` (also flagged by Optic: ${c.optic})` : ""}`);
  };
  lines.push(`Breaking changes: ${report.breaking.length}`);
  for (const c of report.breaking) block(c, "✘");
  lines.push(`Non-breaking changes: ${report.nonBreaking.length}`);
  for (const c of report.nonBreaking) lines.push(`  • ${describeOperation(c)} ${c.location || "(operation)"}: ${c.message} [${c.rule}]`);
  for (const n of report.notes) lines.push(`Note: ${n}`);
  return lines.join("\n");
}

const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (s: string): string => (s === "" ? "(operation)" : `\`${s.replaceAll("`", "'")}\``);

/** A Markdown table of changes (used by the gate's summary); the "why" column only when a change is breaking. */
export function markdownTable(changes: Change[], extra?: (c: Change) => string): string {
  const why = changes.some((c) => c.breaking);
  const head = ["Operation", "Location", "Change", ...(why ? ["Why it breaks clients"] : []), "Rule", ...(extra ? ["Marker"] : [])];
  const rows = changes.map((c) => {
    const location = code(c.location) + (c.component ? `<br>via ${code(c.component)}` : "");
    const rule = `\`${c.rule}\`${c.optic && c.rule !== OPTIC_RULE ? " (+optic)" : ""}`;
    const row = [code(describeOperation(c)), location, c.message, ...(why ? [c.why ?? "—"] : []), rule];
    if (extra) row.push(extra(c));
    return `| ${row.map(cell).join(" | ")} |`;
  });
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows].join("\n");
}

export function policyMarkdown(): string {
  const rows = Object.entries(POLICY).map(([id, def]: [string, RuleDef]) => `| \`${id}\` | ${def.breaking ? "✘ breaking" : "✔ non-breaking"} | ${cell(def.title)} | ${cell(def.why ?? "—")} |`);
  return ["| Rule | Verdict | Change | Why it breaks clients |", "|---|---|---|---|", ...rows].join("\n");
}

