/** The suite benchmark's one-line changes still apply to the tree, and change exactly one line. */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./harness.js";
import { SCENARIO_EDITS, editLine } from "./suite-scenarios.js";

const scratch = mkdtempSync(join(tmpdir(), "suite-scenarios-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("suite benchmark scenarios", () => {
  for (const [name, edit] of Object.entries(SCENARIO_EDITS)) {
    it(`${name}: ${edit.file} has the line, and the edit changes that line only`, () => {
      const copy = join(scratch, name, edit.file);
      cpSync(join(ROOT, edit.file), copy, { recursive: true });
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
    cpSync(join(ROOT, edit.file), join(scratch, "missing", edit.file), { recursive: true });
    expect(() => editLine(join(scratch, "missing"), edit)).toThrow(
      /Person\.yaml has no line ".*no such line": update SCENARIO_EDITS/,
    );
  });
});
