/**
 * The README's answers are what the sandbox does: the job phases and how long they take, the event cadence,
 * the headers each fault sends, and the list of operation ids (generated from the spec; UPDATE_README=1
 * rewrites the block). A change to any of them fails here until README.md says the same.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unwrap } from "../../client/index.js";
import { OPERATIONS } from "../../generated/spec-constants.js";
import type { OperationId } from "../../mocks/sandbox/contract/context.js";
import { BASE, sandboxServer } from "./test-sandbox.js";

const README = new URL("./README.md", import.meta.url);
const text = readFileSync(README, "utf8");
const { open } = sandboxServer({ now: "2026-11-27T09:00:00.000Z" });

/** The rows of the Markdown table under the paragraph that starts with `lead`, as cells. */
function tableAfter(lead: string): string[][] {
  const from = text.indexOf(lead);
  expect(from, `README.md has a paragraph starting ${lead}`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(from).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

describe("Jobs: the phases and their sandbox time", () => {
  const rows = tableAfter("**Jobs.**");
  const perPhase = Number(/moves one phase per\s+(\d+) s of sandbox time/.exec(text)?.[1]) * 1000;

  it("the table names both jobs", () => {
    expect(rows.map((r) => r[0])).toEqual(["discovery", "refresh"]);
    expect(perPhase).toBe(2000);
  });

  it("a discovery job passes the phases the README lists, one per step, and is done when it says", async () => {
    const [, phases, done] = rows[0]!;
    const { sandbox, client } = open();
    const body = { kind: "people" as const, input: "Engineers", app_query: { keywords: "engineer" } };
    const id = unwrap(await client.POST("/targets", { body })).data.id;
    const seen = [];
    for (const _ of phases!.split(", ")) {
      sandbox.advance(perPhase);
      seen.push(unwrap(await client.GET("/targets/{id}", { params: { path: { id } } })).data.job.phase);
    }
    expect(seen.join(", ")).toBe(phases);
    expect(`${(seen.length * perPhase) / 1000} s`).toBe(done);
  });

  it("a refresh job (accepting members) passes its phases and is done when the README says", async () => {
    const [, phases, done] = rows[1]!;
    const { sandbox, client } = open();
    const body = { kind: "people" as const, input: "Engineers", app_query: { keywords: "engineer" } };
    const id = unwrap(await client.POST("/targets", { body })).data.id;
    sandbox.advance(60_000);
    const params = { path: { id } };
    const [member] = unwrap(await client.GET("/targets/{id}/members", { params })).data;
    unwrap(
      await client.POST("/targets/{id}/members", { params, body: { urls: [member!.network_url], status: "watching" } }),
    );
    const job = async () => unwrap(await client.GET("/targets/{id}", { params })).data.job;
    expect(await job()).toMatchObject({ status: "pending", phase: "queued" });
    const seen = [];
    for (const _ of phases!.split(", ")) {
      sandbox.advance(perPhase);
      seen.push((await job()).phase);
    }
    expect(seen.join(", ")).toBe(phases);
    expect(`${(seen.length * perPhase) / 1000} s`).toBe(done);
  });
});

describe("Events: the cadence", () => {
  const every = Number(/Diffs fall due every (\d+) s of sandbox time/.exec(text)?.[1]) * 1000;
  const demoEvery = /and every (\w+) \(once a minute\)/.exec(text)?.[1];

  it("one diff per interval for an organization that watches anyone, however many; a demo diff every sixth", async () => {
    expect([every, demoEvery]).toEqual([10_000, "sixth"]);
    const { sandbox, client } = open();
    const people = unwrap(await client.GET("/people", { params: { query: { limit: 3 } } })).data;
    const list = unwrap(await client.POST("/lists", { body: { name: "Watched" } })).data;
    const urls = people.map((p) => p.network_url!);
    unwrap(await client.POST("/lists/{id}/members", { params: { path: { id: list.id } }, body: { urls } }));
    const events = async () => unwrap(await client.GET("/events", { params: { query: { limit: 100 } } })).data;

    sandbox.advance(every - 1);
    expect(await events()).toHaveLength(0); // the first falls due one interval after the start
    sandbox.advance(1);
    expect(await events()).toHaveLength(1);
    sandbox.advance(5 * every); // six intervals in all: six diffs for the List's people, one demo
    const all = await events();
    expect(all.filter((e) => e.source !== "demo")).toHaveLength(6);
    expect(all.filter((e) => e.source === "demo")).toHaveLength(1);

    sandbox.reset(); // the first falls due one interval after reset() too
    sandbox.advance(every - 1);
    expect(await events()).toHaveLength(0);
  });
});

describe("Faults: the headers each status sends", () => {
  const rows = tableAfter("**Faults.**");
  const documented = (header: string) =>
    header === "none" ? {} : Object.fromEntries([header.replace(/`/g, "").split(": ")]);

  it("every documented error status of every operation without path parameters sends what the table says", async () => {
    const { sandbox } = open();
    const ordinary = (await fetch(`${BASE}/me`, { headers: { authorization: `Bearer ${sandbox.keys.acme}` } })).headers;
    const usual = new Set([...ordinary.keys()]);
    const byStatus = new Map<number, Record<string, string>>();
    for (const op of OPERATIONS) {
      if (op.path.includes("{")) continue;
      const statuses = Object.keys(sandbox.core.ctx.spec.byId.get(op.operationId)!.responses)
        .filter((s) => /^[45]\d\d$/.test(s))
        .map(Number);
      for (const status of statuses) {
        sandbox.fail(op.operationId as OperationId, { status } as never);
        const res = await fetch(`${BASE}${op.path}`, {
          method: op.method,
          headers: { authorization: `Bearer ${sandbox.keys.acme}`, "content-type": "application/json" },
          body: op.method === "GET" ? undefined : "{}",
        });
        expect(res.status).toBe(status);
        const extra = Object.fromEntries([...res.headers].filter(([name]) => !usual.has(name)));
        const key = status;
        if (byStatus.has(key)) expect(extra, `${op.operationId} ${status}`).toEqual(byStatus.get(key));
        else byStatus.set(key, extra);
      }
    }
    expect(byStatus.size).toBeGreaterThan(3);
    const named = new Map(rows.filter((r) => /^\d+$/.test(r[0]!)).map((r) => [Number(r[0]), r[1]!]));
    const other = rows.find((r) => r[0] === "any other")![1]!;
    for (const [status, extra] of byStatus) {
      const header = named.get(status) ?? other;
      const want = Object.fromEntries(Object.entries(documented(header)).map(([k, v]) => [k.toLowerCase(), v]));
      expect(extra, `README's headers for ${status}`).toEqual(want);
    }
  });
});

describe("Operation ids: the list is the spec's", () => {
  const START =
    "<!-- operation-ids: generated from the spec by readme-answers.test.ts (UPDATE_README=1 rewrites it) -->";
  const END = "<!-- operation-ids:end -->";
  const rows = [
    ["operationId", "Request"],
    ...OPERATIONS.map((op) => [`\`${op.operationId}\``, `\`${op.method} ${op.path}\``]),
  ];
  const widths = [0, 1].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join(" | ")} |`;
  /** The table as Prettier lays it out (the README is formatted by Prettier). */
  const block = [line(rows[0]!), line(widths.map((w) => "-".repeat(w))), ...rows.slice(1).map(line)].join("\n");

  it("README.md lists every operation id of the spec, with its request, in the spec's order", () => {
    const at = text.indexOf(START);
    const end = text.indexOf(END);
    expect(at).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(at);
    const updated = `${text.slice(0, at + START.length)}\n${block}\n${text.slice(end)}`;
    if (process.env.UPDATE_README === "1" && updated !== text) writeFileSync(README, updated);
    expect(
      text.slice(at + START.length, end).trim(),
      "run UPDATE_README=1 npx vitest run examples/msw/readme-answers.test.ts",
    ).toBe(block);
  });
});

describe("calls(): what the app received", () => {
  it("each call carries the answer's status, headers and parsed body, typed per documented status", async () => {
    const { sandbox, client } = open();
    unwrap(await client.POST("/lists", { body: { name: "Shortlist" } }));
    sandbox.fail("createList", { status: 429 });
    await client.POST("/lists", { body: { name: "Again" } });
    sandbox.networkError("createList");
    await client.POST("/lists", { body: { name: "Lost" } }).catch(() => undefined);
    const [made, limited, lost] = sandbox.calls("createList");
    expect(made!.response.status).toBe(201);
    if (made!.response.status === 201) {
      expect(made!.response.body.data.name).toBe("Shortlist");
      // @ts-expect-error -- a createList 201 carries a List, which has no "title"
      void made!.response.body.data.title;
    }
    expect(made!.response.headers["content-type"]).toMatch(/^application\/json/);
    expect(limited!.response).toMatchObject({ status: 429, headers: { "retry-after": "30" } });
    expect(limited!.response.body).toMatchObject({ message: expect.stringContaining("Rate limit") });
    expect(lost!.response).toEqual({ status: 0, headers: {}, body: undefined });
  });
});
