/**
 * What ties a state file to the files beside it (README.md, State file and reset). Each state file carries an
 * identity (a random non-zero number in SQLite's `application_id` header field) and a generation (the count of
 * its committed writes: meta row `generation`, mirrored in the `user_version` header field, which every write
 * sets first, so the journal of a write always holds a copy of the file's first page). Two checks use them:
 *
 * - a hot journal is rolled back only when it is this file's: its copy of the first page has the file's identity,
 *   and its generation and change counter are the file's or one behind (the write it undoes); anything else is
 *   another database's journal and is refused, naming both files, never rolled in;
 * - the record beside the file (`<file>.generation`, written after every commit) holds the identity and generation
 *   of the last acknowledged write; a file older than its record, or another file's, is refused naming both
 *   values unless the operator accepts it on purpose (--accept-older-state).
 */
import {
  closeSync,
  constants,
  fdatasyncSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { StateFileError } from "../../areas/stored-state.js";

/** The state file's identity and generation. */
export interface Lineage {
  id: number;
  generation: number;
}

export const recordPath = (path: string): string => `${path}.generation`;

/** The header mirror of a generation (user_version is a signed 32-bit field). */
export const generationMirror = (generation: number): number => generation % 2 ** 31;

/** A new identity: a random non-zero signed 32-bit value. */
export function newIdentity(): number {
  const [value] = crypto.getRandomValues(new Int32Array(1));
  return value === 0 ? 1 : value!;
}

const JOURNAL_MAGIC = "d9d505f920a163d7";
const RECORD = /^tgsb-state-generation id=([0-9a-f]{8}) generation=(\d{16})\n$/;
const ACCEPT = "start with --accept-older-state to use it anyway (its record is then rewritten)";

interface Header {
  pageSize: number;
  changeCounter: number;
  mirror: number;
  id: number;
}

function header(page: Buffer): Header {
  const size = page.readUInt16BE(16);
  return {
    pageSize: size === 1 ? 65_536 : size,
    changeCounter: page.readUInt32BE(24),
    mirror: page.readInt32BE(60),
    id: page.readInt32BE(68),
  };
}

function fileHeader(path: string): Header {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const page = Buffer.alloc(100);
    readSync(fd, page, 0, 100, 0);
    return header(page);
  } finally {
    closeSync(fd);
  }
}

/** SQLite's record checksum: the journal's nonce plus every 200th byte of the page, from its end. */
function checksum(page: Buffer, nonce: number): number {
  let sum = nonce;
  for (let i = page.length - 200; i > 0; i -= 200) sum = (sum + page[i]!) >>> 0;
  return sum;
}

/**
 * Refuses a hot journal beside `path` that SQLite would roll into it although it is not this file's. A journal
 * whose header SQLite does not recognize is left to SQLite (it plays nothing from it).
 */
export function checkJournal(path: string): void {
  const journal = `${path}-journal`;
  const bytes = readFileSync(journal);
  if (bytes.length < 28 || bytes.toString("hex", 0, 8) !== JOURNAL_MAGIC) return;
  const file = fileHeader(path);
  const foreign = (why: string) =>
    new StateFileError(
      path,
      `the journal beside it, ${journal}, is not this file's (${why}); rolling it back would write another ` +
        "database's pages into it",
      `move ${journal} away (it may belong to a copy of this file: keep it for inspection), then start again`,
    );
  const records = bytes.readUInt32BE(8);
  const nonce = bytes.readUInt32BE(12);
  const sector = bytes.readUInt32BE(20);
  const pageSize = bytes.readUInt32BE(24);
  if (pageSize !== file.pageSize) throw foreign(`its pages are ${pageSize} bytes, the file's ${file.pageSize}`);
  const step = pageSize + 8;
  const count = records === 0xffffffff ? Math.floor((bytes.length - sector) / step) : records;
  let first: Header | null = null;
  for (let i = 0, at = sector; i < count && at + step <= bytes.length; i++, at += step) {
    const page = bytes.subarray(at + 4, at + 4 + pageSize);
    if (bytes.readUInt32BE(at + 4 + pageSize) !== checksum(page, nonce)) break;
    if (bytes.readUInt32BE(at) === 1) {
      first = header(page);
      break;
    }
  }
  if (!first) throw foreign("it holds no copy of the file's first page, which every write of the sandbox saves first");
  if (first.id !== file.id) throw foreign(`it is of the database with identity ${first.id}, the file's is ${file.id}`);
  const behindBy = (now: number, then: number, modulo: number) => (now - then + modulo) % modulo;
  const generation = behindBy(file.mirror, first.mirror, 2 ** 31);
  const changes = behindBy(file.changeCounter, first.changeCounter, 2 ** 32);
  if (generation > 1 || changes > 1)
    throw foreign(
      `it undoes a write made at generation ${first.mirror} (change ${first.changeCounter}); the file is at ` +
        `generation ${file.mirror} (change ${file.changeCounter})`,
    );
}

