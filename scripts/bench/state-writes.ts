/**
 * Writes per second of the sandbox with and without its state file (SQLite, one synced commit per write):
 * POST /v1/lists through the core (no HTTP), 10 in flight, in alternating rounds; prints the median with
 * min and max of each; part of `npm run bench -- sandbox`, or alone: `npm run ts -- scripts/bench/state-writes.ts [rounds]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SPEC_PATH, loadSpec } from "../../contract-core/index.js";
import { KEYS } from "../../mocks/sandbox/contract/auth.js";
import { createSandboxCore } from "../../mocks/sandbox/core/core.js";
import { nodeStateStorage } from "../../mocks/sandbox/hosts/node/node-state-storage.js";
import { formatSummary, summarize } from "./harness.js";

const WRITES = 500;

async function round(dir: string, withFile: boolean, n: number, writes = WRITES): Promise<number> {
  const spec = loadSpec(DEFAULT_SPEC_PATH);
  const storage = withFile ? nodeStateStorage(join(dir, `state-${n}.db`)) : null;
  const core = createSandboxCore({
    spec,
    storage,
    people: 200,
    companies: 20,
    rateLimit: false,
    jobSpeed: 0,
    timers: false,
  });
  const headers = { authorization: `Bearer ${KEYS[0]!.key}`, "content-type": "application/json" };
  try {
    // One write first, so validator compilation is not counted.
    await core.handle({ method: "POST", url: "/v1/lists", headers, body: JSON.stringify({ name: "warm-up" }) });
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < writes) {
          const i = next++;
          const res = await core.handle({
            method: "POST",
            url: "/v1/lists",
            headers,
            body: JSON.stringify({ name: `w${i}` }),
          });
          if (res.status !== 201) throw new Error(`POST /v1/lists answered ${res.status}: ${res.body}`);
        }
      }),
    );
    return writes / ((performance.now() - t0) / 1000);
  } finally {
    core.close();
  }
}

/** The write figures' lines: writes per second without and with the state file, median of alternating rounds. */
export async function writeFigures(rounds: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "state-writes-"));
  const figures: Record<string, number[]> = { "memory only": [], "state file (SQLite)": [] };
  try {
    for (let r = 0; r < rounds; r++) {
      figures["memory only"]!.push(await round(dir, false, r));
      figures["state file (SQLite)"]!.push(await round(dir, true, r));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.entries(figures).map(
    ([name, values]) =>
      `sandbox writes per second, ${name} (POST /v1/lists through the core, 10 in flight): ` +
      formatSummary(summarize(values), "writes/s"),
  );
}

// Run alone: `npm run ts -- scripts/bench/state-writes.ts [rounds]` (the write figures only).
if (import.meta.main) for (const line of await writeFigures(Number(process.argv[2] ?? 3))) console.log(line);
