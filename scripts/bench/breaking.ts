/**
 * The breaking-change detector's floor: the project's bundle against itself with one change (a minLength raised
 * inside a component) in <= 1 s, rules and safety net together, in-process (it is a pure function).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { detectChanges } from "../breaking/breaking.js";
import { ROOT, alternate, floorLine, summarize } from "./harness.js";

export async function breakingFloors(rounds: number): Promise<string[]> {
  type Doc = { components: { schemas: Record<string, Record<string, unknown>> } };
  const base = JSON.parse(readFileSync(path.join(ROOT, "generated", "openapi.json"), "utf8")) as Doc;
  const head = structuredClone(base);
  const [name, schema] = Object.entries(head.components.schemas)[0]!;
  schema.minLength = 3;
  const figures = await alternate(Math.max(rounds, 5), {
    edit: async () => {
      const started = performance.now();
      const changes = detectChanges(base, head);
      const ms = performance.now() - started;
      if (changes.length === 0) throw new Error(`no change reported for ${name}.minLength`);
      return { ms };
    },
  });
  return [
    floorLine({
      name: "breaking: the project's bundle against itself with one change <= 1 s",
      value: summarize(figures.edit.ms ?? []),
      unit: "ms",
      compare: "<=",
      target: 1000,
    }),
  ];
}
