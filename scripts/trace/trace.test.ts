// The trace: the reference's statements and their ids, the trace file's checker, the review list and the page.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, loadSpec } from "../../contract-core/index.js";
import { renderSummary } from "../gate/summary.js";
import { addMissing, BESIDE_REFERENCE, referencePath, reportLines, runTrace } from "./cli.js";
import { renderTracePage } from "./page.js";
import { reviewMarkdown, statementsToReview } from "./review.js";
import { sentences, splitReference } from "./statements.js";
import { atPointer, buildTrace, checkProblem, loadTrace, TRACE_FILE, type TraceEntry } from "./trace.js";

const SAMPLE = `# Title

Intro sentence one. Intro sentence two.

## Limits

| Limit | Value |
|---|---|
| nl | 1-400 chars |
| Target input | 1-400 chars before trimming |

Retry rules:

- Reads are safe to retry.
- Reads are safe to retry.

### POST /targets

Response: { data: Target }. 202 does not mean completion.
`;

const bundle = loadSpec(DEFAULT_SPEC_PATH);
const TEST = "scripts/trace/trace.test.ts > splits rows, items and sentences, skipping headings and lead-ins";

describe("statements", () => {
  it("splits rows, items and sentences, skipping headings and lead-ins", () => {
    const s = splitReference(SAMPLE);
    expect(s.map((x) => [x.kind, x.section, x.text])).toEqual([
      ["sentence", "Introduction", "Intro sentence one."],
      ["sentence", "Introduction", "Intro sentence two."],
      ["row", "Limits", "nl | 1-400 chars"],
      ["row", "Limits", "Target input | 1-400 chars before trimming"],
      ["item", "Limits", "Reads are safe to retry."],
      ["item", "Limits", "Reads are safe to retry."],
      ["sentence", "Limits › POST /targets", "Response: { data: Target }."],
      ["sentence", "Limits › POST /targets", "202 does not mean completion."],
    ]);
    expect(s[3]!.id).toMatch(/^limits\/target-input-[0-9a-f]{6}$/);
    expect(s[5]!.id).toBe(`${s[4]!.id}-2`);
    expect(s[6]!.id).toMatch(/^post-targets\/response-data-target-[0-9a-f]{6}$/);
  });

  it("gives ids that survive edits elsewhere, and a new id to a changed statement", () => {
    const ids = splitReference(SAMPLE).map((s) => s.id);
    const elsewhere = splitReference(SAMPLE.replace("| nl | 1-400 chars |", "| nl | 1-500 chars |\n| q | new |"));
    const kept = elsewhere.map((s) => s.id);
    expect(kept).toContain(ids[3]);
    expect(kept).toContain(ids[6]);
    expect(kept).not.toContain(ids[2]);
  });

  it("splits sentences at a full stop before a capital, not inside a value", () => {
    expect(sentences("Use e.g. limit=25. Then stop. 1-400 chars.")).toEqual([
      "Use e.g. limit=25.",
      "Then stop.",
      "1-400 chars.",
    ]);
  });
});

