/** In-memory state, POST /__sandbox/reset, --state-file (save on shutdown, load on start), GET /__sandbox/state. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqlite } from "../hosts/node/node-state-storage.js";
import { openStateful } from "../testing/test-kit.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-state-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Creates one of everything in acme and globex. */
async function populate(sb: Awaited<ReturnType<typeof openStateful>>) {
  const query = (await sb.request("POST", "/queries", { body: { name: "Kept", query: { company: "northwind" } } })).body
    .data;
  const list = (await sb.request("POST", "/lists", { body: { name: "Kept list" } })).body.data;
  await sb.request("POST", `/lists/${list.id}/members`, { body: { urls: ["lucas-moreau"], stage: "sourced" } });
  const target = await sb.northwind({ auto_admit: true });
  await sb.request("PUT", "/signals/preferences", {
    body: { emails: ["lead@acme.example.com"], webhook_url: "https://hooks.example.com/acme" },
  });
  await sb.emit({ target_id: target.id, count: 5 });
  await sb.request("POST", "/lists", { key: "globex", body: { name: "Globex list" } });
  return { query, list, target };
}

/** What the API shows of the populated state. */
async function everything(sb: Awaited<ReturnType<typeof openStateful>>, saved: Awaited<ReturnType<typeof populate>>) {
  const paths = [
    "/queries",
    "/lists",
    `/lists/${saved.list.id}`,
    "/targets",
    `/targets/${saved.target.id}/members`,
    "/events",
    "/signals/preferences",
    "/me",
  ];
  const out: Record<string, unknown> = {};
  for (const path of paths) out[path] = (await sb.get(path)).body;
  out.globex = (await sb.get("/lists", { key: "globex" })).body;
  return out;
}

describe("POST /__sandbox/reset", () => {
  it("returns to the seed: no queries, custom Lists, Targets, events or preferences", async () => {
    const sb = await openStateful();
    try {
      const { target } = await populate(sb);
      const reset = await sb.control("POST", "/__sandbox/reset");
      expect(reset).toEqual({ status: 200, body: { data: { reset: true } } });
      expect((await sb.get("/queries")).body.meta.count).toBe(0);
      expect((await sb.get("/lists")).body.data.map((l: any) => l.default_key)).toEqual(["origin"]);
      expect((await sb.get("/targets")).body.meta.count).toBe(0);
      expect((await sb.get(`/targets/${target.id}`)).status).toBe(404);
      expect((await sb.get("/events")).body.data).toEqual([]);
      expect((await sb.get("/me")).body.data.webhook.configured).toBe(false);
      expect((await sb.get("/signals/preferences")).body.data.emails).toEqual([]);
      // New ids never repeat ids handed out before the reset.
      const again = await sb.createTarget({ input: "Northwind Labs" });
      expect(again.id).not.toBe(target.id);
    } finally {
      await sb.close();
    }
  });
});

/** Rows of a stopped sandbox's state file, read the way a user would (sqlite3, here node:sqlite). */
function rows(file: string, sql: string): unknown[] {
  const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
  try {
    return db
      .prepare(sql)
      .all()
      .map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

describe("--state-file", () => {
  it("saves on shutdown and reloads on start: queries, Lists, Targets with members and jobs, preferences, events", async () => {
    const file = join(dir, "kept.json");
    const first = await openStateful({ stateFile: file });
    let saved: Awaited<ReturnType<typeof populate>>;
    let before: Record<string, unknown>;
    try {
      saved = await populate(first);
      before = await everything(first, saved);
    } finally {
      await first.close();
    }
    expect(rows(file, "SELECT value FROM meta WHERE key = 'format'")).toEqual([{ value: 2 }]);

    const second = await openStateful({ stateFile: file });
    try {
      expect(await everything(second, saved)).toEqual(before);
      // The id sequence goes on: nothing created after the restart reuses an id.
      const q = (await second.request("POST", "/queries", { body: { name: "After restart", query: {} } })).body.data;
      expect(q.id).not.toBe(saved.query.id);
      // Jobs keep working after a reload.
      const retried = await second.request("POST", `/targets/${saved.target.id}/retry`);
      expect(retried.body.data.job.status).toBe("pending");
      await second.finish(saved.target.id);
      expect((await second.get(`/targets/${saved.target.id}`)).body.data.job.status).toBe("done");
      // POST /__sandbox/state/save writes the file on demand.
      expect((await second.control("POST", "/__sandbox/state/save")).body).toEqual({ data: { saved: file } });
    } finally {
      await second.close();
    }
    expect(rows(file, "SELECT count(*) AS n FROM records WHERE kind = 'queries'")).toEqual([{ n: 2 }]);
  });

  it("starts empty when the file does not exist yet, and refuses an unreadable file with a clear message", async () => {
    const fresh = await openStateful({ stateFile: join(dir, "new.json") });
    try {
      expect((await fresh.get("/targets")).body.meta.count).toBe(0);
    } finally {
      await fresh.close();
    }
    expect(readFileSync(join(dir, "new.json")).subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ not json");
    await expect(openStateful({ stateFile: broken })).rejects.toThrow(
      /Cannot use the sandbox state in .*broken\.json: it is not a SQLite database/,
    );
  });

  it("POST /__sandbox/state/save needs --state-file; GET /__sandbox/state counts per organization", async () => {
    const sb = await openStateful();
    try {
      const res = await sb.control("POST", "/__sandbox/state/save");
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/--state-file/);
      await populate(sb);
      const state = (await sb.control("GET", "/__sandbox/state")).body.data;
      expect(state.events).toBe(5);
      expect(state.organizations.find((o: any) => o.name === "Acme Recruiting")).toMatchObject({
        saved_queries: 1,
        lists: 3,
        targets: 1,
      });
    } finally {
      await sb.close();
    }
  });
});
