/**
 * The state file under damage: kill -9 after acknowledged writes, then its journal damaged three ways (no
 * acknowledged write is lost: they are all in the main file); a WAL left beside a file, a 0-byte file and a
 * foreign database refused; rows and fields named like prototype keys refused by name; a seed that fails
 * stores nothing; and every refusal leaves the directory as it was (same files, same bytes, same modes).
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { KEYS, ORGS } from "../../contract/auth.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { spawnSandbox } from "../../testing/child.js";
import { openStateful } from "../../testing/test-kit.js";
import { createSandboxHandlers, localStorageState } from "../msw/msw.js";
import { nodeStateStorage } from "./node-state-storage.js";
import { recordPath } from "./state-lineage.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-damage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;

/** Every file of a directory with its sha256 and mode: what a refusal must leave as it was. */
function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => {
        const path = join(folder, name);
        const hash = createHash("sha256").update(readFileSync(path)).digest("hex");
        return [name, `${hash} ${(statSync(path).mode & 0o777).toString(8)}`];
      }),
  );
}

/** A copy of a state file as an operator makes one: the file with the record of its last write. */
function copyState(file: string, copy: string): void {
  copyFileSync(file, copy);
  copyFileSync(recordPath(file), recordPath(copy));
}

function flipByte(path: string, offset: number): void {
  const bytes = readFileSync(path);
  bytes[offset] = bytes[offset]! ^ 0xff;
  writeFileSync(path, bytes);
}

function sql(file: string, query: string, ...params: string[]): void {
  const db = new DatabaseSync(file);
  try {
    db.prepare(query).run(...params);
  } finally {
    db.close();
  }
}

function rowsOf(file: string, table: string): unknown[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  } finally {
    db.close();
  }
}

/** The message a start with this file fails with ("started" when it does not fail). */
function startError(file: string, options: { stateSeed?: string } = {}): Promise<string> {
  return openStateful({ stateFile: file, ...options }).then(
    async (sb) => {
      await sb.close();
      return "started";
    },
    (error: Error) => error.message,
  );
}

/** Refused, naming the file and matching `pattern`, with the folder's files unchanged (and no new ones). */
async function refused(file: string, pattern: RegExp): Promise<string> {
  const folder = join(file, "..");
  const before = snapshot(folder);
  const message = await startError(file);
  expect(message).toContain(file);
  expect(message).toMatch(pattern);
  expect(snapshot(folder), "the files, byte for byte").toEqual(before);
  return message;
}

/** A folder with a stopped sandbox's file holding one List "Kept". */
async function goodFile(name: string): Promise<string> {
  const folder = mkdtempSync(join(dir, `${name}-`));
  const file = join(folder, "state.db");
  const sb = await openStateful({ stateFile: file });
  try {
    expect((await sb.request("POST", "/lists", { key: "acme", body: { name: "Kept" } })).status).toBe(201);
  } finally {
    await sb.close();
  }
  return file;
}

async function listNames(file: string): Promise<string[]> {
  const sb = await openStateful({ stateFile: file });
  try {
    return (await sb.get("/lists", { key: "acme" })).body.data.map((l: { name: string }) => l.name);
  } finally {
    await sb.close();
  }
}

describe("kill -9 after acknowledged writes, then the files damaged", () => {
  it("keeps every acknowledged write in the main file: a damaged journal loses none", async () => {
    const folder = mkdtempSync(join(dir, "killed-"));
    const file = join(folder, "state.db");
    const child = await spawnSandbox([
      ...["--people", "200", "--companies", "20", "--no-rate-limit", "--job-speed", "0", "--quiet"],
      ...["--state-file", file],
    ]);
    const acknowledged: string[] = [];
    try {
      for (let i = 0; i < 23; i++) {
        const res = await fetch(`${child.baseUrl}/lists`, {
          method: "POST",
          headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
          body: JSON.stringify({ name: `w${i}` }),
        });
        expect(res.status).toBe(201);
        acknowledged.push(`w${i}`);
      }
    } finally {
      child.child.kill("SIGKILL");
      await new Promise((resolve) => child.child.once("exit", resolve));
    }
    // No write-ahead log: nothing acknowledged lives outside the main file.
    expect(existsSync(`${file}-wal`)).toBe(false);
    // The journal the killed sandbox kept between writes (exclusive locking) is there to be damaged.
    const journal = `${file}-journal`;
    expect(statSync(journal).size).toBeGreaterThan(32);
    const damages: [string, (path: string) => void][] = [
      ["one flipped byte", (p) => flipByte(p, 40)],
      ["truncated to half", (p) => truncateSync(p, Math.floor(statSync(p).size / 2))],
      ["its first 32 bytes zeroed", (p) => writeFileSync(p, Buffer.alloc(32), { flag: "r+" })],
    ];
    for (const [name, damage] of damages) {
      const copyFolder = mkdtempSync(join(dir, "killed-copy-"));
      const copy = join(copyFolder, "state.db");
      copyState(file, copy);
      copyFileSync(journal, `${copy}-journal`);
      damage(`${copy}-journal`);
      const names = await listNames(copy);
      const missing = acknowledged.filter((n) => !names.includes(n));
      expect(missing, `${name}: acknowledged writes missing`).toEqual([]);
    }
    expect(await listNames(file)).toEqual(expect.arrayContaining(acknowledged));
  });

  it("refuses a file with a write-ahead log beside it (SQLite cannot tell whether the log is whole)", async () => {
    const file = await goodFile("wal");
    // Another program's WAL-mode connection, left open: the log holds a change the main file does not.
    const other = new DatabaseSync(file);
    other.exec("PRAGMA journal_mode = WAL");
    other.exec("UPDATE meta SET value = 0 WHERE key = 'ids'");
    const folder = mkdtempSync(join(dir, "wal-copy-"));
    const copy = join(folder, "state.db");
    copyFileSync(file, copy);
    copyFileSync(`${file}-wal`, `${copy}-wal`);
    other.close();
    await refused(copy, /it has a write-ahead log .*-wal.*PRAGMA wal_checkpoint/);
  });
});

