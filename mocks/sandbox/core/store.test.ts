/** The store step: a write is stored before it is acknowledged, and a write that is not acknowledged is rolled back. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { Area, StateChange, StateStorage, StoredState } from "../contract/context.js";
import { invalidRequest } from "../contract/errors.js";
import { listsSlice } from "../areas/lists.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { createSandboxCore } from "./core.js";
import { isWrite } from "./store.js";

const spec = loadSpec();

/** A core on a storage that records each change (and fails while `failing` is set). */
function open(areas?: Area[]) {
  let stored: StoredState | null = null;
  const writes: StateChange[] = [];
  const logged: string[] = [];
  const probe = { failing: false };
  const storage: StateStorage = {
    location: "memory",
    load: () => stored,
    write(change) {
      if (probe.failing) throw new Error("disk full");
      writes.push(change);
      const kept = change.all ? [] : (stored?.orgs ?? []).filter((o) => o.info.id !== change.orgs[0]?.info.id);
      stored = { orgs: [...kept, ...change.orgs], shared: change.shared };
    },
  };
  const core = createSandboxCore({
    spec,
    graph: fixtureGraphInput(),
    rateLimit: false,
    timers: false,
    storage,
    ...(areas ? { areas } : {}),
    onError: (message) => void logged.push(message),
  });
  const headers = { authorization: `Bearer ${core.keys[0]!.key}`, "content-type": "application/json" };
  const send = (method: string, path: string, body?: unknown) =>
    core.handle({ method, url: `/v1${path}`, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const listNames = async () =>
    JSON.parse((await send("GET", "/lists")).body!).data.map((l: { name: string }) => l.name);
  return { core, send, listNames, writes, logged, probe };
}

describe("write store", () => {
  it("stores a write and a read that created state before answering; not a refused write or a plain read", async () => {
    const { send, writes } = open();
    expect((await send("POST", "/lists", { name: "Kept" })).status).toBe(201);
    expect(writes.map((w) => w.all)).toEqual([false]);
    // The first List read creates the default List (a new id): stored too, once.
    await send("GET", "/lists");
    await send("GET", "/lists");
    expect(writes).toHaveLength(2);
    expect((await send("POST", "/lists", { name: "" })).status).toBe(400);
    await send("GET", "/people?limit=1");
    expect(writes).toHaveLength(2);
  });

  it("answers 500 and rolls back when the write cannot be saved", async () => {
    const { send, listNames, logged, probe } = open();
    await send("POST", "/lists", { name: "Kept" });
    probe.failing = true;
    const answer = await send("POST", "/lists", { name: "Lost" });
    expect([answer.status, JSON.parse(answer.body!).error.type]).toEqual([500, "server_error"]);
    expect(logged).toEqual(["sandbox state could not be saved"]);
    probe.failing = false;
    expect(await listNames()).toContain("Kept");
    expect(await listNames()).not.toContain("Lost");
  });

  it("rolls back a write whose handler threw, not one refused with a 4xx", async () => {
    const halfDone: Area = {
      name: "probe",
      handlers: {
        createList(req) {
          req.org.get(listsSlice).push({ name: req.body.name } as never);
          throw req.body.name === "refused" ? invalidRequest("refused") : new Error("boom");
        },
      },
    };
    const { core, send, logged } = open([halfDone]);
    const names = () =>
      core.ctx.state
        .org(core.keys[0]!.orgId!)!
        .get(listsSlice)
        .map((l) => l.name);
    expect((await send("POST", "/lists", { name: "thrown" })).status).toBe(500);
    expect(logged).toEqual(["sandbox handler failed"]);
    expect(names()).toEqual([]);
    expect((await send("POST", "/lists", { name: "refused" })).status).toBe(400);
    expect(names()).toEqual(["refused"]);
  });

  it("counts POST, PUT, PATCH and DELETE as writes", () => {
    expect(["POST", "PUT", "PATCH", "DELETE", "GET", "HEAD", "OPTIONS"].map(isWrite)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
