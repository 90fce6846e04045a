/**
 * The Node host's state storage for --state-file <path> (README.md, State file and reset): a SQLite database
 * (node:sqlite, no dependency) with SQLite's own crash safety. Each acknowledged write is one transaction
 * committed with synchronous=FULL before the core answers, in WAL mode (one synced append per commit). The
 * connection holds an exclusive lock on the file while the sandbox runs; `<path>.lock` names the holder.
 * Every row also records the id sequence at its write, so a sequence that went back (damage) is refused
 * instead of handing out an id twice. A file the sandbox cannot use stops the start with a message naming
 * it and what to do, and is left as it was; files created here are private (0600: they hold webhook secrets).
 */
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import type { DatabaseSync } from "node:sqlite";
import type { StateChange, StateStorage, StoredState } from "../../contract/context.js";
import type { SavedOrg } from "../../contract/state.js";
import { ID_SEQUENCE, StateFileError } from "../../areas/stored-state.js";

/**
 * node:sqlite, loaded when a state file is opened (a sandbox without --state-file never loads it). Node 22 and
 * 24 print "ExperimentalWarning: SQLite is an experimental feature" when it loads, which no user of
 * --state-file can act on: that one warning is dropped; every other warning is printed as usual.
 */
export function sqlite(): typeof import("node:sqlite") {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (!text.startsWith("SQLite is an experimental feature")) Reflect.apply(emit, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
}

const PRIVATE = 0o600;
/** The stored format: 1 was the JSON snapshot and journal of earlier versions. */
const FORMAT = 2;
const SQLITE_MAGIC = "SQLite format 3\0";
/** Items of an array slice are rows at positions 0..n-1; a slice that is one value is one row at this position. */
const WHOLE = -1;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
CREATE TABLE orgs (id TEXT PRIMARY KEY, info TEXT NOT NULL CHECK (json_valid(info)), ids INTEGER NOT NULL) STRICT;
CREATE TABLE records (
  org_id TEXT NOT NULL, kind TEXT NOT NULL, position INTEGER NOT NULL,
  data TEXT NOT NULL CHECK (json_valid(data)), ids INTEGER NOT NULL,
  PRIMARY KEY (org_id, kind, position)
) STRICT;
CREATE TABLE shared (name TEXT PRIMARY KEY, data TEXT NOT NULL CHECK (json_valid(data)), ids INTEGER NOT NULL) STRICT;
`;

const MOVE_AWAY = "move it away to start with an empty sandbox (or restore it from a backup)";

type FileKind = "missing" | "empty" | "sqlite" | "json";

export function lockPath(path: string): string {
  return `${path}.lock`;
}

export function nodeStateStorage(path: string): StateStorage {
  let db: DatabaseSync | null = null;
  /** The JSON of each shared item as last committed: unchanged items (events) are not written again. */
  let committedShared = new Map<string, string>();
  /** Each organization's rows as last committed (by `kind\0position`), once this process wrote it. */
  let committedRows = new Map<string, Map<string, string>>();
  /** A JSON state file read for migration: the first write converts it. */
  let migrateFrom: string | null = null;

  const fail = (problem: string, advice?: string) => new StateFileError(path, problem, advice);

  function load(): StoredState | null {
    if (db) return readAll(db, path);
    const kind = inspect(path);
    if (kind === "json") {
      migrateFrom = path;
      return { ...readJsonState(path), rewrite: true, warnings: [] };
    }
    const warnings: string[] = [];
    if (kind === "missing") createPrivate(path);
    else warnings.push(...tightenMode(path));
    const opened = lock(path);
    try {
      if (kind === "missing" || kind === "empty") {
        opened.exec(SCHEMA);
        opened.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), (?, 0)").run(FORMAT, ID_SEQUENCE);
        opened.exec("COMMIT");
        finishOpen(opened);
        db = opened;
        return null;
      }
      checkIntact(opened, path);
      const stored = readAll(opened, path);
      opened.exec("COMMIT");
      finishOpen(opened);
      db = opened;
      committedShared = new Map(Object.entries(stored.shared).map(([k, v]) => [k, JSON.stringify(v)]));
      return { ...stored, warnings };
    } catch (error) {
      opened.close();
      throw error;
    }
  }

  function write(change: StateChange): void {
    if (migrateFrom !== null) migrate();
    if (!db) throw new Error(`the state file ${path} is not open (load() first)`);
    const ids = change.shared[ID_SEQUENCE];
    if (typeof ids !== "number") throw new Error(`a change without the id sequence ("${ID_SEQUENCE}")`);
    const pending = new Map<string, string>();
    const pendingRows = new Map(committedRows);
    db.exec("BEGIN IMMEDIATE");
    try {
      db.prepare("UPDATE meta SET value = ? WHERE key = ?").run(ids, ID_SEQUENCE);
      const putOrg = db.prepare("INSERT OR REPLACE INTO orgs (id, info, ids) VALUES (?, ?, ?)");
      const dropRecords = db.prepare("DELETE FROM records WHERE org_id = ?");
      const putRecord = db.prepare(
        "INSERT OR REPLACE INTO records (org_id, kind, position, data, ids) VALUES (?, ?, ?, ?, ?)",
      );
      const dropRecord = db.prepare("DELETE FROM records WHERE org_id = ? AND kind = ? AND position = ?");
      if (change.all) {
        // The whole state: organizations it does not hold are gone (reset).
        const kept = new Set(change.orgs.map((o) => o.info.id));
        const dropOrg = db.prepare("DELETE FROM orgs WHERE id = ?");
        for (const { id } of db.prepare("SELECT id FROM orgs").all() as { id: string }[]) {
          if (kept.has(id)) continue;
          dropOrg.run(id);
          dropRecords.run(id);
          pendingRows.delete(id);
        }
      }
      for (const org of change.orgs) {
        const id = org.info.id;
        putOrg.run(id, JSON.stringify(org.info), ids);
        // Only the rows that changed are written: a write to one List rewrites that List's row.
        const before = committedRows.get(id);
        if (!before) dropRecords.run(id);
        const rows = new Map<string, string>();
        for (const [kind, value] of Object.entries(org.slices)) {
          const items: [number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : [[WHOLE, value]];
          for (const [position, item] of items) {
            const key = `${kind}\0${position}`;
            const text = JSON.stringify(item);
            rows.set(key, text);
            if (before?.get(key) !== text) putRecord.run(id, kind, position, text, ids);
          }
        }
        for (const key of before?.keys() ?? []) {
          if (rows.has(key)) continue;
          const [kind, position] = key.split("\0") as [string, string];
          dropRecord.run(id, kind, Number(position));
        }
        pendingRows.set(id, rows);
      }
      const putShared = db.prepare("INSERT OR REPLACE INTO shared (name, data, ids) VALUES (?, ?, ?)");
      for (const [name, value] of Object.entries(change.shared)) {
        if (name === ID_SEQUENCE) continue;
        const text = JSON.stringify(value);
        pending.set(name, text);
        if (committedShared.get(name) !== text) putShared.run(name, text, ids);
      }
      const dropShared = db.prepare("DELETE FROM shared WHERE name = ?");
      for (const name of committedShared.keys()) if (!pending.has(name)) dropShared.run(name);
      db.exec("COMMIT");
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
    committedShared = pending;
    committedRows = pendingRows;
  }

  /** The JSON file becomes <path>.v1.json; a new database takes its place and receives the state. */
  function migrate(): void {
    const backup = `${path}.v1.json`;
    if (existsSync(backup)) throw fail(`${backup} exists already`, `move ${backup} away, then start again`);
    renameSync(path, backup);
    try {
      createPrivate(path);
      const opened = lock(path);
      opened.exec(SCHEMA);
      opened.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), (?, 0)").run(FORMAT, ID_SEQUENCE);
      opened.exec("COMMIT");
      finishOpen(opened);
      db = opened;
      migrateFrom = null;
    } catch (error) {
      db?.close();
      db = null;
      if (existsSync(path)) unlinkSync(path);
      renameSync(backup, path);
      throw error;
    }
  }

  function close(): void {
    if (!db) return;
    db.close();
    db = null;
    try {
      unlinkSync(lockPath(path));
    } catch {
      // Gone already: nothing to release.
    }
  }

  return { location: path, load, write, close };

  /** Opens the file and takes the exclusive lock, inside a transaction the caller commits (or drops by closing). */
  function lock(file: string): DatabaseSync {
    let opened: DatabaseSync;
    try {
      opened = new (sqlite().DatabaseSync)(file);
    } catch (error) {
      throw fail(`SQLite cannot open it (${(error as Error).message})`, MOVE_AWAY);
    }
    try {
      opened.exec("PRAGMA locking_mode = EXCLUSIVE");
      opened.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      opened.close();
      const message = (error as Error).message;
      if (/locked|busy/i.test(message)) {
        throw fail(
          `another sandbox is using it (${holder(file)})`,
          "stop that sandbox first, or give this one another --state-file",
        );
      }
      throw fail(`it is not a usable SQLite database (${message})`, MOVE_AWAY);
    }
    return opened;
  }

  /** Journal mode and durability, once the file is known good (WAL mode is written into the file's header). */
  function finishOpen(opened: DatabaseSync): void {
    opened.exec("PRAGMA journal_mode = WAL");
    opened.exec("PRAGMA synchronous = FULL");
    writeLockFile(lockPath(path));
  }
}

/** What is at `path`; a symlink, a directory or an unreadable file is refused by name, and so are its companions. */
function inspect(path: string): FileKind {
  for (const companion of [`${path}-wal`, lockPath(path)]) {
    let stat;
    try {
      stat = lstatSync(companion);
    } catch {
      continue;
    }
    if (!stat.isFile())
      throw new StateFileError(companion, "it is not a regular file (a symbolic link or a directory)", "remove it");
  }
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new StateFileError(
      path,
      `it cannot be examined (${(error as Error).message})`,
      "choose another --state-file",
    );
  }
  if (stat.isSymbolicLink())
    throw new StateFileError(path, "it is a symbolic link", "give --state-file the path of the file itself");
  if (stat.isDirectory())
    throw new StateFileError(path, "it is a directory", "give --state-file a file's path (it is created if missing)");
  if (!stat.isFile()) throw new StateFileError(path, "it is not a regular file", "choose another --state-file");
  if (stat.size === 0) return "empty";
  const head = Buffer.alloc(16);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateFileError(
      path,
      code === "EACCES" || code === "EPERM"
        ? "the sandbox may not read it (permission denied)"
        : `it cannot be read (${code})`,
      "give the user running the sandbox read and write access to it (chmod 600), or choose another --state-file",
    );
  }
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.toString("latin1");
  if (text === SQLITE_MAGIC) return "sqlite";
  if (/^\s*\{/.test(text)) return "json";
  const what = head.every((b) => b === 0) ? "its first bytes are zeros" : "it does not start with SQLite's header";
  throw new StateFileError(path, `it is not a SQLite database (${what}): it is damaged or not a state file`, MOVE_AWAY);
}

/** SQLite's own check of the file's structure: a truncated or overwritten file is refused here. */
function checkIntact(db: DatabaseSync, path: string): void {
  let problem: string;
  try {
    const rows = db.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
    if (rows.length === 1 && rows[0]!.quick_check === "ok") return;
    problem = rows
      .map((r) => r.quick_check)
      .slice(0, 3)
      .join("; ");
  } catch (error) {
    problem = (error as Error).message;
  }
  throw new StateFileError(path, `SQLite finds it damaged (${problem})`, MOVE_AWAY);
}

/** Every stored row, as the core's stored state; refuses a file whose id sequence is behind its rows. */
function readAll(db: DatabaseSync, path: string): StoredState {
  const fail = (problem: string) => new StateFileError(path, problem, MOVE_AWAY);
  let meta: Map<string, unknown>;
  try {
    meta = new Map(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: unknown }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
  } catch (error) {
    throw fail(`it is not a sandbox state file (${(error as Error).message})`);
  }
  const format = meta.get("format");
  if (format !== FORMAT) throw fail(`it is in format ${String(format)}, and this sandbox reads format ${FORMAT} only`);
  const ids = meta.get(ID_SEQUENCE);
  if (typeof ids !== "number" || !Number.isSafeInteger(ids) || ids < 0)
    throw fail("its id sequence is missing or invalid");
  const behind = db
    .prepare(
      "SELECT max(ids) AS ids FROM (SELECT ids FROM orgs UNION ALL SELECT ids FROM records UNION ALL SELECT ids FROM shared)",
    )
    .get() as { ids: number | null };
  if (behind.ids !== null && behind.ids > ids)
    throw fail(
      `its id sequence (${ids}) is behind the rows written after id ${behind.ids}: new resources would take existing ids`,
    );
  const parse = (text: string, where: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw fail(`${where} is not JSON`);
    }
  };
  const orgs = new Map<string, SavedOrg>();
  for (const row of db.prepare("SELECT id, info FROM orgs ORDER BY rowid").all() as { id: string; info: string }[])
    orgs.set(row.id, { info: parse(row.info, `organization ${row.id}`) as SavedOrg["info"], slices: {} });
  const records = db
    .prepare("SELECT org_id, kind, position, data FROM records ORDER BY org_id, kind, position")
    .all() as { org_id: string; kind: string; position: number; data: string }[];
  for (const row of records) {
    const org = orgs.get(row.org_id);
    if (!org) throw fail(`it holds ${row.kind} of organization ${row.org_id}, which it does not hold`);
    const value = parse(row.data, `${row.kind} ${row.position} of organization ${row.org_id}`);
    if (row.position === WHOLE) org.slices[row.kind] = value;
    else ((org.slices[row.kind] ??= []) as unknown[]).push(value);
  }
  const shared: Record<string, unknown> = { [ID_SEQUENCE]: ids };
  for (const row of db.prepare("SELECT name, data FROM shared").all() as { name: string; data: string }[])
    shared[row.name] = parse(row.data, `the sandbox-wide ${row.name}`);
  return { orgs: [...orgs.values()], shared };
}

/**
 * A state file of earlier versions: a JSON snapshot, with the writes since in <path>.journal. Read only when
 * the journal is empty (the earlier sandbox stopped cleanly); the core checks the state before the migration.
 */
function readJsonState(path: string): StoredState {
  const journal = `${path}.journal`;
  const earlier =
    "start and stop it once with the earlier sandbox version (it folds the journal in), then start this one";
  if (existsSync(journal) && statSync(journal).size > 0)
    throw new StateFileError(path, `it is a JSON state file of an earlier version with writes in ${journal}`, earlier);
  let file: { state?: { orgs?: unknown }; shared?: unknown } | null;
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as typeof file;
  } catch {
    file = null;
  }
  const orgs = file?.state?.orgs;
  if (!Array.isArray(orgs))
    throw new StateFileError(
      path,
      "it is neither a SQLite database nor a JSON state file of an earlier version",
      MOVE_AWAY,
    );
  return { orgs: orgs as SavedOrg[], shared: (file?.shared ?? {}) as Record<string, unknown> };
}

function createPrivate(path: string): void {
  try {
    closeSync(
      openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PRIVATE),
    );
  } catch (error) {
    throw new StateFileError(path, `it cannot be created (${(error as Error).message})`, "choose another --state-file");
  }
}

/** An existing state file readable by others: it holds webhook secrets, so it is made private (0600), with a warning. */
function tightenMode(path: string): string[] {
  const warnings: string[] = [];
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(file, PRIVATE);
    } catch (error) {
      throw new StateFileError(
        file,
        `it is readable by others (mode 0${mode.toString(8)}) and cannot be made private (${(error as Error).message})`,
        `run chmod 600 ${file}, then start again`,
      );
    }
    warnings.push(`${file} had mode 0${mode.toString(8)}; it holds webhook secrets, so it is now 0600`);
  }
  return warnings;
}

/** Which process holds the lock, as the holder wrote it into <path>.lock. */
function holder(path: string): string {
  try {
    const info = JSON.parse(readFileSync(lockPath(path), "utf8")) as { pid?: number; host?: string };
    return `process ${info.pid} on ${info.host}, per ${lockPath(path)}`;
  } catch {
    return "a process that holds its lock";
  }
}

function writeLockFile(file: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, PRIVATE);
  try {
    fchmodSync(fd, PRIVATE);
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() }));
  } finally {
    closeSync(fd);
  }
}
