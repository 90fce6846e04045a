/**
 * The Node host's state storage for --state-file <path>: the snapshot in <path> and an append-only journal
 * in <path>.journal, one JSON record per line, fsynced before the core answers the write it records (the
 * model of Redis's AOF with `appendfsync always`). At start and shutdown the core compacts the journal into
 * a new snapshot, written atomically (temporary file, fsync, rename). Both files are created with mode 0600:
 * they hold stored webhook secrets.
 *
 * A crash can tear only the last journal record (it has no final newline yet): read() skips it with a
 * warning. Everything else is parsed by the core, which refuses a damaged file without rewriting it.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import type { StateStorage, StoredState } from "./context.js";

const PRIVATE = 0o600;

export function journalPath(path: string): string {
  return `${path}.journal`;
}

export function nodeStateStorage(path: string): StateStorage {
  const journal = journalPath(path);
  let handle: Promise<FileHandle> | null = null;
  // Appends run one after another, in the order the writes were made.
  let queue: Promise<void> = Promise.resolve();

  function read(): StoredState {
    const snapshot = existsSync(path) ? readFileSync(path, "utf8") : null;
    if (!existsSync(journal)) return { snapshot, journal: [], warnings: [] };
    const text = readFileSync(journal, "utf8");
    const lines = text.split("\n");
    const torn = lines.pop() ?? "";
    const warnings =
      torn === ""
        ? []
        : [
            `skipped the torn last record of ${journal} (line ${lines.length + 1}, ${torn.length} bytes): it was being written when the sandbox stopped, and was never acknowledged`,
          ];
    return {
      snapshot,
      journal: lines.map((line, i) => ({ text: line, where: `line ${i + 1} of ${journal}` })),
      warnings,
    };
  }

  function append(record: string): Promise<void> {
    const next = queue.then(async () => {
      handle ??= open(journal, "a", PRIVATE);
      const file = await handle;
      await file.appendFile(`${record}\n`);
      await file.datasync();
    });
    // A failed append fails its own write; the next one still runs.
    queue = next.catch(() => undefined);
    return next;
  }

  function compact(snapshot: string): void {
    const tmp = `${path}.${process.pid}.tmp`;
    writeDurably(tmp, snapshot);
    renameSync(tmp, path);
    // The journal's records are in the snapshot now: empty it (a new, empty file; the open handle is dropped).
    void closeHandle();
    writeDurably(journal, "");
  }

  async function closeHandle(): Promise<void> {
    const h = handle;
    handle = null;
    if (h) await (await h).close().catch(() => undefined);
  }

  return { location: path, read, append, compact };
}

function writeDurably(file: string, text: string): void {
  const fd = openSync(file, "w", PRIVATE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
