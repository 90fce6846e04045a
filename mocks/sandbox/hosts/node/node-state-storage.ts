/**
 * The Node host's state storage for --state-file <path> (README.md, State file and reset): a SQLite database
 * (node:sqlite, no dependency). Each acknowledged write is one transaction committed before the core answers,
 * with SQLite's rollback journal and synchronous=FULL: a commit is in the main file before it is acknowledged,
 * so no second file (a WAL) holds acknowledged writes, and a crash leaves at most a journal of the write that
 * was cut short, which SQLite rolls back. The connection holds an exclusive lock on the file while the
 * sandbox runs. Every row also records the id sequence at its write, so a sequence that went back (damage)
 * is refused instead of handing out an id twice.
 *
 * A file is checked before anything can write to it: `load()` reads it read-only (a journal left by a crash
 * is rolled back in a private copy), and the core checks the state it holds; only then does `open()` take
 * the file for writes. A refusal names the file, the problem and what to do, and leaves every file as it was.
 * Files created here are private (0600: they hold webhook secrets). A journal that is not this file's, and a
 * file older than the record of its last acknowledged write, are refused (state-lineage.ts).
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  fsyncSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { DatabaseSync } from "node:sqlite";
import type { StateChange, StateStorage, StoredState } from "../../contract/context.js";
import type { SavedOrg } from "../../contract/state.js";
import { ID_SEQUENCE, StateFileError } from "../../areas/stored-state.js";
import {
  checkJournal,
  compareRecord,
  generationMirror,
  newIdentity,
  openRecord,
  readRecord,
  type Lineage,
  type RecordWriter,
} from "./state-lineage.js";

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
/** The stored format (meta row `format`). */
const FORMAT = 2;
const SQLITE_MAGIC = "SQLite format 3\0";
/** Items of an array slice are rows at positions 0..n-1; a slice that is one value is one row at this position. */
const WHOLE = -1;
/** SQLite's extended code for "a hot journal needs a rollback, and this connection is read-only". */
const SQLITE_READONLY_ROLLBACK = 776;

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
const NO_ACCESS =
  "give the user running the sandbox read and write access to it and to its directory (SQLite writes a journal " +
  "beside it), or choose another --state-file";
const IN_USE = "another process has it open (another sandbox with this --state-file, or a program such as sqlite3)";
const STOP_IT = "stop that process first, or give this sandbox another --state-file";

type FileKind = "missing" | "rollback" | "wal";

export interface NodeStateOptions {
  /** Use a state file older than its record (or without one) on purpose: the record is rewritten. */
  acceptOlderState?: boolean;
  /** What the operator should know while the sandbox runs (a record that could not be rewritten). */
  warn?: (message: string) => void;
}

export function nodeStateStorage(path: string, options: NodeStateOptions = {}): StateStorage {
  let db: DatabaseSync | null = null;
  /** The file's identity and committed generation (known once loaded, or opened when created). */
  let lineage: Lineage | null = null;
  let record: RecordWriter | null = null;
  /** Said once the file is opened: a state file accepted on purpose although older than its record. */
  let accepted: string | null = null;
  /** What load() found: the file is created or opened for writes by open(). */
  let found: FileKind | null = null;
  /** The JSON of each shared item as last committed: unchanged items (events) are not written again. */
  let committedShared = new Map<string, string>();
  /** Each organization's rows as last committed (by `kind\0position`), once this process wrote it. */
  let committedRows = new Map<string, Map<string, string>>();

  function load(): StoredState | null {
    if (db) return readAll(db, path).state;
    found = inspect(path);
    if (found === "missing") {
      accepted = compareRecord(path, null, readRecord(path), options.acceptOlderState === true);
      return null;
    }
    const checked = checkedCopy(path, found);
    accepted = compareRecord(path, checked.lineage, readRecord(path), options.acceptOlderState === true);
    lineage = checked.lineage;
    const stored = checked.state;
    committedShared = new Map(Object.entries(stored.shared).map(([k, v]) => [k, JSON.stringify(v)]));
    return stored;
  }

  function open(): string[] {
    if (db) return [];
    if (found === null) throw new Error(`the state file ${path} was not loaded (load() first)`);
    if (found === "missing") createDatabase(path);
    const opened = openForWrites(path);
    try {
      const warnings = found === "missing" ? [] : tightenMode(path);
      lineage = lineageOf(opened);
      // The record says what the file holds from now on (rewritten in place once it exists).
      record = openRecord(path, lineage);
      db = opened;
      if (accepted) warnings.push(accepted);
      return warnings;
    } catch (error) {
      opened.close();
      throw error;
    }
  }

  function write(change: StateChange): void {
    if (!db) throw new Error(`the state file ${path} is not open (load() and open() first)`);
    const ids = change.shared[ID_SEQUENCE];
    if (typeof ids !== "number") throw new Error(`a change without the id sequence ("${ID_SEQUENCE}")`);
    const pending = new Map<string, string>();
    const pendingRows = new Map(committedRows);
    const generation = lineage!.generation + 1;
    db.exec("BEGIN IMMEDIATE");
    try {
      // First the header's generation: so the journal of every write starts with the file's first page.
      db.exec(`PRAGMA user_version = ${generationMirror(generation)}`);
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)").run(generation);
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
      throw new Error(`the state file ${path} did not take the write (${(error as Error).message})`, {
        cause: error,
      });
    }
    committedShared = pending;
    committedRows = pendingRows;
    lineage = { id: lineage!.id, generation };
    try {
      record?.write(lineage);
    } catch (error) {
      // The write is committed (durable); only the record lags, which can only let an older copy pass unseen.
      options.warn?.(
        `the record beside ${path} could not be rewritten (${(error as Error).message}); an older copy of the file ` +
          "would not be noticed until a later write rewrites it",
      );
    }
  }

  function close(): void {
    db?.close();
    db = null;
    record?.close();
    record = null;
  }

  return { location: path, load, open, write, close };
}