/** The record beside `path`: null when there is none; a record that is not one the sandbox writes is refused. */
export function readRecord(path: string): Lineage | null {
  const record = recordPath(path);
  let text: string;
  try {
    text = readFileSync(record, "latin1");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StateFileError(path, `its record ${record} cannot be read (${(error as Error).message})`, ACCEPT);
  }
  const match = RECORD.exec(text);
  if (!match) throw new StateFileError(path, `its record ${record} is not one the sandbox writes (damaged)`, ACCEPT);
  return { id: Number.parseInt(match[1]!, 16) | 0, generation: Number(match[2]) };
}

/**
 * The state file's lineage against its record: a warning when accepted on purpose, nothing when they agree
 * (a file ahead of its record lost only the record's update in a crash), else a refusal naming both values.
 */
export function compareRecord(
  path: string,
  lineage: Lineage | null,
  record: Lineage | null,
  acceptOlder: boolean,
): string | null {
  const where = recordPath(path);
  let problem: string | null = null;
  if (!lineage) {
    if (record && record.generation > 0)
      problem = `it is missing, and its record ${where} says ${record.generation} writes were acknowledged`;
  } else if (!record) {
    if (lineage.generation > 0)
      problem = `it is at generation ${lineage.generation} and its record ${where} is missing: an older copy cannot be told apart`;
  } else if (record.id !== lineage.id) {
    problem = `its record ${where} is of another state file (identity ${record.id}; this file's is ${lineage.id})`;
  } else if (record.generation > lineage.generation) {
    problem =
      `it is older than the last acknowledged write: the file is at generation ${lineage.generation}, its record ` +
      `${where} at generation ${record.generation} (an older copy or a rolled-back snapshot; ` +
      `${record.generation - lineage.generation} acknowledged writes would be missing)`;
  }
  if (!problem) return null;
  if (!acceptOlder) throw new StateFileError(path, problem, ACCEPT);
  return `${path}: ${problem}; used anyway as --accept-older-state asks, and its record rewritten`;
}

/** The record, kept open while the sandbox runs: rewritten in place after each commit, and synced. */
export interface RecordWriter {
  write(lineage: Lineage): void;
  close(): void;
}

function recordText({ id, generation }: Lineage): Buffer {
  // Fixed width: an in-place rewrite never leaves a tail of the previous record.
  return Buffer.from(
    `tgsb-state-generation id=${(id >>> 0).toString(16).padStart(8, "0")} generation=${String(generation).padStart(16, "0")}\n`,
    "latin1",
  );
}

/** Opens (creating it whole, through a private file linked into place, when missing) the record beside `path`. */
export function openRecord(path: string, lineage: Lineage): RecordWriter {
  const record = recordPath(path);
  let fd: number;
  try {
    fd = openSync(record, constants.O_WRONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const fresh = `${record}.${process.pid}.new`;
    rmSync(fresh, { force: true });
    const made = openSync(fresh, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeSync(made, recordText(lineage), 0);
      fsyncSync(made);
    } finally {
      closeSync(made);
    }
    try {
      linkSync(fresh, record);
    } finally {
      rmSync(fresh, { force: true });
    }
    const dir = openSync(dirname(record), constants.O_RDONLY);
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    fd = openSync(record, constants.O_WRONLY | constants.O_NOFOLLOW);
  }
  const writer: RecordWriter = {
    write(next) {
      const text = recordText(next);
      writeSync(fd, text, 0, text.length, 0);
      fdatasyncSync(fd);
    },
    close: () => closeSync(fd),
  };
  writer.write(lineage);
  return writer;
}
