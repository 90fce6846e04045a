// The size of one enrichment run (the reference's limits table), observable as how far enriched_count moves.
import { describe, expect, it } from "vitest";
import { enrichmentBatch } from "./jobs.js";
import type { TargetRecord } from "./records.js";

/** A Target with `n` watching members not yet enriched (and one excluded, one enriched), only what the batch reads. */
function targetWith(n: number): TargetRecord {
  const members = new Map<string, unknown>();
  for (let i = 0; i < n; i++) members.set(`m${i}`, { status: "watching", enriched_at: null });
  members.set("excluded", { status: "excluded", enriched_at: null });
  members.set("done", { status: "watching", enriched_at: "2026-11-01T00:00:00Z" });
  return { members } as unknown as TargetRecord;
}

describe("enrichment runs", () => {
  it("an enrichment run takes up to 2000 unenriched watching members, or up to 500 on a refresh", () => {
    const big = targetWith(2100);
    expect(enrichmentBatch(big, "track_people")).toHaveLength(2000);
    expect(enrichmentBatch(big, "track_company")).toHaveLength(2000);
    expect(enrichmentBatch(big, "refresh_watch")).toHaveLength(500);
    const small = targetWith(3);
    expect(enrichmentBatch(small, "refresh_watch")).toHaveLength(3);
    expect(enrichmentBatch(small, "track_people").every((m) => m.status === "watching" && m.enriched_at === null)).toBe(
      true,
    );
  });
});