/** What is at `path`: missing, or a SQLite file in rollback or WAL mode; anything else is refused by name. */
function inspect(path: string): FileKind {
  for (const companion of [`${path}-wal`, `${path}-journal`]) {
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
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new StateFileError(
        path,
        `it cannot be examined (${(error as Error).message})`,
        "choose another --state-file",
      );
    if (existsSync(`${path}-wal`) || existsSync(`${path}-journal`))
      throw new StateFileError(
        path,
        "it is missing, and its SQLite companion file (-wal or -journal) is not",
        "restore the database file, or remove the companion to start with an empty sandbox",
      );
    return "missing";
  }
  if (stat.isSymbolicLink())
    throw new StateFileError(path, "it is a symbolic link", "give --state-file the path of the file itself");
  if (stat.isDirectory())
    throw new StateFileError(path, "it is a directory", "give --state-file a file's path (it is created if missing)");
  if (!stat.isFile()) throw new StateFileError(path, "it is not a regular file", "choose another --state-file");
  if (stat.size === 0)
    throw new StateFileError(path, "it is empty (0 bytes): the sandbox never leaves a state file empty", MOVE_AWAY);
  const head = Buffer.alloc(20);
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
      NO_ACCESS,
    );
  }
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString("latin1", 0, 16) !== SQLITE_MAGIC) {
    const what = head.every((b) => b === 0) ? "its first bytes are zeros" : "it does not start with SQLite's header";
    throw new StateFileError(
      path,
      `it is not a SQLite database (${what}): it is damaged or not a state file`,
      MOVE_AWAY,
    );
  }
  const wal = head[18] === 2 || head[19] === 2;
  if (wal && existsSync(`${path}-wal`))
    throw new StateFileError(
      path,
      `it has a write-ahead log (${path}-wal): a program has it open, or stopped without closing it, and ` +
        "SQLite cannot tell whether that log holds every write",
      `stop the program using it; if the log is yours and whole, fold it in with \`sqlite3 ${path} "PRAGMA wal_checkpoint"\`; ` +
        "or restore the file from a backup",
    );
  return wal ? "wal" : "rollback";
}

/**
 * Reads the file without writing anything: a read-only connection (a WAL-mode file, whose log was found absent,
 * is read as immutable: SQLite would otherwise create its -wal and -shm). A journal left by a crash (a write
 * that was never acknowledged) is rolled back in a private copy, as SQLite rolls it back when the file is
 * opened for writes.
 */
