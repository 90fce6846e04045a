/**
 * The gate's Markdown summary: a table of every check with what it found, then one section per check that has
 * something to say (what failed, named: the failed tests, the diagnostics with file and line, the coverage
 * cells), the breaking-change details and the notes. A check is a StepResult; a new check adds its name to
 * CHECKS and fills `details` (and `section`) the same way. Text from the pull request goes in only through
 * scripts/escape/markdown.ts (`note` and `notes` are plain text, escaped here; `details` and `section` are
 * Markdown their producers escaped), so nothing in it starts a heading, a list, HTML or a line of its own.
 */
import { UNCLASSIFIED_WHY, markdownTable, needsReview } from "../breaking/breaking.js";
import { showControls } from "../escape/controls.js";
import { markdownText } from "../escape/markdown.js";
import type { BreakingOutcome } from "./breaking-check.js";
import { markerLines } from "./breaking-markers.js";

export const CHECKS = [
  "lint",
  "drift",
  "breaking",
  "release",
  "consumers",
  "typecheck",
  "tests",
  "coverage",
  "trace",
] as const;
export type CheckName = (typeof CHECKS)[number];

export const TITLES: Record<CheckName, string> = {
  lint: "Lint",
  drift: "Drift (generated files up to date)",
  breaking: "Breaking changes",
  release: "Release (the next version and why)",
  consumers: "Consumers affected",
  typecheck: "Typecheck",
  tests: "Tests",
  coverage: "Contract coverage",
  trace: "Trace (every statement of the reference)",
};

export interface StepResult {
  name: CheckName;
  status: "pass" | "fail" | "skip";
  ms: number;
  /** One line: what the check found. */
  note: string;
  /** The command's output, whose last lines the step summary shows for a failed check. */
  output?: string;
  /** What failed, one Markdown line each, naming it (`listLists 409`, `a.ts:3`, a test and its assertion). */
  details?: string[];
  /** More Markdown under the check's heading, failed or not (coverage's totals beside the base's). */
  section?: string;
}

/** A fenced code block of `text`, its fence longer than any run of backticks inside (so none can end it). */
function fenced(info: string, text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${info}`, text, fence];
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const ICON = { pass: "✔", fail: "✘", skip: "–" } as const;

/**
 * The summary. `withOutput` adds the last 40 lines of each failed command's output: for the job's step
 * summary, where the output itself is not shown (on the console it has been printed already).
 */
export function renderSummary(
  steps: StepResult[],
  breaking: BreakingOutcome | undefined,
  totalMs: number,
  withOutput = false,
): string {
  const ok = steps.every((s) => s.status !== "fail");
  const out: string[] = [
    `## Contract gate: ${ok ? "✔ passed" : "✘ failed"}`,
    "",
    "| Check | Found | Time |",
    "|---|---|---|",
  ];
  for (const s of steps) {
    const note = markdownText(s.note);
    out.push(`| ${ICON[s.status]} ${TITLES[s.name]} | ${note} | ${s.status === "skip" ? "—" : seconds(s.ms)} |`);
  }
  for (const s of steps) {
    const details = s.status === "fail" ? (s.details ?? []) : [];
    if (details.length === 0 && !s.section) continue;
    out.push("", `### ${ICON[s.status]} ${TITLES[s.name]}`);
    if (details.length > 0) out.push("", ...details.map((d) => `- ${d}`));
    if (s.section) out.push("", s.section.trimEnd());
  }
  const report = breaking?.report;
  if (breaking && report) {
    const { blocking, accepted } = breaking;
    if (blocking.length > 0) {
      out.push("", `### ✘ Breaking changes (${blocking.length})`, "", markdownTable(blocking));
      const review = blocking.filter(needsReview).length;
      if (review > 0) out.push("", `${review} of them need review (\`unclassified-change\`): ${UNCLASSIFIED_WHY}.`);
      out.push(
        "",
        "An intended breaking change passes only through a reviewed marker: bump the major of `info.version`, or add the matching line under `## Entries` in `spec/BREAKING.md`:",
        "",
        ...fenced("markdown", markerLines(blocking).map(showControls).join("\n")),
      );
    }
    if (accepted.length > 0) {
      const by = new Map(accepted.map((a) => [a.change, a.by]));
      const table = markdownTable(
        accepted.map((a) => a.change),
        (c) => by.get(c) ?? "",
      );
      out.push("", `### ✔ Accepted breaking changes (${accepted.length})`, "", table);
    }
    if (report.nonBreaking.length > 0) {
      const count = report.nonBreaking.length;
      out.push("", `<details><summary>Non-breaking changes (${count})</summary>`, "");
      out.push(markdownTable(report.nonBreaking), "", "</details>");
    }
  }
  if (breaking && breaking.notes.length > 0)
    out.push("", "### Notes", "", ...breaking.notes.map((n) => `- ${markdownText(n)}`));
  if (withOutput)
    for (const s of steps.filter((x) => x.status === "fail" && x.output)) {
      const tail = (s.output ?? "").trimEnd().split("\n").slice(-40).join("\n");
      out.push("", `<details><summary>✘ ${TITLES[s.name]}: last lines of output</summary>`, "");
      out.push(...fenced("text", tail), "", "</details>");
    }
  out.push("", `Total ${seconds(totalMs)} · Node ${process.version}`);
  return out.join("\n");
}
