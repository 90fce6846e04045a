/**
 * The committed example recordings are what the spec gives now: one per operation, status and example. A new
 * operation, status or example without its recording (or a recording the spec no longer has) fails here, and
 * the message says how to write them: `npm run generate` rewrites the folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpec, REPO_ROOT } from "../contract-core/index.js";
import { generateRecordings, RECORDINGS_DIR } from "./generate-recordings.js";

const STALE = `stale ${RECORDINGS_DIR}: run \`npm run generate\` (it rewrites the folder from the spec) and commit it`;

function committed(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else out.set(relative(dir, join(d, e.name)), readFileSync(join(d, e.name), "utf8"));
  };
  walk(dir);
  return out;
}

describe("the example recordings", () => {
  it("are exactly the spec's, as npm run generate writes them", () => {
    const fresh = generateRecordings(loadSpec());
    const onDisk = committed(join(REPO_ROOT, RECORDINGS_DIR));
    expect([...onDisk.keys()].sort(), STALE).toEqual(fresh.map((r) => r.path).sort());
    const differing = fresh.filter((r) => onDisk.get(r.path) !== `${JSON.stringify(r.exchange, null, 2)}\n`);
    expect(
      differing.map((r) => r.path),
      STALE,
    ).toEqual([]);
  });
});
