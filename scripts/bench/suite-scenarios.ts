/**
 * The one-line changes the suite benchmark (suite.ts) makes in its scratch checkout before timing the gate, kept
 * apart from the benchmark so a test can check that each still applies to the tree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LineEdit {
  file: string;
  /** The whole line to replace; the file must have it. */
  from: string;
  to: string;
}

export const SCENARIO_EDITS = {
  spec: {
    file: "spec/components/schemas/Person.yaml",
    from: "    description: Profile headline.",
    to: "    description: Profile headline, as the person wrote it.",
  },
  // A change to code, not to a comment: the same behaviour written differently, so the gate must typecheck,
  // lint and test it as any code change.
  code: {
    file: "mocks/sandbox/stateful/members.ts",
    from: 'const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);',
    to: 'const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);',
  },
} as const satisfies Record<string, LineEdit>;

/** Replaces the first line equal to `edit.from` in `dir`/`edit.file`; throws when the file has no such line. */
export function editLine(dir: string, edit: LineEdit): void {
  const path = join(dir, edit.file);
  const lines = readFileSync(path, "utf8").split("\n");
  const at = lines.indexOf(edit.from);
  if (at < 0)
    throw new Error(
      `${edit.file} has no line "${edit.from}": update SCENARIO_EDITS in scripts/bench/suite-scenarios.ts`,
    );
  lines[at] = edit.to;
  writeFileSync(path, lines.join("\n"));
}