describe("a write cut short (a hot journal beside the file)", () => {
  /** A copy of `file` taken in the middle of a large write: pages of it in the file, their old contents in the journal. */
  function cutShort(file: string, before?: string): string {
    const db = new DatabaseSync(file);
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = 1");
    if (before) db.exec(before);
    db.exec("BEGIN");
    for (let i = 0; i < 50; i++)
      db.prepare("INSERT INTO shared (name, data, ids) VALUES (?, json_quote(?), 0)").run(`junk${i}`, "x".repeat(5000));
    const folder = mkdtempSync(join(dir, "cut-"));
    const copy = join(folder, "state.db");
    copyState(file, copy);
    copyFileSync(`${file}-journal`, `${copy}-journal`);
    db.exec("ROLLBACK");
    db.close();
    // Hot indeed: a read-only connection cannot read it without a rollback (SQLITE_READONLY_ROLLBACK).
    const reader = new DatabaseSync(copy, { readOnly: true });
    expect(() => reader.prepare("SELECT count(*) FROM meta").get()).toThrow(expect.objectContaining({ errcode: 776 }));
    reader.close();
    return copy;
  }

  it("is rolled back as SQLite does: the start keeps every committed write and none of the cut one", async () => {
    const copy = cutShort(await goodFile("hot"));
    expect(await listNames(copy)).toEqual(expect.arrayContaining(["Kept"]));
    expect(existsSync(`${copy}-journal`)).toBe(false);
  });

  it("is checked in a private copy: a refusal leaves the file and its journal byte-identical", async () => {
    const file = await goodFile("hot-refused");
    sql(file, "UPDATE meta SET value = 0 WHERE key = 'ids'");
    await refused(cutShort(file), /its id sequence \(0\) is behind the rows/);
  });
});

