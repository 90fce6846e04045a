/**
 * A long-running event poller, the shape an integration copies: the checkpoint is kept in a file
 * and written only after a pass and its downstream work succeeded; Ctrl-C stops it cleanly.
 *
 *   npm run ts -- examples/poll-events.ts    # against `npm run mock`; POLL_INTERVAL_MS (default 60000),
 *                                      # CHECKPOINT_FILE (default <os temp dir>/talent-graph-events-checkpoint;
 *                                      # point it at durable storage in a real integration)
 */
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTalentGraphClient, pollEvents, type TalentGraphEvent } from "../client/index.js";

const baseUrl = process.env.TALENT_GRAPH_BASE_URL ?? "http://127.0.0.1:4010/v1";
const client = createTalentGraphClient({ baseUrl, apiKey: process.env.TALENT_GRAPH_API_KEY ?? "mock-key" });

// The temp dir, not the working directory: running the example must not leave files in a checkout.
const checkpointFile = process.env.CHECKPOINT_FILE ?? path.join(os.tmpdir(), "talent-graph-events-checkpoint");
console.log(`checkpoint file: ${checkpointFile}`);
const saved = await readFile(checkpointFile, "utf8").then(
  (text) => text.trim(),
  () => "",
);

/** Your downstream write (database, queue, ...). A throw fails the pass; it is retried next time. */
async function handle(events: TalentGraphEvent[]): Promise<void> {
  for (const event of events) console.log(`${event.seen_at} ${event.severity} ${event.field}: ${event.label}`);
}

const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());

const last = await pollEvents(client, {
  intervalMs: Number(process.env.POLL_INTERVAL_MS ?? 60_000),
  signal: stop.signal,
  // First run: start one day back. Afterwards: the stored pass start time (minus 5 minutes overlap).
  checkpoint: saved || new Date(Date.now() - 24 * 60 * 60 * 1000),
  onEvents: handle,
  onCheckpoint: async (checkpoint, pass) => {
    await writeFile(checkpointFile, checkpoint);
    console.log(`pass done: ${pass.delivered} new, ${pass.duplicates} repeated; checkpoint ${checkpoint}`);
  },
  onError: (error) => console.error(`pass failed, retrying from the last checkpoint: ${String(error)}`),
});
console.log(`stopped; last checkpoint ${last}`);
