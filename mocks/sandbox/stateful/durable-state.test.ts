/**
 * Durable state (--state-file): a write is on disk before it is acknowledged, so a sandbox killed with
 * SIGKILL in the middle of a burst keeps every acknowledged resource and never hands out an id again; a
 * torn last journal record is skipped with a warning; every other damage stops the start with a message
 * naming the file and the record, and the damaged file is left as it was. State files are private (0600).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { KEYS } from "../auth.js";
import { journalPath } from "../node-state-storage.js";
import { spawnSandbox, type SandboxChild } from "../testing/child.js";
import { openStateful } from "./test-kit.js";

const dir = mkdtempSync(join(tmpdir(), "sandbox-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ACME = KEYS.find((k) => k.key.startsWith("tgsb_acme"))!.key;

async function withSandbox<T>(
  stateFile: string,
  run: (sb: Awaited<ReturnType<typeof openStateful>>) => Promise<T>,
): Promise<T> {
  const sb = await openStateful({ stateFile });
  try {
    return await run(sb);
  } finally {
    await sb.close();
  }
}

async function createList(sb: Awaited<ReturnType<typeof openStateful>>, name: string): Promise<string> {
  const res = await sb.request("POST", "/lists", { key: "acme", body: { name } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

describe("the journal", () => {
  it("has every acknowledged write on disk before the answer, in files only the owner can read", async () => {
    const file = join(dir, "journaled.json");
    await withSandbox(file, async (sb) => {
      await createList(sb, "Journaled");
      // Not saved yet: the write is in the journal, fsynced before the 201.
      expect(readFileSync(journalPath(file), "utf8")).toContain("Journaled");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(journalPath(file)).mode & 0o777).toBe(0o600);
    });
    // Shutdown compacted the journal into the snapshot.
    expect(readFileSync(journalPath(file), "utf8")).toBe("");
    expect(readFileSync(file, "utf8")).toContain("Journaled");
  });

  it("skips a torn last record with a warning and keeps every complete one", async () => {
    const file = join(dir, "torn.json");
    await withSandbox(file, async (sb) => void (await createList(sb, "Before the crash")));
    const journal = journalPath(file);
    // A crash after one complete record, in the middle of writing the next one.
    await withSandbox(file, async (sb) => {
      await createList(sb, "Complete record");
      appendFileSync(journal, '{"org":{"info":{"id":"0b8f');
      // Simulate the crash: the shutdown compaction must not run, so copy the files as they are now.
      writeFileSync(join(dir, "torn-copy.json"), readFileSync(file));
      writeFileSync(journalPath(join(dir, "torn-copy.json")), readFileSync(journal));
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const names = await withSandbox(join(dir, "torn-copy.json"), async (sb) =>
        (await sb.get("/lists", { key: "acme" })).body.data.map((l: { name: string }) => l.name),
      );
      expect(names).toEqual(expect.arrayContaining(["Before the crash", "Complete record"]));
      expect(warn.mock.calls.flat().join("\n")).toMatch(
        /skipped the torn last record of .*torn-copy\.json\.journal \(line 2,/,
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a damaged state file", () => {
  async function refused(name: string, snapshot: string, journal?: string): Promise<string> {
    const file = join(dir, name);
    writeFileSync(file, snapshot);
    if (journal !== undefined) writeFileSync(journalPath(file), journal);
    const message = await openStateful({ stateFile: file }).then(
      async (sb) => {
        await sb.close();
        return "started";
      },
      (error: Error) => error.message,
    );
    // The server never rewrites what it refused.
    expect(readFileSync(file, "utf8")).toBe(snapshot);
    if (journal !== undefined) expect(readFileSync(journalPath(file), "utf8")).toBe(journal);
    expect(message).toContain(file);
    expect(message).toMatch(/restore it from a backup, or move it .* away to start with an empty sandbox/);
    return message;
  }

  const good = () => {
    const file = join(dir, "good.json");
    return withSandbox(file, async (sb) => void (await createList(sb, "Kept"))).then(() =>
      JSON.parse(readFileSync(file, "utf8")),
    );
  };

  it("without its id sequence is refused: new resources would take existing ids", async () => {
    const file = await good();
    delete file.shared.ids;
    expect(await refused("no-ids.json", JSON.stringify(file))).toMatch(
      /the snapshot has no id sequence \(field "shared\.ids"/,
    );
  });

  it("with a missing field or a wrong version is refused in words, never `version 1 (expected 1)`", async () => {
    const file = await good();
    const noState = await refused("no-state.json", JSON.stringify({ ...file, state: undefined }));
    expect(noState).toMatch(/has no field "state" with a list of organizations/);
    expect(noState).not.toMatch(/expected 1/);
    expect(await refused("no-version.json", JSON.stringify({ ...file, version: undefined }))).toMatch(
      /has no format version/,
    );
    const badOrg = structuredClone(file);
    delete badOrg.state.orgs[0].info.plan;
    expect(await refused("no-plan.json", JSON.stringify(badOrg))).toMatch(
      /organization 1 of field "state" with a missing or invalid plan/,
    );
  });

  it("with a slice in the wrong form is refused without a raw TypeError (`data.map is not a function`)", async () => {
    const file = await good();
    const acme = file.state.orgs.find((o: { slices: Record<string, unknown> }) => o.slices.lists);
    acme.slices.lists = { not: "a list" };
    const message = await refused("bad-slice.json", JSON.stringify(file));
    expect(message).toMatch(/the snapshot holds state in a form this sandbox does not write/);
    expect(message).not.toMatch(/is not a function/);
  });

  it("with a damaged record before the last one is refused, naming the record's line", async () => {
    const file = await good();
    const message = await refused("bad-journal.json", JSON.stringify(file), '{"broken\n{"org":null}\n');
    expect(message).toMatch(
      /the journal record at line 1 of .*bad-journal\.json\.journal is not JSON \(only the last record may be torn by a crash\)/,
    );
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

describe("kill -9 in the middle of a burst of writes", () => {
  it("keeps every acknowledged resource and never hands out an old id again", { timeout: 120_000 }, async () => {
    const stateFile = join(dir, "killed.json");
    const headers = { authorization: `Bearer ${ACME}`, "content-type": "application/json" };
    const first = await startChild(stateFile);
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
