// Prove mode: the mutations derived from spec pointers, the verdicts with a stand-in runner, the gate's touched
// entries. (The real runner, Vitest in this process, is what `npm run trace -- --prove` uses.)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, loadSpec } from "../../contract-core/index.js";
import { touchedEntries } from "../gate/trace-check.js";
import { proofLines, selectEntries } from "./cli.js";
import { mutationsFor } from "./mutations.js";
import { newlyUnproven, proveEntries, shardOf, type CheckRunner } from "./prove.js";
import { atPointer, loadTrace, TRACE_FILE, type TraceEntry } from "./trace.js";

const bundle = loadSpec(DEFAULT_SPEC_PATH);
const applied = (pointer: string, kind: string) => {
  const m = mutationsFor(bundle, pointer).find((x) => x.kind === kind);
  if (!m) throw new Error(`no ${kind} mutation for ${pointer}`);
  const copy = structuredClone(bundle);
  m.apply(copy);
  return { m, copy };
};

describe("mutations", () => {
  it("drop a required key, from the holder of a property first", () => {
    const [first] = mutationsFor(bundle, "/components/schemas/Person/properties/match");
    expect(first?.description).toBe("required key dropped: match at /components/schemas/Person");
    const copy = structuredClone(bundle);
    first!.apply(copy);
    expect(atPointer(copy, "/components/schemas/Person/required")).not.toContain("match");
    expect(atPointer(bundle, "/components/schemas/Person/required")).toContain("match");
  });

  it("widen a type, move a bound, remove an enum value, loosen a pattern, move a term-list limit", () => {
    const widened = applied("/components/schemas/Match/properties/overlap_months", "type-widened");
    expect(
      (atPointer(widened.copy, "/components/schemas/Match/properties/overlap_months") as { type: unknown }).type,
    ).toContain("string");
    const skills = "/paths/~1people/get/parameters/query:skills";
    const limit = applied(skills, "term-limit-moved");
    expect(limit.m.description).toMatch(/x-term-list maxTerms 8 -> 17/);
    expect(applied("/paths/~1people/get/parameters/query:limit", "bound-moved").m.description).toMatch(
      /maximum 100 -> 201/,
    );
    expect(applied("/paths/~1people/get/parameters/query:view", "enum-value-removed").m.description).toMatch(
      /enum value/,
    );
    expect(applied("/components/schemas/CreateListRequest/properties/name", "pattern-loosened").m.kind).toBe(
      "pattern-loosened",
    );
  });

  it("remove an operation or a response; nothing for a pointer that does not resolve", () => {
    const op = applied("/paths/~1targets/post", "operation-removed");
    expect(atPointer(op.copy, "/paths/~1targets/post")).toBeUndefined();
    expect(atPointer(op.copy, "/paths/~1targets/get")).toBeDefined();
    const res = applied("/paths/~1targets/post/responses/202", "response-removed");
    expect(atPointer(res.copy, "/paths/~1targets/post/responses/202")).toBeUndefined();
    expect(mutationsFor(bundle, "/components/schemas/Nope")).toEqual([]);
  });
});

const entry = (id: string, extra: Partial<TraceEntry> = {}): TraceEntry => ({
  id,
  quote: "q",
  spec: ["/components/schemas/Match/properties/overlap_months"],
  checks: ["spec/tests/x.test.ts > a title"],
  ...extra,
});

