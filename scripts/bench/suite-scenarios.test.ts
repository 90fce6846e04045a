/**
 * The suite benchmark's one-line changes still apply to the committed tree, and change exactly one line. The
 * files come from HEAD, as the benchmark's scratch checkout does: the working tree may carry the edit itself
 * (the benchmark's gate runs this test there).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./harness.js";
import { SCENARIO_EDITS, editLine } from "./suite-scenarios.js";

const scratch = mkdtempSync(join(tmpdir(), "suite-scenarios-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes `file` as committed at HEAD under `dir`. */
function copyFromHead(file: string, dir: string): string {
  const copy = join(dir, file);
  mkdirSync(dirname(copy), { recursive: true });
  writeFileSync(copy, execFileSync("git", ["show", `HEAD:${file}`], { cwd: ROOT }));
  return copy;
}

describe("suite benchmark scenarios", () => {
  for (const [name, edit] of Object.entries(SCENARIO_EDITS)) {
    it(`${name}: ${edit.file} has the line, and the edit changes that line only`, () => {
      const copy = copyFromHead(edit.file, join(scratch, name));
      const before = readFileSync(copy, "utf8").split("\n");
      editLine(join(scratch, name), edit);
      const after = readFileSync(copy, "utf8").split("\n");
      expect(after.length).toBe(before.length);
      const changed = after.map((line, i) => (line === before[i] ? -1 : i)).filter((i) => i >= 0);
      expect(changed).toEqual([before.indexOf(edit.from)]);
      expect(after[changed[0]!]).toBe(edit.to);
    });
  }

  it("a line the file does not have is refused, naming the file and where to update it", () => {
    const edit = { ...SCENARIO_EDITS.spec, from: "    description: no such line" };
    copyFromHead(edit.file, join(scratch, "missing"));
    expect(() => editLine(join(scratch, "missing"), edit)).toThrow(
      /Person\.yaml has no line ".*no such line": update SCENARIO_EDITS/,
    );
  });
});
