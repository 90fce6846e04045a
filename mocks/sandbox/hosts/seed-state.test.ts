/**
 * Declared starting states on the Node host (`npm run sandbox -- --state-seed file.json`), in-process through
 * buildApp: the file's state is built at start, a file the API refuses stops the start with the part and the
 * API's message, and a state file that already holds state is not seeded again. The MSW host's use:
 * examples/msw/kit.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCli } from "./node/cli.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { buildApp } from "./node/server.js";
import { createSandboxHandlers } from "./msw/msw.js";
import type { StartingState } from "./seed-state.js";
import { testKey, type KeyName } from "../testing/harness.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-state-seed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function seedFile(name: string, state: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(state));
  return file;
}

const options = { graph: fixtureGraphInput(), jobSpeed: 0, jobFailureRate: 0, rateLimit: false as const };

async function get(built: Awaited<ReturnType<typeof buildApp>>, url: string, org: KeyName = "acme") {
  const res = await built.core.handle({ method: "GET", url, headers: { authorization: `Bearer ${testKey(org)}` } });
  return JSON.parse(res.body!);
}

describe("--state-seed", () => {
  it("is a command-line option naming the file", () => {
    expect(parseCli(["--state-seed", "start.json"], {})).toEqual({ stateSeed: "start.json" });
  });

  it("builds the declared state at start: a Target with a failed job and proposed members, a List, globex's quota", async () => {
    const declared: StartingState[] = [
      {
        lists: [{ name: "Finalists" }],
        targets: [{ kind: "company", input: "Northwind Labs", members: { proposed: 2, excluded: 1 }, job: "failed" }],
      },
      { org: "globex", watchSlots: 5, plan: "free", access: false },
      { org: "initech", savedQueries: [{ name: "Kept while locked", query: { keywords: "go" } }] },
    ];
    const built = await buildApp({ ...options, stateSeed: seedFile("ok.json", declared) });
    try {
      const [target] = (await get(built, "/v1/targets")).data;
      expect(target).toMatchObject({ proposed_count: 2, excluded_count: 1, job: { status: "failed" } });
      expect((await get(built, "/v1/lists")).data.map((l: { name: string }) => l.name)).toContain("Finalists");
      expect((await get(built, "/v1/me", "globex")).data).toMatchObject({
        access: { allowed: false },
        quota: { watch_slots: { max: 5 } },
      });
      expect((await get(built, "/v1/lists", "globex")).error.type).toBe("payment_required");
      // initech stays locked after its state is built (the seed's trial ended).
      expect((await get(built, "/v1/queries", "initech")).error.type).toBe("payment_required");
      const initech = built.state.org("9c1d4e8a-2b7f-4a3c-8e5d-6f0b3a2c9d03")!;
      expect(initech.info.accessAllowed).toBe(false);
      expect(initech.isEmpty()).toBe(false);
    } finally {
      await built.app.close();
    }
  });

  it("takes the MSW host's snapshot: the same reads answer the same bytes on the Node host", async () => {
    const msw = createSandboxHandlers({ ...options, timers: false, now: "2026-11-27T09:00:00.000Z" });
    await msw.seedState({
      lists: [{ name: "Finalists", members: ["https://www.linkedin.com/in/someone-example"] }],
      targets: [{ kind: "company", input: "Northwind Labs", members: { watching: 1, proposed: 1 } }],
    });
    msw.core.advance(60_000);
    const reads = ["/v1/lists", "/v1/targets", "/v1/events", "/v1/me"];
    const text = async (core: typeof msw.core, url: string) =>
      (await core.handle({ method: "GET", url, headers: { authorization: `Bearer ${testKey("acme")}` } })).body;
    const before = await Promise.all(reads.map((url) => text(msw.core, url)));
    const built = await buildApp({ ...options, stateSeed: seedFile("snapshot.json", msw.snapshot()) });
    try {
      expect(await Promise.all(reads.map((url) => text(built.core, url)))).toEqual(before);
      expect(before[0]).toContain("Finalists");
    } finally {
      await built.app.close();
      msw.close();
    }
  });

  it("a Target's job in a given phase, with or without members", async () => {
    const declared: StartingState = {
      targets: [
        { kind: "company", input: "Northwind Labs", job: "discovering" },
        { kind: "people", input: "Engineers", app_query: { keywords: "engineer" }, job: "pending" },
        { kind: "people", input: "Designers", members: { watching: 1 }, job: "enriching" },
      ],
    };
    const built = await buildApp({ ...options, stateSeed: seedFile("phases.json", declared) });
    try {
      const jobs = (await get(built, "/v1/targets")).data.map((t: { name: string; job: object }) => [t.name, t.job]);
      expect(Object.fromEntries(jobs)).toMatchObject({
        "Northwind Labs": { status: "running", phase: "discovering" },
        Engineers: { status: "pending", phase: "queued" },
        Designers: { status: "running", phase: "enriching" },
      });
    } finally {
      await built.app.close();
    }
  });

  it("with a state file that holds state, the seed is not built again: a restart keeps what was written since", async () => {
    const stateSeed = seedFile("once.json", { lists: [{ name: "Once" }] });
    const stateFile = path.join(dir, "state.json");
    const names = async (write?: string) => {
      const built = await buildApp({ ...options, stateSeed, stateFile });
      try {
        if (write) {
          const body = JSON.stringify({ name: write });
          const headers = { authorization: `Bearer ${testKey("acme")}`, "content-type": "application/json" };
          expect((await built.core.handle({ method: "POST", url: "/v1/lists", headers, body })).status).toBe(201);
        }
        return (await get(built, "/v1/lists")).data.map((l: { name: string }) => l.name);
      } finally {
        await built.app.close();
      }
    };
    expect(await names("Made later")).toEqual(["Saved people", "Once", "Made later"]);
    expect(await names()).toEqual(["Saved people", "Once", "Made later"]);
  });

  it("refuses a file the API refuses, naming the file, the part and the API's message", async () => {
    const file = seedFile("bad.json", { targets: [{ kind: "people", input: " " }] });
    await expect(buildApp({ ...options, stateSeed: file })).rejects.toThrow(
      `--state-seed ${file}.targets[0]: POST /v1/targets answered 400 (invalid_request: body/input must not be blank)`,
    );
    const typo = seedFile("typo.json", { list: [] });
    await expect(buildApp({ ...options, stateSeed: typo })).rejects.toThrow(/unknown field "list"/);
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, "{");
    await expect(buildApp({ ...options, stateSeed: broken })).rejects.toThrow(`--state-seed ${broken}: `);
  });
});
