/**
 * Files of a cache folder (the sandbox's start-up snapshots): each written whole through a
 * partial file beside it, renamed into place, so a reader sees the old file or the new one, never part of one;
 * the folder pruned to its most recently written files.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Where a writer of `file` puts its content until it is whole (one per process; pruning knows the suffix). */
export function partialFileOf(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

/** Writes `text` to `file` whole (its folder made first). */
export function writeFileWhole(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = partialFileOf(file);
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/**
 * Deletes all but the `keep` most recently written files of a cache folder, and the partial files
 * older than `partialAgeMs` (left by a crash: a writer renames its partial file within that time).
 */
export function pruneCacheFiles(dir: string, keep: number, partialAgeMs = 60_000): void {
  const entries = readdirSync(dir).map((name) => {
    const file = path.join(dir, name);
    return { file, partial: name.endsWith(".tmp"), mtime: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
  });
  const old = Date.now() - partialAgeMs;
  const done = entries.filter((e) => !e.partial).sort((a, b) => b.mtime - a.mtime);
  for (const e of [...done.slice(keep), ...entries.filter((p) => p.partial && p.mtime < old)])
    rmSync(e.file, { force: true });
}
