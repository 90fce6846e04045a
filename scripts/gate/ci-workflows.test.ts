/**
 * Every GitHub Actions workflow of the repository (.github/workflows/*.yml) keeps pull-request text out of its
 * scripts and its credentials out of reach: no `${{ }}` expression inside a `run:` script (inputs reach a
 * script through `env:`), every action pinned by a full commit sha with its version in a comment, and every
 * checkout with `persist-credentials: false`. The gate's own output reaches the log with workflow commands stopped.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../contract-core/index.js";
import { inert } from "./cli.js";

const DIR = path.join(REPO_ROOT, ".github", "workflows");
const FILES = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

/** Problems of one workflow's text (exported for the negative cases). */
export function workflowProblems(text: string): string[] {
  const problems: string[] = [];
  const doc = parse(text) as { jobs?: Record<string, { steps?: Step[] }> };
  for (const [job, { steps = [] }] of Object.entries(doc.jobs ?? {}))
    for (const [i, step] of steps.entries()) {
      const where = `jobs.${job}.steps[${i}]`;
      if (step.run?.includes("${{")) problems.push(`${where}: an expression inside run: (pass it through env:)`);
      if (step.uses?.startsWith("actions/checkout@") && step.with?.["persist-credentials"] !== false)
        problems.push(`${where}: checkout without persist-credentials: false`);
    }
  for (const line of text.split("\n")) {
    const uses = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (!uses || uses[1]!.startsWith("./")) continue;
    if (!/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(uses[1]!)) problems.push(`${uses[1]}: not pinned by a commit sha`);
    else if (!/^\s+# v\d+\.\d+\.\d+\s*$/.test(uses[2]!)) problems.push(`${uses[1]}: no "# vX.Y.Z" version comment`);
  }
  return problems;
}

describe("GitHub Actions workflows", () => {
  it.each(FILES)("%s passes inputs through env:, pins actions by sha, keeps no credentials", (file) => {
    expect(FILES.length).toBeGreaterThanOrEqual(2);
    expect(workflowProblems(readFileSync(path.join(DIR, file), "utf8"))).toEqual([]);
  });

  it("finds each problem (negative: the workflow as it was)", () => {
    const before = [
      "jobs:",
      "  gate:",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "        with:",
      "          fetch-depth: 0",
      "      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020",
      "      - run: npm run gate -- --base origin/${{ github.base_ref }}",
    ].join("\n");
    expect(workflowProblems(before)).toEqual([
      "jobs.gate.steps[0]: checkout without persist-credentials: false",
      "jobs.gate.steps[2]: an expression inside run: (pass it through env:)",
      "actions/checkout@v4: not pinned by a commit sha",
      'actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020: no "# vX.Y.Z" version comment',
    ]);
  });
});

describe("the gate's output in the Actions log", () => {
  it("is printed with workflow commands stopped, under a token the text cannot guess", () => {
    const text = "::error::forged by a commit subject\n::add-mask::x";
    const [a, b] = [inert(text), inert(text)];
    const token = /^::stop-commands::([0-9a-f-]{36})\n/.exec(a)?.[1];
    expect(token).toBeDefined();
    expect(a.endsWith(`\n::${token}::\n`)).toBe(true);
    expect(a).toContain(text);
    expect(b).not.toContain(token!);
  });
});
