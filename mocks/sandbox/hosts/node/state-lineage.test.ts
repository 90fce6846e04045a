/**
 * A state file that is not the one the sandbox last wrote is refused by name: a hot journal of another database
 * beside it, an older copy swapped in (its record says more writes were acknowledged), a directory that takes
 * no new file, and a flipped byte inside an indexed id (a table and its index disagree).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { openStateful } from "../../testing/test-kit.js";
import { recordPath } from "./state-lineage.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-lineage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [
        name,
        createHash("sha256")
          .update(readFileSync(join(folder, name)))
          .digest("hex"),
      ]),
  );
}

type Options = { acceptOlderState?: boolean };

/** The message a start with this file fails with ("started" when it does not fail). */
function startError(file: string, options: Options = {}): Promise<string> {
  return openStateful({ stateFile: file, ...options }).then(
    async (sb) => {
      await sb.close();
      return "started";
    },
    (error: Error) => error.message,
  );
}

async function refused(file: string, pattern: RegExp, options: Options = {}): Promise<string> {
  const folder = join(file, "..");
  const before = snapshot(folder);
  const message = await startError(file, options);
  expect(message).toContain(file);
  expect(message).toMatch(pattern);
  expect(snapshot(folder), "the files, byte for byte").toEqual(before);
  return message;
}

async function writeLists(file: string, names: string[]): Promise<void> {
  const sb = await openStateful({ stateFile: file });
  try {
    for (const name of names)
      expect((await sb.request("POST", "/lists", { key: "acme", body: { name } })).status).toBe(201);
  } finally {
    await sb.close();
  }
}

async function listNames(file: string, options: Options = {}): Promise<string[]> {
  const sb = await openStateful({ stateFile: file, ...options });
  try {
    // Without the default List a read creates.
    return (await sb.get("/lists", { key: "acme" })).body.data
      .map((l: { name: string }) => l.name)
      .filter((name: string) => name !== "Saved people");
  } finally {
    await sb.close();
  }
}

async function fileWith(name: string, lists: string[]): Promise<string> {
  const folder = mkdtempSync(join(dir, `${name}-`));
  const file = join(folder, "state.db");
  await writeLists(file, lists);
  return file;
}

/** The journal of a large write to `file` cut short (its pages spilled into the file): a copy of the journal. */
function hotJournalOf(file: string): Buffer {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = 1");
  db.exec("BEGIN");
  for (let i = 0; i < 50; i++)
    db.prepare("INSERT INTO shared (name, data, ids) VALUES (?, json_quote(?), 0)").run(`junk${i}`, "x".repeat(5000));
  const journal = readFileSync(`${file}-journal`);
  db.exec("ROLLBACK");
  db.close();
  return journal;
}

