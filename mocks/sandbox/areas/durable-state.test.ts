/**
 * Durable state (--state-file, a SQLite file): every acknowledged write is committed before its answer, so a
 * sandbox killed with SIGKILL in the middle of a burst keeps every acknowledged resource and never hands out
 * an id again; one sandbox per file; damage of any kind stops the start with a message naming the file and
 * what to do, and the file is left as it was; files are private (0600); a write the store could not keep
 * changes nothing; stored state from a browser's storage is checked before use.
 */
import type { ChildProcess } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { KEYS, ORGS } from "../contract/auth.js";
import type { StateStorage, StoredState } from "../contract/context.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { createSandboxHandlers, localStorageState } from "../hosts/msw/msw.js";
import { sqlite } from "../hosts/node/node-state-storage.js";
import { spawnSandbox, type SandboxChild } from "../testing/child.js";
import { openStateful } from "../testing/test-kit.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;
type Sandbox = Awaited<ReturnType<typeof openStateful>>;

async function withSandbox<T>(stateFile: string, run: (sb: Sandbox) => Promise<T>): Promise<T> {
  const sb = await openStateful({ stateFile });
  try {
    return await run(sb);
  } finally {
    await sb.close();
  }
}

async function createList(sb: Sandbox, name: string): Promise<string> {
  const res = await sb.request("POST", "/lists", { key: "acme", body: { name } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

const listNames = async (sb: Sandbox) =>
  (await sb.get("/lists", { key: "acme" })).body.data.map((l: { name: string }) => l.name) as string[];

/** The query the README shows: a stopped sandbox's Lists, read with SQLite's JSON functions. */
const README_QUERY =
  "SELECT json_extract(data, '$.name') AS name FROM records WHERE kind = 'lists' AND org_id = ? ORDER BY position";

function sql(file: string, query: string, ...params: string[]): Record<string, unknown>[] {
  const db = new (sqlite().DatabaseSync)(file);
  try {
    return db
      .prepare(query)
      .all(...params)
      .map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

/** The message a start with this file fails with ("started" when it does not fail). */
function startError(file: string): Promise<string> {
  return openStateful({ stateFile: file }).then(
    async (sb) => {
      await sb.close();
      return "started";
    },
    (error: Error) => error.message,
  );
}

/** A stopped sandbox's file holding one List. */
async function goodFile(name: string): Promise<string> {
  const file = join(dir, name);
  await withSandbox(file, async (sb) => void (await createList(sb, "Kept")));
  return file;
}

describe("the state file", () => {
  it("is a private SQLite file a user can read with the README's query", async () => {
    const file = join(dir, "readable.db");
    await withSandbox(file, async (sb) => {
      const deleted = await createList(sb, "Deleted");
      await createList(sb, "Readable");
      expect((await sb.request("DELETE", `/lists/${deleted}`, { key: "acme" })).status).toBeLessThan(300);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
    const names = sql(file, README_QUERY, ORGS.acme.id).map((r) => r.name);
    expect(names).toContain("Readable");
    expect(names).not.toContain("Deleted");
    await withSandbox(file, async (sb) => expect(await listNames(sb)).toEqual(names));
  });

  it("is used by one sandbox at a time: a second one on the same file refuses, naming it", async () => {
    const file = join(dir, "shared.db");
    await withSandbox(file, async (first) => {
      await createList(first, "First's");
      const message = await startError(file);
      expect(message).toContain(file);
      expect(message).toMatch(/another process has it open \(another sandbox with this --state-file/);
      expect(message).toMatch(/stop that process first, or give this sandbox another --state-file/);
      // The first one goes on undisturbed.
      await createList(first, "After the refusal");
    });
    await withSandbox(file, async (sb) =>
      expect(await listNames(sb)).toEqual(expect.arrayContaining(["First's", "After the refusal"])),
    );
  });

  it("keeps a reset: the Lists and the platform key's organizations are gone after a restart", async () => {
    const file = await goodFile("reset.db");
    const platform = KEYS.find((k) => k.key.startsWith("tgsb_platform"))!.key;
    const created = "00000000-0000-4000-8000-000000000042";
    await withSandbox(file, async (sb) => {
      const res = await sb.request("POST", "/lists", {
        key: platform,
        headers: { "x-service-org-id": created },
        body: { name: "Platform's" },
      });
      expect(res.status).toBe(201);
      expect((await sb.control("POST", "/__sandbox/reset")).status).toBe(200);
    });
    expect(sql(file, "SELECT count(*) AS n FROM orgs WHERE id = ?", created)).toEqual([{ n: 0 }]);
    expect(
      sql(file, "SELECT count(*) AS n FROM records WHERE kind = 'lists' AND json_extract(data, '$.name') = 'Kept'"),
    ).toEqual([{ n: 0 }]);
    await withSandbox(file, async (sb) => expect(await listNames(sb)).not.toContain("Kept"));
  });

  it("made readable by others (0644) is made private again, with a warning", async () => {
    const file = await goodFile("loose.db");
    chmodSync(file, 0o644);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await withSandbox(file, async (sb) => expect(await listNames(sb)).toContain("Kept"));
      expect(warn.mock.calls.flat().join("\n")).toMatch(
        /loose\.db had mode 0644; it holds webhook secrets, so it is now 0600/,
      );
    } finally {
      warn.mockRestore();
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("in JSON (not a database) is refused, and left as it is", async () => {
    const file = join(dir, "earlier.json");
    const text = JSON.stringify({ version: 1, state: { orgs: [] }, shared: { ids: 7 } });
    writeFileSync(file, text);
    expect(await startError(file)).toMatch(/earlier\.json: it is not a SQLite database/);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});

describe("a damaged or unusable state file stops the start, named, and is left as it was", () => {
  async function refused(file: string, pattern: RegExp): Promise<void> {
    const before = readFileSync(file);
    const message = await startError(file);
    expect(message).toContain(file);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/The sandbox did not start and left it as it is/);
    expect(readFileSync(file).equals(before), "the file is unchanged").toBe(true);
  }

  it("overwritten with zeros (same size)", async () => {
    const file = await goodFile("zeros.db");
    writeFileSync(file, Buffer.alloc(statSync(file).size));
    await refused(file, /it is not a SQLite database \(its first bytes are zeros\).*move it away/);
  });

  it("truncated at half its size", async () => {
    const file = await goodFile("half.db");
    truncateSync(file, Math.floor(statSync(file).size / 2));
    await refused(file, /SQLite finds it damaged|not a usable SQLite database/);
  });

  it("whose id sequence went back (a new List would take an existing id)", async () => {
    const file = await goodFile("ids-back.db");
    sql(file, "UPDATE meta SET value = 0 WHERE key = 'ids'");
    await refused(file, /its id sequence \(\d+\) is behind the rows written after id \d+/);
  });

  it("holding a List in a form the sandbox never writes, or nested beyond the bound", async () => {
    const file = await goodFile("bad-list.db");
    sql(file, "UPDATE records SET data = json_set(data, '$.members', 'not a list') WHERE kind = 'lists'");
    await refused(file, /holds "lists" in a form this sandbox does not write/);
    const deep = await goodFile("deep.db");
    sql(
      deep,
      `UPDATE records SET data = json_set(data, '$.name', json('${"[".repeat(100)}${"]".repeat(100)}')) WHERE kind = 'lists'`,
    );
    await refused(deep, /nested deeper than 64 levels/);
  });

  it("a symbolic link or a directory is refused by name; the link's target is untouched", async () => {
    const target = await goodFile("target.db");
    const link = join(dir, "link.db");
    symlinkSync(target, link);
    const before = readFileSync(target);
    expect(await startError(link)).toMatch(
      /link\.db: it is a symbolic link.*give --state-file the path of the file itself/,
    );
    expect(readFileSync(target).equals(before)).toBe(true);
    const folder = join(dir, "folder.db");
    mkdirSync(folder);
    expect(await startError(folder)).toMatch(/folder\.db: it is a directory/);
    // A link placed where SQLite would find a WAL is refused too.
    const walLinked = await goodFile("wal-linked.db");
    symlinkSync(target, `${walLinked}-wal`);
    expect(await startError(walLinked)).toMatch(/wal-linked\.db-wal: it is not a regular file/);
    expect(readFileSync(target).equals(before)).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)("an unreadable file is named as such", async () => {
    const file = await goodFile("unreadable.db");
    chmodSync(file, 0o000);
    expect(await startError(file)).toMatch(/unreadable\.db: the sandbox may not read it \(permission denied\)/);
  });
});

describe("a write the store does not keep changes nothing", () => {
  it("answers 500 and leaves the organization as it was in memory", async () => {
    let stored: StoredState | null = null;
    let failNext = false;
    const storage: StateStorage = {
      location: "flaky",
      load: () => stored,
      write(change) {
        if (failNext) throw new Error("disk full");
        const kept = change.all
          ? []
          : (stored?.orgs ?? []).filter((o) => !change.orgs.some((c) => c.info.id === o.info.id));
        stored = { orgs: [...kept, ...change.orgs], shared: change.shared };
      },
    };
    const sandbox = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: storage });
    const post = (name: string) =>
      sandbox.core.handle({
        method: "POST",
        url: "/v1/lists",
        headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
    const names = async () =>
      JSON.parse(
        (await sandbox.core.handle({ method: "GET", url: "/v1/lists", headers: { authorization: `Bearer ${ACME}` } }))
          .body!,
      ).data.map((l: { name: string }) => l.name);
    try {
      expect((await post("Stored")).status).toBe(201);
      failNext = true;
      expect((await post("Not stored")).status).toBe(500);
      failNext = false;
      expect(await names()).toEqual(expect.arrayContaining(["Stored"]));
      expect(await names()).not.toContain("Not stored");
    } finally {
      sandbox.close();
    }
  });
});

describe("storage that refuses every write (MSW host)", () => {
  it("answers each write 500 naming the storage's error, and every read still 200", async () => {
    const storage: StateStorage = {
      location: "full",
      load: () => null,
      write() {
        throw new Error("QuotaExceededError: the quota has been exceeded");
      },
    };
    const sandbox = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: storage });
    const call = (method: string, url: string, body?: unknown) =>
      sandbox.core.handle({
        method,
        url,
        headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    try {
      const failed = await call("POST", "/v1/queries", { name: "Q", query: { keywords: "x" } });
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.body!).error).toEqual({
        type: "server_error",
        message: "The sandbox could not save this write in full; it was not acknowledged",
      });
      for (const url of ["/v1/me", "/v1/people?limit=1", "/v1/queries"])
        expect((await call("GET", url)).status, url).toBe(200);
    } finally {
      sandbox.close();
    }
  });
});

describe("the stored id sequence is bounded", () => {
  const stateWithIds = (ids: number): StoredState => ({ orgs: [], shared: { ids } });
  const open = (ids: number) =>
    createSandboxHandlers({
      graph: fixtureGraphInput(),
      timers: false,
      persist: { location: "ids", load: () => stateWithIds(ids), write: () => undefined },
    });

  it("refuses one at Number.MAX_SAFE_INTEGER at load, not one write later", () => {
    expect(() => open(Number.MAX_SAFE_INTEGER)).toThrow(/Cannot use the sandbox state in ids: .*holds "ids" in a form/);
  });

  it("takes one at the bound (2^52) and hands out ids after it (negative)", async () => {
    const sandbox = open(2 ** 52);
    try {
      const res = await sandbox.core.handle({
        method: "POST",
        url: "/v1/lists",
        headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "After the bound" }),
      });
      expect(res.status).toBe(201);
    } finally {
      sandbox.close();
    }
  });
});

describe("stored state in a browser's storage is checked before use", () => {
  const DEEP = "nested 12,000 levels deep";
  const valid = () => {
    const map = new Map<string, string>();
    const store = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    } as Storage;
    const sb = createSandboxHandlers({
      graph: fixtureGraphInput(),
      timers: false,
      persist: localStorageState("tg", store),
    });
    return { sb, map, store };
  };

  it.each<[string, (state: any) => void, RegExp]>([
    [
      "a query nested 12,000 levels deep",
      // A placeholder the stored text replaces: an object this deep overflows JSON.stringify's stack on Node 22.
      (s) => (s.orgs[0].slices.queries[0].query = DEEP),
      /nested deeper than 64 levels/,
    ],
    [
      "an event without its fields",
      (s) => (s.shared.events = { events: [{ id: 1 }], live: [], emitted: 1, ticks: 0 }),
      /holds "events" in a form/,
    ],
    ["Lists that are not a list", (s) => (s.orgs[0].slices.lists = { not: "a list" }), /holds "lists" in a form/],
    ["no id sequence", (s) => delete s.shared.ids, /has no id sequence/],
    ["a negative id sequence", (s) => (s.shared.ids = -1), /holds "ids" in a form/],
    [
      "an organization without a plan",
      (s) => delete s.orgs[0].info.plan,
      /organization 1 holds "info" in a form this sandbox does not write \(\/ must have required property 'plan'\)/,
    ],
    [
      "an unknown kind of record",
      (s) => (s.orgs[0].slices.secrets = []),
      /holds "secrets", which this sandbox does not write/,
    ],
  ])("%s is refused with a message naming the storage", async (_name, damage, pattern) => {
    const { sb, map, store } = valid();
    const created = await sb.core.handle({
      method: "POST",
      url: "/v1/queries",
      headers: { authorization: `Bearer ${ACME}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Q", query: { keywords: "x" } }),
    });
    expect(created.status).toBe(201);
    sb.close();
    const state = JSON.parse(map.get("tg")!);
    damage(state);
    const text = JSON.stringify(state).replace(JSON.stringify(DEEP), `${"[".repeat(12_000)}${"]".repeat(12_000)}`);
    map.set("tg", text);
    expect(() =>
      createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: localStorageState("tg", store) }),
    ).toThrow(new RegExp(`Cannot use the sandbox state in localStorage:tg: .*${pattern.source}`));
    expect(map.get("tg")).toBe(text);
  });
});

/** Starts `npm run sandbox` with `stateFile` on a free port; resolves with its base URL. */
function startChild(stateFile: string): Promise<SandboxChild> {
  return spawnSandbox([
    "--people",
    "200",
    "--companies",
    "20",
    "--no-rate-limit",
    "--job-speed",
    "0",
    "--state-file",
    stateFile,
  ]);
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
  );
}

describe("the sandbox command", () => {
  it("with a directory as its state file says so, not that it cannot listen", async () => {
    const folder = join(dir, "a-folder");
    mkdirSync(folder);
    const error = await startChild(folder).then(
      async (started) => {
        started.child.kill("SIGKILL");
        await stopped(started.child);
        return "started";
      },
      (e: Error) => e.message,
    );
    expect(error).toMatch(/a-folder: it is a directory/);
    expect(error).not.toMatch(/listen/);
  });
});

describe("kill -9 in the middle of a burst of writes", () => {
  it("keeps every acknowledged resource and never hands out an old id again", async () => {
    const stateFile = join(dir, "killed.db");
    const headers = { authorization: `Bearer ${ACME}`, "content-type": "application/json" };
    const first = await startChild(stateFile);
    // While it runs, the file is the first process's: another start refuses, naming that process.
    expect(await startError(stateFile)).toMatch(/another process has it open/);
    const acknowledged: string[] = [];
    let killed = false;
    try {
      // Eight writers; the child is killed once 60 writes are acknowledged, with others still in flight.
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          try {
            const res = await fetch(`${first.baseUrl}/lists`, {
              method: "POST",
              headers,
              body: JSON.stringify({ name: `burst ${w}-${i}` }),
            });
            if (res.status !== 201) throw new Error(`POST /lists answered ${res.status}: ${await res.text()}`);
            acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
          } catch (error) {
            if (killed) return;
            throw error;
          }
          if (acknowledged.length >= 60 && !killed) {
            killed = true;
            first.child.kill("SIGKILL");
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    } finally {
      first.child.kill("SIGKILL");
      await stopped(first.child);
    }
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    const second = await startChild(stateFile);
    try {
      for (const id of acknowledged) {
        expect(
          (await fetch(`${second.baseUrl}/lists/${id}`, { headers })).status,
          `acknowledged List ${id} survived`,
        ).toBe(200);
      }
      const old = new Set(acknowledged);
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${second.baseUrl}/lists`, {
          method: "POST",
          headers,
          body: JSON.stringify({ name: `after ${i}` }),
        });
        expect(res.status).toBe(201);
        const id = ((await res.json()) as { data: { id: string } }).data.id;
        expect(old.has(id), `new id ${id} is not an old one`).toBe(false);
      }
    } finally {
      second.child.kill("SIGTERM");
      await stopped(second.child);
    }
  });
});
