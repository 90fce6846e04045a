// The cache folder's pruning: the most recently written files stay, and partial files a crash left go.
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pruneCacheFiles } from "./cache-files.js";

describe("pruneCacheFiles", () => {
  it("keeps the most recently written files only, and removes partial files a crash left", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tg-prune-"));
    try {
      const now = Date.now() / 1000;
      for (let i = 0; i < 5; i++) {
        writeFileSync(path.join(dir, `${i}.json`), "{}");
        utimesSync(path.join(dir, `${i}.json`), now - 100 + i, now - 100 + i);
      }
      writeFileSync(path.join(dir, "9.json.123.tmp"), "{");
      utimesSync(path.join(dir, "9.json.123.tmp"), now - 600, now - 600);
      writeFileSync(path.join(dir, "8.json.456.tmp"), "{");
      pruneCacheFiles(dir, 3);
      expect(readdirSync(dir).sort()).toEqual(["2.json", "3.json", "4.json", "8.json.456.tmp"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