describe("a hot journal that is not the file's", () => {
  it("another sandbox's journal beside the file is refused naming both files, never rolled in", async () => {
    const mine = await fileWith("mine", ["Mine 1", "Mine 2", "Mine 3"]);
    const other = await fileWith("other", ["Other"]);
    writeFileSync(`${mine}-journal`, hotJournalOf(other));
    const message = await refused(
      mine,
      /the journal beside it, .*-journal, is not this file's \(it is of the database/,
    );
    expect(message).toContain(`${mine}-journal`);
    // Moved away, the file is served as it was.
    rmSync(`${mine}-journal`);
    expect(await listNames(mine)).toEqual(expect.arrayContaining(["Mine 1", "Mine 2", "Mine 3"]));
  });

  it("an unrelated database's journal (no sandbox identity) is refused", async () => {
    const mine = await fileWith("unrelated", ["Mine"]);
    const foreign = join(join(mine, ".."), "notes.db");
    const db = new DatabaseSync(foreign);
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('x')");
    db.close();
    writeFileSync(`${mine}-journal`, hotJournalOfPlain(foreign));
    await refused(mine, /is not this file's/);
  });

  it("the file's own journal from an earlier write (it undoes a write already followed by others) is refused", async () => {
    const file = await fileWith("stale-journal", ["First"]);
    const old = hotJournalOf(file);
    await writeLists(file, ["Second", "Third"]);
    writeFileSync(`${file}-journal`, old);
    await refused(file, /it undoes a write made at generation 1 .*the file is at generation 3/);
  });

  it("its own journal of the write that was cut short is rolled back (near miss)", async () => {
    const file = await fileWith("own", ["Kept"]);
    const db = new DatabaseSync(file);
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = 1");
    db.exec("BEGIN");
    // As the sandbox writes: the header's generation first.
    db.exec("PRAGMA user_version = 2");
    for (let i = 0; i < 50; i++)
      db.prepare("INSERT INTO shared (name, data, ids) VALUES (?, json_quote(?), 0)").run(`junk${i}`, "x".repeat(5000));
    const copy = join(mkdtempSync(join(dir, "own-copy-")), "state.db");
    copyFileSync(file, copy);
    copyFileSync(`${file}-journal`, `${copy}-journal`);
    copyFileSync(recordPath(file), recordPath(copy));
    db.exec("ROLLBACK");
    db.close();
    expect(await listNames(copy)).toEqual(["Kept"]);
    expect(existsSync(`${copy}-journal`)).toBe(false);
  });
});

function hotJournalOfPlain(file: string): Buffer {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = 1");
  db.exec("BEGIN");
  for (let i = 0; i < 50; i++) db.prepare("INSERT INTO notes VALUES (?)").run("y".repeat(5000));
  const journal = readFileSync(`${file}-journal`);
  db.exec("ROLLBACK");
  db.close();
  return journal;
}

describe("an older copy of the state file", () => {
  it("swapped in is refused naming both generations; --accept-older-state uses it on purpose", async () => {
    const file = await fileWith("older", ["Before backup"]);
    const backup = readFileSync(file);
    await writeLists(file, ["After 1", "After 2", "After 3"]);
    writeFileSync(file, backup);
    await refused(
      file,
      /the file is at generation 1, its record .*\.generation at generation 4 .*3 acknowledged writes/,
    );
    expect(await listNames(file, { acceptOlderState: true })).toEqual(["Before backup"]);
    // Accepted once: the record now says what the file holds, and the next start needs no flag.
    expect(await listNames(file)).toEqual(["Before backup"]);
  });

  it("with its record missing is refused; a file ahead of its record (a crash before the record) starts", async () => {
    const file = await fileWith("no-record", ["One"]);
    const record = readFileSync(recordPath(file));
    rmSync(recordPath(file));
    await refused(file, /it is at generation 1 and its record .* is missing/);
    writeFileSync(recordPath(file), record);
    await writeLists(file, ["Two"]);
    writeFileSync(recordPath(file), record);
    expect(await listNames(file)).toEqual(["One", "Two"]);
  });

  it("another state file's record beside it is refused naming both identities", async () => {
    const file = await fileWith("swapped", ["Mine"]);
    const other = await fileWith("swapped-other", ["Other"]);
    copyFileSync(recordPath(other), recordPath(file));
    await refused(file, /its record .* is of another state file \(identity -?\d+; this file's is -?\d+\)/);
  });

  it("a missing file whose record says writes were acknowledged is refused", async () => {
    const file = await fileWith("gone", ["One"]);
    rmSync(file);
    await refused(file, /it is missing, and its record .* says 1 writes were acknowledged/);
  });
});

/** Makes `folder` immutable (chattr +i: no new file in it even for root), or says why it cannot. */
function immutable(folder: string): string | null {
  try {
    execFileSync("chattr", ["+i", folder], { stdio: "pipe" });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("a directory the sandbox cannot write", () => {
  it("is refused at start by a probe that writes (immutable directory, as root too)", async (ctx) => {
    const file = await fileWith("read-only", ["Kept"]);
    const folder = join(file, "..");
    const why = immutable(folder);
    if (why) ctx.skip(`chattr +i is not available here: ${why}`);
    try {
      // What an immutable directory does: the file itself still takes writes, no new file can be made.
      expect(() => writeFileSync(join(folder, "new"), "x")).toThrow(/EPERM|EACCES/);
      const message = await refused(file, /its directory takes no new file/);
      expect(message).toMatch(/give the user running the sandbox read and write access/);
    } finally {
      execFileSync("chattr", ["-i", folder]);
    }
    expect(await listNames(file)).toEqual(["Kept"]);
  });
});

describe("a flipped byte inside an indexed id", () => {
  it.each([
    ["the orgs table's row", "orgs"],
    ["the orgs index's entry", "sqlite_autoindex_orgs_1"],
  ])("in %s: the table and its index disagree, refused at start", async (_name, tree) => {
    const file = await fileWith(`flipped-${tree}`, ["Kept"]);
    const db = new DatabaseSync(file, { readOnly: true });
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").get(tree) as {
      rootpage: number;
    };
    const { page_size: pageSize } = db.prepare("PRAGMA page_size").get() as { page_size: number };
    const { id } = db.prepare("SELECT id FROM orgs LIMIT 1").get() as { id: string };
    db.close();
    const bytes = readFileSync(file);
    // One character of the id (its first copy: the indexed column), in that b-tree's page only: still a UUID.
    const page = bytes.subarray((rootpage - 1) * pageSize, rootpage * pageSize);
    const at = page.indexOf(id);
    expect(at, "the id in that page").toBeGreaterThan(0);
    page[at + 1] = page[at + 1] === 0x30 ? 0x31 : 0x30;
    writeFileSync(file, bytes);
    await refused(file, /SQLite finds it damaged \(.*(index|wrong # of entries)/);
  });
});

// A folder the tests above made immutable must never stay so (rmSync would fail): made sure here.
afterAll(() => {
  for (const name of readdirSync(dir)) {
    try {
      execFileSync("chattr", ["-i", join(dir, name)], { stdio: "pipe" });
    } catch {
      /* not immutable, or no chattr */
    }
  }
});