describe("proveEntries", () => {
  it("proven when every mutation and the fault fail a check; unproven with the survivor otherwise", async () => {
    const seen: { bundle?: string; fault?: string }[] = [];
    // Fails only when the mutant's overlap_months is no longer an integer, or under the fault.
    const run: CheckRunner = async ({ bundle: file, fault }) => {
      seen.push({ bundle: file, fault });
      if (fault) return { ran: 1, failed: ["x > under the fault"] };
      const doc = JSON.parse(readFileSync(file!, "utf8"));
      const type = atPointer(doc, "/components/schemas/Match/properties/overlap_months/type");
      return { ran: 1, failed: Array.isArray(type) ? ["x > pins the type"] : [] };
    };
    const report = await proveEntries({
      bundle,
      run,
      entries: [
        entry("a/typed", {
          spec: ["/components/schemas/Match/properties/overlap_months"],
          fault: "exploring-since-null",
        }),
        entry("b/bound", { spec: ["/paths/~1people/get/parameters/query:limit"] }),
        entry("c/known", { spec: ["/paths/~1people/get/parameters/query:limit"], unproven: "a reviewed gap" }),
        entry("d/no-test", { checks: ["lint:some-rule"] }),
        entry("e/informative", { informative: "why" }),
      ],
    });
    const byId = Object.fromEntries(report.entries.map((p) => [p.id, p]));
    expect(byId["a/typed"]?.status).toBe("proven");
    expect(seen.some((s) => s.fault === "exploring-since-null")).toBe(true);
    expect(byId["b/bound"]).toMatchObject({
      status: "unproven",
      problems: expect.arrayContaining([expect.stringMatching(/^survives: maximum 100 -> 201/)]),
    });
    expect(byId["c/known"]).toMatchObject({ status: "unproven", acknowledged: "a reviewed gap" });
    expect(byId["d/no-test"]?.problems).toEqual(["no test check: prove runs only `<file> > <title>` checks"]);
    expect(byId["e/informative"]).toBeUndefined();
    expect(newlyUnproven(report).map((p) => p.id)).toEqual(["b/bound", "d/no-test"]);
    // b and c share their mutations and checks: one run each.
    expect(report.totals.runs).toBeLessThan(report.totals.mutations);
    const lines = proofLines(report);
    expect(lines.at(-1)).toMatch(/^✘ prove: 4 entries: 1 proven, 3 unproven \(1 known\)/);
    expect(lines).toContainEqual(expect.stringMatching(/^! unproven c\/known: .*\(known: a reviewed gap\)$/));
  });

  it("a check that ran no test does not prove", async () => {
    const report = await proveEntries({ bundle, entries: [entry("a/x")], run: async () => ({ ran: 0, failed: [] }) });
    expect(report.entries[0]?.problems[0]).toMatch(/^no named test ran under/);
  });
});

describe("selection", () => {
  const list = ["a/1", "a/2", "b/1", "c/1"].map((id) => entry(id));
  it("--only takes ids and prefixes, --shard i/n a slice", () => {
    expect(selectEntries(list, "a/, c/1").map((e) => e.id)).toEqual(["a/1", "a/2", "c/1"]);
    expect(shardOf(list, "2/2").map((e) => e.id)).toEqual(["a/2", "c/1"]);
    expect(() => shardOf(list, "3/2")).toThrow(/--shard must be i\/n/);
  });

  it("the gate proves the entries that are new or changed, and those whose spec elements changed", () => {
    const dir = mkdtempSync(join(tmpdir(), "trace-touched-"));
    try {
      const base = join(dir, "trace.yaml");
      writeFileSync(
        base,
        `statements:\n${list
          .slice(0, 3)
          .map((e) => `  - ${JSON.stringify(e)}`)
          .join("\n")}\n`,
      );
      const head = [list[0]!, { ...list[1]!, checks: ["spec/tests/y.test.ts > another"] }, list[2]!, list[3]!];
      expect(loadTrace(base)).toHaveLength(3);
      expect(touchedEntries(head, loadTrace(base), new Set(["b/1"])).map((e) => e.id)).toEqual(["a/2", "b/1", "c/1"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("informative entries", () => {
  /** The sandbox's source (not its tests): where an implemented limit would be written as a number. */
  const sandboxSource = readdirSync(join(REPO_ROOT, "mocks/sandbox"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(f) && !f.startsWith("testing"))
    .map((f) => readFileSync(join(REPO_ROOT, "mocks/sandbox", f), "utf8"))
    .join("\n");
  const constants = new Set(
    [...sandboxSource.matchAll(/^(?:export )?const [A-Z_]+ = ([\d_]+);/gm)].map((m) =>
      Number(m[1]!.replaceAll("_", "")),
    ),
  );

  it("state nothing the sandbox implements: no number of an informative statement is a constant of the sandbox", () => {
    const informative = loadTrace(join(REPO_ROOT, TRACE_FILE)).filter((e) => e.informative);
    const implemented = informative.flatMap((e) =>
      [...e.quote.matchAll(/\b\d{2,}\b/g)].filter((m) => constants.has(Number(m[0]))).map((m) => `${e.id}: ${m[0]}`),
    );
    // Reviewed coincidences: the same number, another thing.
    const unrelated: Record<string, string> = {
      "limits/discovery-time-9e8867: 24":
        "RECENT_CHANGE_MONTHS (24 months of profile changes), not 24 hours of discovery",
    };
    expect(implemented.filter((found) => !unrelated[found])).toEqual([]);
    expect(constants.size).toBeGreaterThan(3);
  });
});