describe("files the sandbox never wrote are refused, and left as they were", () => {
  it("a 0-byte file", async () => {
    const folder = mkdtempSync(join(dir, "empty-"));
    const file = join(folder, "state.db");
    writeFileSync(file, "");
    await refused(file, /it is empty \(0 bytes\)/);
  });

  it("another program's WAL-mode database readable by others (0644): not chmod-ed, not checkpointed", async () => {
    const folder = mkdtempSync(join(dir, "foreign-"));
    const file = join(folder, "state.db");
    const other = new DatabaseSync(file);
    other.exec("PRAGMA journal_mode = WAL; CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
    other.close();
    chmodSync(file, 0o644);
    await refused(file, /it is not a sandbox state file/);
  });

  it("three refusals in a row leave no new file (no lock file, no journal) and the file's mode", async () => {
    const file = await goodFile("thrice");
    sql(file, "UPDATE meta SET value = 0 WHERE key = 'ids'");
    chmodSync(file, 0o644);
    for (let i = 0; i < 3; i++) await refused(file, /its id sequence \(0\) is behind the rows/);
  });
});

describe("refusals that say what is true", () => {
  it("a file another program reads: in use, with no process named from a stale lock note", async () => {
    const file = await goodFile("read-by-other");
    // A note an earlier sandbox version left beside its file, naming a process that is gone.
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 999_999_999, host: "gone" }));
    const reader = new DatabaseSync(file, { readOnly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM records").get();
    try {
      const message = await refused(file, /another process has it open .*stop that process first/);
      expect(message).not.toMatch(/move it away|process \d+/);
    } finally {
      reader.exec("COMMIT");
      reader.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)("a read-only file or directory is about access, not damage", async () => {
    const file = await goodFile("read-only");
    chmodSync(file, 0o400);
    expect(await refused(file, /give the user running the sandbox read and write access/)).not.toMatch(/move it away/);
    chmodSync(file, 0o600);
    const folder = join(file, "..");
    chmodSync(folder, 0o500);
    try {
      expect(await refused(file, /read and write access to it and to its directory/)).not.toMatch(/move it away/);
    } finally {
      chmodSync(folder, 0o700);
    }
  });
});

describe("stored rows are data: a prototype key is refused by name", () => {
  it.each([
    ["__proto__", '{"fields":"notarray"}'],
    ["toString", "[]"],
  ])("a records row of kind %s", async (kind, data) => {
    const file = await goodFile(`kind-${kind}`);
    sql(
      file,
      "INSERT INTO records (org_id, kind, position, data, ids) VALUES (?, ?, -1, ?, 0)",
      ORGS.acme.id,
      kind,
      data,
    );
    await refused(file, new RegExp(`organization ${ORGS.acme.id} holds "${kind}", which this sandbox does not write`));
  });

  it("an organization's info with a __proto__ key (Node host)", async () => {
    const file = await goodFile("info-proto");
    sql(
      file,
      `UPDATE orgs SET info = json_set(info, '$.__proto__', json('{"ephemeral":true}')) WHERE id = ?`,
      ORGS.acme.id,
    );
    await refused(file, /holds "info" in a form this sandbox does not write .*"__proto__"/);
  });

  it("an organization's info with a __proto__ key (MSW host)", () => {
    const map = new Map<string, string>();
    const store = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    const first = createSandboxHandlers({
      graph: fixtureGraphInput(),
      timers: false,
      persist: localStorageState("tg", store as Storage),
    });
    first.reset();
    first.close();
    const text = map.get("tg")!.replace('"info":{', '"info":{"__proto__":{"ephemeral":true},');
    expect(text).toContain("__proto__");
    map.set("tg", text);
    expect(() =>
      createSandboxHandlers({
        graph: fixtureGraphInput(),
        timers: false,
        persist: localStorageState("tg", store as Storage),
      }),
    ).toThrow(/localStorage:tg: organization 1 holds "info" in a form this sandbox does not write .*"__proto__"/);
    expect(map.get("tg")).toBe(text);
  });

  it("a stored created_at that is not a date-time, naming the organization and the item", async () => {
    const file = await goodFile("garbage-date");
    sql(file, "UPDATE records SET data = json_set(data, '$.created_at', 'garbage') WHERE kind = 'lists'");
    await refused(
      file,
      new RegExp(`organization ${ORGS.acme.id} holds "lists" .*/0/created_at must match format "date-time"`),
    );
  });
});

describe("a --state-seed that fails part-way stores nothing", () => {
  it("leaves no file when it created it, and an existing file unchanged; the next start refuses again", async () => {
    const folder = mkdtempSync(join(dir, "seed-"));
    const seed = join(folder, "seed.json");
    writeFileSync(seed, JSON.stringify({ lists: [{ name: "First" }, { name: "" }] }));
    const file = join(folder, "state.db");
    for (let i = 0; i < 2; i++) {
      expect(await startError(file, { stateSeed: seed })).toMatch(/lists\[1\].*POST \/v1\/lists answered 400/);
      expect(existsSync(file), "no state file").toBe(false);
      expect(readdirSync(folder)).toEqual(["seed.json"]);
    }
    // A file that holds nothing yet: the failed seed leaves every row and the record as they were (the start
    // that took the file wrote its header).
    const empty = join(folder, "empty.db");
    await (await openStateful({ stateFile: empty })).close();
    const rows = () => ["meta", "orgs", "records", "shared"].map((t) => rowsOf(empty, t));
    const before = { rows: rows(), record: readFileSync(recordPath(empty), "latin1"), files: readdirSync(folder) };
    expect(await startError(empty, { stateSeed: seed })).toMatch(/lists\[1\]/);
    expect({ rows: rows(), record: readFileSync(recordPath(empty), "latin1"), files: readdirSync(folder) }).toEqual(
      before,
    );
  });
});

describe("a start killed while it created the state file", () => {
  it("leaves a private file under this pid that the next start with the same pid replaces", () => {
    const folder = mkdtempSync(join(dir, "killed-"));
    const file = join(folder, "state.db");
    // What a kill -9 between creating and linking leaves (a container gives the same small pid each start).
    writeFileSync(`${file}.${process.pid}.new`, "half-made database");
    writeFileSync(`${file}.${process.pid}.new-journal`, "its journal");
    const storage = nodeStateStorage(file);
    expect(storage.load()).toBeNull();
    storage.open?.();
    storage.close?.();
    expect(readdirSync(folder)).toEqual(["state.db", "state.db.generation"]);
  });
});