describe("the checker", () => {
  it("resolves JSON pointers with escapes, and nothing else", () => {
    expect(atPointer(bundle, "/paths/~1targets/post/operationId")).toBe("createTarget");
    expect(atPointer(bundle, "#/components/schemas/CreateTargetRequest/properties/input/maxLength")).toBe(400);
    expect(atPointer(bundle, "/components/schemas/Nope")).toBeUndefined();
    expect(atPointer(bundle, "components")).toBeUndefined();
  });

  it("names a parameter by in and name: a parameter inserted before others leaves every entry where it was", () => {
    const people = "/paths/~1people/get/parameters";
    expect(atPointer(bundle, `${people}/query:skills`)).toMatchObject({ name: "skills", in: "query" });
    // A $ref'd parameter resolves by the name of what it points to; an unknown or ambiguous name by nothing.
    expect(atPointer(bundle, `${people}/header:X-Service-Org-Id`)).toBeDefined();
    expect(atPointer(bundle, `${people}/query:nope`)).toBeUndefined();
    expect(atPointer(bundle, `${people}/header:skills`)).toBeUndefined();
    // Every parameter pointer of the trace file, before and after a parameter is put first in every list.
    const entries = loadTrace(join(REPO_ROOT, TRACE_FILE));
    const pointers = [...new Set(entries.flatMap((e) => e.spec ?? []).filter((p) => p.includes("/parameters/")))];
    expect(pointers.length).toBeGreaterThan(50);
    const shifted = structuredClone(bundle) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    const extra = { name: "inserted", in: "query", schema: { type: "string" }, example: "x" };
    for (const item of Object.values(shifted.paths))
      for (const op of Object.values(item)) if (Array.isArray(op?.parameters)) op.parameters.unshift(extra);
    for (const p of pointers) expect(atPointer(shifted, p), p).toEqual(atPointer(bundle, p));
    const report = buildTrace({ root: REPO_ROOT, entries, bundle: shifted });
    expect(report.totals.outdated).toBe(0);
    // A pointer by position is outdated and says how to write it; a parameter that vanished is outdated.
    const positional = buildTrace({
      root: REPO_ROOT,
      bundle,
      entries: [{ id: "s/a", quote: "a", spec: [`${people}/3`], checks: [TEST] }],
    });
    expect(positional.statements[0]).toMatchObject({
      status: "outdated",
      problems: [expect.stringMatching(/by its position/)],
    });
    const gone = structuredClone(bundle) as typeof shifted;
    const list = gone.paths["/people"]!.get!.parameters!;
    list.splice(
      list.findIndex((x) => (x as { name?: string }).name === "skills"),
      1,
    );
    expect(
      buildTrace({
        root: REPO_ROOT,
        bundle: gone,
        entries: [{ id: "s/a", quote: "a", spec: [`${people}/query:skills`], checks: [TEST] }],
      }).statements[0]?.status,
    ).toBe("outdated");
  });

  it("finds a test by file and title, a lint rule, a workflow step and a recording; names what is missing", () => {
    expect(checkProblem(REPO_ROOT, TEST)).toBeUndefined();
    expect(checkProblem(REPO_ROOT, "lint:tg-path-parameter-404")).toBeUndefined();
    expect(checkProblem(REPO_ROOT, "workflow:spec/workflows/company-target.arazzo.yaml#createAgain")).toBeUndefined();
    expect(checkProblem(REPO_ROOT, "recording:contract-tests/recordings-invalid")).toBeUndefined();
    expect(checkProblem(REPO_ROOT, "scripts/trace/trace.test.ts > a test nobody wrote")).toMatch(/not found in/);
    expect(checkProblem(REPO_ROOT, "scripts/trace/none.test.ts > x")).toMatch(/test file .* not found/);
    expect(checkProblem(REPO_ROOT, "lint:tg-no-such-rule")).toMatch(/lint rule/);
    expect(checkProblem(REPO_ROOT, "workflow:spec/workflows/company-target.arazzo.yaml#nope")).toMatch(/step nope/);
    expect(checkProblem(REPO_ROOT, "recording:contract-tests/none.json")).toMatch(/not found/);
    expect(checkProblem(REPO_ROOT, "it works")).toMatch(/is not a check/);
  });

  it("marks each statement traced, informative, untraced or outdated", () => {
    const [intro1, intro2, nl, input, item1, , response] = splitReference(SAMPLE);
    const pointer = "/components/schemas/CreateTargetRequest/properties/input";
    const entries: TraceEntry[] = [
      { id: intro1!.id, quote: "Intro sentence one.", informative: "describes the document" },
      { id: nl!.id, quote: "1-400 chars", spec: ["/paths/~1people/get"], checks: [TEST] },
      { id: input!.id, quote: "1-400 chars before trimming", spec: [pointer], checks: [TEST] },
      { id: item1!.id, quote: "safe to retry", spec: ["/components/schemas/Gone"], checks: [TEST] },
      { id: response!.id, quote: "Response:", spec: [pointer], checks: ["spec/x.test.ts > y"] },
      { id: "limits/removed-abc123", quote: "a statement that went", spec: [pointer], checks: [TEST] },
      { id: intro2!.id, quote: "Intro sentence two.", spec: [pointer], checks: [] },
    ];
    const report = buildTrace({ root: REPO_ROOT, entries, bundle, reference: SAMPLE });
    const status = Object.fromEntries(report.statements.map((s) => [s.id, s.status]));
    expect(status[intro1!.id]).toBe("informative");
    expect(status[intro2!.id]).toBe("untraced");
    expect(status[nl!.id]).toBe("traced");
    expect(status[input!.id]).toBe("traced");
    expect(status[item1!.id]).toBe("outdated");
    expect(status[response!.id]).toBe("outdated");
    expect(status["limits/removed-abc123"]).toBe("outdated");
    expect(report.totals).toEqual({ statements: 9, traced: 2, informative: 1, untraced: 3, outdated: 3 });
    const lines = reportLines(report).join("\n");
    expect(lines).toMatch(/pointer \/components\/schemas\/Gone does not resolve/);
    expect(lines).toMatch(/test file spec\/x.test.ts not found/);
    expect(lines).toMatch(/limits\/removed-abc123.*no longer in the reference/);
    expect(lines).toMatch(/✘ trace: 9 statements: 2 traced, 1 informative \(11.1%\), 3 untraced, 3 outdated$/);
    // Without the reference, the entries are the statements and their quotes are not checked.
    const alone = buildTrace({ root: REPO_ROOT, entries: entries.slice(1, 3), bundle });
    expect(alone.totals).toMatchObject({ statements: 2, traced: 2 });
  });

  it("refuses a malformed trace file, naming the entry", () => {
    const dir = mkdtempSync(join(tmpdir(), "trace-"));
    try {
      const file = join(dir, "trace.yaml");
      writeFileSync(file, "statements:\n  - id: a/b\n    quote: x\n  - id: a/b\n    quote: y\n");
      expect(() => loadTrace(file)).toThrow(/statements\[1\]: id a\/b appears twice/);
      writeFileSync(file, "statements:\n  - id: a/b\n");
      expect(() => loadTrace(file)).toThrow(/needs an id and a quote/);
      writeFileSync(file, "nothing: 1\n");
      expect(() => loadTrace(file)).toThrow(/"statements" list/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes the reference from the flag, else the variable, else the copy beside the repository", () => {
    expect(referencePath("a.md", {})).toMatch(/\/a\.md$/);
    expect(referencePath(undefined, { TALENT_GRAPH_REFERENCE: "b.md" })).toMatch(/\/b\.md$/);
    expect(referencePath(undefined, {})).toBe(existsSync(BESIDE_REFERENCE) ? BESIDE_REFERENCE : undefined);
  });
});

describe.skipIf(!existsSync(BESIDE_REFERENCE))(
  "the project's trace against the API reference beside the repository",
  () => {
    it("has every statement traced or informative, none untraced or outdated", () => {
      const { report } = runTrace({ reference: BESIDE_REFERENCE });
      expect(reportLines(report).filter((l) => l.startsWith("✘"))).toEqual([]);
      expect(report.totals.informative / report.totals.statements).toBeLessThan(0.1);
    });

    it("names a statement outdated when the reference changes a limit (a scratch copy: 400 -> 500)", () => {
      const dir = mkdtempSync(join(tmpdir(), "trace-reference-"));
      try {
        const copy = join(dir, "reference.md");
        const text = readFileSync(BESIDE_REFERENCE, "utf8");
        expect(text).toContain("| Target input | 1-400 chars before trimming |");
        writeFileSync(
          copy,
          text.replace(
            "| Target input | 1-400 chars before trimming |",
            "| Target input | 1-500 chars before trimming |",
          ),
        );
        const { report } = runTrace({ reference: copy });
        const outdated = report.statements.filter((s) => s.status === "outdated");
        expect(outdated.map((s) => [s.id, s.quote])).toEqual([
          ["limits/target-input-a0d4d7", "Target input | 1-400 chars before trimming"],
        ]);
        expect(report.statements.filter((s) => s.status === "untraced").map((s) => s.id)).toEqual([
          expect.stringMatching(/^limits\/target-input-/),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe("the review list", () => {
  const { report } = runTrace({});
  it("lists the statements whose spec elements a change touches (a scratch change to CreateTargetRequest.input)", () => {
    const head = structuredClone(bundle) as {
      components: { schemas: Record<string, { properties: Record<string, { maxLength: number }> }> };
    };
    head.components.schemas.CreateTargetRequest!.properties.input!.maxLength = 500;
    const items = statementsToReview(report, bundle, head);
    const ids = items.map((i) => i.statement.id);
    expect(ids).toContain("post-targets-create-target/input-b71439");
    expect(ids).toContain("limits/target-input-a0d4d7");
    // The statements that point at the whole request schema or operation are listed too; nothing else.
    expect(
      ids.every((id) => /^(post-targets-create-target|limits|target-job|errors|what-the-service-does)\//.test(id)),
    ).toBe(true);
    const summary = renderSummary(
      [{ name: "trace", status: "pass", ms: 0, note: "", section: reviewMarkdown(items) }],
      undefined,
      0,
    );
    expect(summary).toContain("### ✔ Trace");
    expect(summary).toContain(
      // The quote is escaped for Markdown (scripts/escape/markdown.ts): its `|` cannot split a table cell.
      "`post-targets-create-target/input-b71439`: “input \\| string \\| Required; 1-400 chars before trimming",
    );
    expect(statementsToReview(report, bundle, structuredClone(bundle))).toEqual([]);
  });
});

describe("the page", () => {
  it("lists statements by section with statuses, totals and links into the reference page", () => {
    const { report } = runTrace({});
    const html = renderTracePage(report, bundle as never);
    expect(html).toContain('<p id="totals">');
    expect(html).toMatch(/<h2>(Limits|limits)<\/h2>/);
    expect(html).toContain('href="index.html#operation/createTarget"');
    expect(html).not.toMatch(/<script|https?:\/\//);
  });
});

it("the trace file is the one the command reads by default", () => {
  expect(existsSync(join(REPO_ROOT, TRACE_FILE))).toBe(true);
});

it("the reference page's introduction links to the trace page once, before the first guide", async () => {
  const { withTraceLink } = await import("../docs/trace-page.js");
  const doc = { info: { description: "Intro.\n\n## Getting started\n\nText." } };
  const linked = withTraceLink(withTraceLink(doc));
  expect(linked.info.description.match(/\(trace\.html\)/g)).toHaveLength(1);
  expect(linked.info.description).toMatch(
    /^Intro\.\n\nEach statement .*\[the trace\]\(trace\.html\)\.\n\n## Getting started/,
  );
  expect(doc.info.description).not.toContain("trace.html");
});

describe("the command", () => {
  it("without a reference says so in one line, checks the entries and writes trace.json and the page", () => {
    const dir = mkdtempSync(join(tmpdir(), "trace-out-"));
    try {
      const run = spawnSync(
        process.execPath,
        [
          "--import",
          "./scripts/typescript-hooks.ts",
          "scripts/trace/cli.ts",
          "--no-reference",
          "--out",
          dir,
          "--page",
          join(dir, "trace.html"),
        ],
        { cwd: REPO_ROOT, encoding: "utf8" },
      );
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines[0]).toMatch(/^No API reference found .*not the quotes\.$/);
      expect(lines.at(-1)).toMatch(
        /^✔ trace: \d+ statements: \d+ traced, \d+ informative \([\d.]+%\), 0 untraced, 0 outdated$/,
      );
      const json = JSON.parse(readFileSync(join(dir, "trace.json"), "utf8"));
      expect(json.reference).toBe(false);
      expect(Object.keys(json.statements.find((s: { status: string }) => s.status === "traced")).sort()).toEqual([
        "checks",
        "id",
        "problems",
        "quote",
        "section",
        "spec",
        "status",
      ]);
      expect(existsSync(join(dir, "trace.html"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--add-missing appends an entry (id and a short quote) for each statement without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "trace-add-"));
    try {
      const file = join(dir, "trace.yaml");
      const [first] = splitReference(SAMPLE);
      writeFileSync(
        file,
        `statements:\n  - id: ${first!.id}\n    quote: Intro sentence one.\n    informative: a test\n`,
      );
      expect(addMissing(file, SAMPLE)).toBe(7);
      const entries = loadTrace(file);
      expect(entries.map((e) => e.id)).toEqual(splitReference(SAMPLE).map((s) => s.id));
      expect(entries[3]).toEqual({
        id: splitReference(SAMPLE)[3]!.id,
        quote: "Target input | 1-400 chars before trimming",
        spec: [],
        checks: [],
      });
      expect(addMissing(file, SAMPLE)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the gate's trace check", () => {
  it("passes on the project, says when it cannot compare with a base, and fails on an outdated entry", async () => {
    const { traceCheck } = await import("../gate/trace-check.js");
    const ok = await traceCheck(REPO_ROOT, { skip: "not a git repository" }, {});
    expect([ok.status, ok.markdown]).toEqual(["pass", "Statements to re-read: not compared (not a git repository)."]);
    expect(ok.note).toMatch(/0 untraced, 0 outdated \(no reference: quotes not checked\)$/);
    const dir = mkdtempSync(join(tmpdir(), "trace-gate-"));
    try {
      const copy = join(dir, "reference.md");
      writeFileSync(copy, SAMPLE);
      const failed = await traceCheck(REPO_ROOT, { skip: "x" }, { reference: copy });
      expect(failed.status).toBe("fail");
      expect(failed.output).toMatch(/✘ untraced introduction\/intro-sentence-one-[0-9a-f]{6}: no trace entry/);
      expect(failed.output).toMatch(
        /✘ outdated errors\/400-[0-9a-f]{6} .*: the statement is no longer in the reference/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
