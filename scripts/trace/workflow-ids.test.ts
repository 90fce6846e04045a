/**
 * A `workflow:<file>#<id>` check of spec/trace.yaml names its step or workflow as written: an id that is not
 * Arazzo's `[A-Za-z0-9_-]+` is a clear problem (never a regular expression: `#(` crashed the trace check, `#.*`
 * traced a statement with nothing behind it), and the trace's printed lines show a quote's control characters.
 */
import { describe, expect, it } from "vitest";
import { REPO_ROOT, controlCharacters } from "../../contract-core/index.js";
import { reportLines } from "./cli.js";
import { buildTrace, checkProblem } from "./trace.js";

const FILE = "spec/workflows/company-target.arazzo.yaml";

describe("workflow: checks", () => {
  it("an id that is not a step id is a clear problem, not a pattern (negative)", () => {
    expect(checkProblem(REPO_ROOT, `workflow:${FILE}#(`)).toMatch(/"\(" in .* is not a step or workflow id/);
    expect(checkProblem(REPO_ROOT, `workflow:${FILE}#.*`)).toMatch(/is not a step or workflow id/);
    expect(checkProblem(REPO_ROOT, `workflow:${FILE}#createAgain`)).toBeUndefined();
    // Part of an id is not the id.
    expect(checkProblem(REPO_ROOT, `workflow:${FILE}#createAgai`)).toMatch(/step createAgai not found/);
  });

  it("an entry whose only check is `#.*` is outdated, not traced", () => {
    const report = buildTrace({
      root: REPO_ROOT,
      bundle: { openapi: "3.1.0" },
      entries: [{ id: "a/b-1", quote: "q", spec: ["#/openapi"], checks: [`workflow:${FILE}#.*`] }],
    });
    expect(report.statements[0]?.status).toBe("outdated");
  });
});

describe("the trace's printed lines", () => {
  it("show a quote's control characters instead of sending them to the terminal", () => {
    const report = buildTrace({
      root: REPO_ROOT,
      bundle: {},
      entries: [{ id: "a/b-1", quote: "\x1b[2J\x1b]0;title\x07\x1b[32m✔ ready\x1b[0m\r✔ trace", spec: [], checks: [] }],
    });
    const lines = reportLines(report);
    expect(lines.flatMap((line) => controlCharacters(line))).toEqual([]);
    expect(lines[0]).toContain("\\x1b[2J\\x1b]0;title\\x07\\x1b[32m✔ ready\\x1b[0m\\x0d✔ trace");
  });
});