function checkedCopy(path: string, kind: FileKind): Checked {
  let opened: DatabaseSync;
  try {
    opened = readOnly(path, kind === "wal");
  } catch (error) {
    throw refusalOf(path, error);
  }
  try {
    return readChecked(opened, path);
  } catch (error) {
    if ((error as { errcode?: number }).errcode !== SQLITE_READONLY_ROLLBACK) throw refusalOf(path, error);
  } finally {
    opened.close();
  }
  // A hot journal: the same rollback in a private copy, then the same checks there, once it is this file's.
  checkJournal(path);
  const dir = mkdtempSync(join(tmpdir(), "sandbox-state-check-"));
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    copyFileSync(`${path}-journal`, `${copy}-journal`);
    const rolled = new (sqlite().DatabaseSync)(copy);
    try {
      return readChecked(rolled, path);
    } finally {
      rolled.close();
    }
  } catch (error) {
    throw refusalOf(path, error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readOnly(path: string, immutable: boolean): DatabaseSync {
  const url = pathToFileURL(path);
  if (immutable) url.searchParams.set("immutable", "1");
  return new (sqlite().DatabaseSync)(url, { readOnly: true });
}

/**
 * SQLite's full check of the file (a truncated or overwritten file, and every table against its indexes: a
 * flipped byte inside a stored id), then every row.
 */
function readChecked(db: DatabaseSync, path: string): Checked {
  const rows = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
  if (rows.length !== 1 || rows[0]!.integrity_check !== "ok") {
    const problem = rows
      .map((r) => r.integrity_check)
      .slice(0, 3)
      .join("; ");
    throw new StateFileError(path, `SQLite finds it damaged (${problem})`, MOVE_AWAY);
  }
  return readAll(db, path);
}

/** A failure to open or read the file, as a refusal naming it: damage, a lock held by another process, access. */
function refusalOf(path: string, error: unknown): StateFileError {
  if (error instanceof StateFileError) return error;
  const message = (error as Error).message;
  // SQLite's primary result codes: BUSY 5, LOCKED 6, PERM 3, READONLY 8, CANTOPEN 14, CORRUPT 11, NOTADB 26.
  const code = (error as { errcode?: number }).errcode ?? 0;
  if ((code & 0xff) === 5 || (code & 0xff) === 6) return new StateFileError(path, IN_USE, STOP_IT);
  if ((code & 0xff) === 3 || (code & 0xff) === 8 || (code & 0xff) === 14)
    return new StateFileError(path, `SQLite may not use it (${message})`, NO_ACCESS);
  if ((code & 0xff) === 11 || (code & 0xff) === 26)
    return new StateFileError(path, `SQLite finds it damaged (${message})`, MOVE_AWAY);
  return new StateFileError(path, `SQLite cannot read it (${message})`, MOVE_AWAY);
}

/** A new, empty state database made in a private file beside `path`, then linked in (never over an existing file). */
function createDatabase(path: string): void {
  const fresh = `${path}.${process.pid}.new`;
  // A file of this name is a leftover of a process with this pid killed while creating (in a container the
  // same small pid comes back at every start): no live process owns it, and the state file does not exist yet.
  for (const leftover of [fresh, `${fresh}-journal`]) rmSync(leftover, { force: true });
  try {
    closeSync(
      openSync(fresh, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PRIVATE),
    );
  } catch (error) {
    throw new StateFileError(path, `it cannot be created (${(error as Error).message})`, "choose another --state-file");
  }
  try {
    const made = new (sqlite().DatabaseSync)(fresh);
    try {
      made.exec("PRAGMA journal_mode = DELETE");
      made.exec("PRAGMA synchronous = FULL");
      made.exec(`PRAGMA application_id = ${newIdentity()}`);
      made.exec(`BEGIN; ${SCHEMA}`);
      made.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), (?, 0)").run(FORMAT, ID_SEQUENCE);
      made.exec("COMMIT");
    } finally {
      made.close();
    }
    linkSync(fresh, path);
  } catch (error) {
    throw new StateFileError(path, `it cannot be created (${(error as Error).message})`, "choose another --state-file");
  } finally {
    rmSync(fresh, { force: true });
  }
}

/** The file opened for writes, once checked: the exclusive lock, the rollback journal, synced commits. */
function openForWrites(path: string): DatabaseSync {
  probeDirectory(path);
  let opened: DatabaseSync;
  try {
    opened = new (sqlite().DatabaseSync)(path);
  } catch (error) {
    throw refusalOf(path, error);
  }
  try {
    opened.exec("PRAGMA locking_mode = EXCLUSIVE");
    opened.exec("PRAGMA journal_mode = DELETE");
    opened.exec("PRAGMA synchronous = FULL");
    // The exclusive lock comes with the first write: a write of the header takes it now (a second sandbox or
    // an open reader is refused here), and shows that the file takes writes through its journal. A file
    // written before identities were kept gets one.
    const { id, generation } = lineageOf(opened);
    opened.exec("BEGIN IMMEDIATE");
    opened.exec(`PRAGMA user_version = ${generationMirror(generation)}`);
    if (id === 0) opened.exec(`PRAGMA application_id = ${newIdentity()}`);
    opened.exec("COMMIT");
  } catch (error) {
    opened.close();
    throw refusalOf(path, error);
  }
  return opened;
}

interface Checked {
  state: StoredState;
  lineage: Lineage;
}

/** The identity and generation a connection's file holds (a file written before generations were kept: 0). */
function lineageOf(db: DatabaseSync): Lineage {
  const id = (db.prepare("PRAGMA application_id").get() as { application_id: number }).application_id;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'generation'").get() as { value: number } | undefined;
  return { id, generation: row?.value ?? 0 };
}

/**
 * A file really written (created, written, synced, removed) beside the state file: a directory that takes no new
 * file (read-only, immutable, a full disk) is refused at start, not with a 500 at the first write.
 */
function probeDirectory(path: string): void {
  const probe = `${path}.${process.pid}.probe`;
  try {
    rmSync(probe, { force: true });
    const fd = openSync(
      probe,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      PRIVATE,
    );
    try {
      writeSync(fd, "probe");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new StateFileError(path, `its directory takes no new file (${(error as Error).message})`, NO_ACCESS);
  } finally {
    rmSync(probe, { force: true });
  }
}

/** Every stored row, as the core's stored state; refuses a file whose id sequence is behind its rows. */
function readAll(db: DatabaseSync, path: string): Checked {
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
    if ((error as { errcode?: number }).errcode === SQLITE_READONLY_ROLLBACK) throw error;
    throw fail(`it is not a sandbox state file (${(error as Error).message})`);
  }
  const format = meta.get("format");
  if (format !== FORMAT) throw fail(`it is in format ${String(format)}, and this sandbox reads format ${FORMAT} only`);
  const ids = meta.get(ID_SEQUENCE);
  if (typeof ids !== "number" || !Number.isSafeInteger(ids) || ids < 0)
    throw fail("its id sequence is missing or invalid");
  const generation = meta.get("generation") ?? 0;
  if (typeof generation !== "number" || !Number.isSafeInteger(generation) || generation < 0)
    throw fail("its generation (the count of its writes) is invalid");
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
    const where = `the records row (${JSON.stringify(row.kind)}, position ${row.position}) of organization ${row.org_id}`;
    if (!org) throw fail(`${where} belongs to no organization it holds`);
    const value = parse(row.data, where);
    // Kinds are data: a kind such as "__proto__" is an own key here and is refused by the core's check by name.
    const slices = org.slices as Record<string, unknown>;
    if (row.position === WHOLE) {
      if (Object.hasOwn(slices, row.kind)) throw fail(`${where} repeats an item stored whole`);
      Object.defineProperty(slices, row.kind, { value, enumerable: true, writable: true, configurable: true });
    } else {
      if (!Object.hasOwn(slices, row.kind))
        Object.defineProperty(slices, row.kind, { value: [], enumerable: true, writable: true, configurable: true });
      const items = slices[row.kind];
      if (!Array.isArray(items)) throw fail(`${where} is an item of a kind stored whole`);
      items.push(value);
    }
  }
  const shared: Record<string, unknown> = { [ID_SEQUENCE]: ids };
  for (const row of db.prepare("SELECT name, data FROM shared").all() as { name: string; data: string }[])
    Object.defineProperty(shared, row.name, {
      value: parse(row.data, `the shared row ${JSON.stringify(row.name)}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { state: { orgs: [...orgs.values()], shared }, lineage: lineageOf(db) };
}

/** An existing state file readable by others: it holds webhook secrets, so it is made private (0600), with a warning. */
function tightenMode(path: string): string[] {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return [];
  try {
    chmodSync(path, PRIVATE);
  } catch (error) {
    throw new StateFileError(
      path,
      `it is readable by others (mode 0${mode.toString(8)}) and cannot be made private (${(error as Error).message})`,
      `run chmod 600 ${path}, then start again`,
    );
  }
  return [`${path} had mode 0${mode.toString(8)}; it holds webhook secrets, so it is now 0600`];
}
