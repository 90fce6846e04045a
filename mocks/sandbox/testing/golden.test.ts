/**
 * The read side answers exactly as pinned in testing/golden-reads.json (default generated graph): status
 * and body bytes (SHA-256) of every request of testing/golden-queries.ts. Optimizations must not change
 * an answer; a deliberate behaviour change regenerates the file (see testing/golden.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goldenAnswer, readGolden, type GoldenEntry } from "./golden.js";
import { goldenPaths } from "./golden-queries.js";
import { openFastifySandbox as openSandbox, type FastifyTestSandbox as TestSandbox } from "./harness.js";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await openSandbox();
}, 60_000);
afterAll(async () => {
  await sb?.close();
});

const golden = readGolden();
const answer = (path: string) => goldenAnswer(sb.app, sb.ctx.spec.basePath, path);

describe("read-side golden answers (default graph)", () => {
  it("the golden file covers the whole request set, in order", () => {
    expect(golden.map((e) => e.path)).toEqual(goldenPaths());
    expect(golden.length).toBeGreaterThan(700);
  });

  it("every answer is byte-identical to the golden file", async () => {
    const diffs: { expected: GoldenEntry; actual: GoldenEntry }[] = [];
    for (const expected of golden) {
      const actual = await answer(expected.path);
      if (actual.sha256 !== expected.sha256 || actual.status !== expected.status || actual.type !== expected.type)
        diffs.push({ expected, actual });
    }
    expect(diffs.slice(0, 5)).toEqual([]);
  }, 120_000);

  it("a negative control: a changed answer is detected", async () => {
    const entry = golden.find((e) => e.path === "/people?company=northwind&limit=100")!;
    const other = await answer("/people?company=northwind&limit=99");
    expect(other.sha256).not.toBe(entry.sha256);
    expect((await answer(entry.path)).sha256).toBe(entry.sha256);
  });
});
