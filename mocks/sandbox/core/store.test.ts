/** The store step: a write is stored before it is acknowledged, and a write that is not acknowledged is rolled back. */
import { describe, expect, it } from "vitest";
import type { Area, SandboxContext } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import type { OrgState } from "../contract/state.js";
import { createWriteStore, isWrite } from "./store.js";

function harness(persist: () => Promise<void>) {
  const calls: string[] = [];
  const area: Area = {
    name: "probe",
    handlers: {},
    persist: async (_ctx, org, write) => {
      calls.push(`persist ${org ? "org" : "null"} ${write}`);
      await persist();
    },
    rollback: () => void calls.push("rollback"),
  };
  const logged: string[] = [];
  const ctx = { logError: (m: string) => void logged.push(m) } as unknown as SandboxContext;
  return { store: createWriteStore([area, { name: "plain", handlers: {} }], ctx), calls, logged };
}
const ok = { status: 201, headers: {}, body: "{}" };
const org = {} as OrgState;

describe("write store", () => {
  it("stores a write and a read that acted for an organization before answering; not a refused one", async () => {
    const { store, calls } = harness(async () => {});
    expect(await store.acknowledge({ response: ok, org }, "POST")).toBe(ok);
    await store.acknowledge({ response: { ...ok, status: 200 }, org }, "GET");
    await store.acknowledge({ response: ok, org: null }, "GET");
    await store.acknowledge({ response: { ...ok, status: 400 }, org }, "POST");
    expect(calls).toEqual(["persist org true", "persist org false"]);
  });

  it("answers 500 and rolls back when the write cannot be saved", async () => {
    const { store, calls, logged } = harness(async () => {
      throw new Error("disk full");
    });
    const answer = await store.acknowledge({ response: ok, org }, "PUT");
    expect([answer.status, JSON.parse(answer.body!).error.type]).toEqual([500, "server_error"]);
    expect(calls).toEqual(["persist org true", "rollback"]);
    expect(logged).toEqual(["sandbox state could not be saved"]);
  });

  it("rolls back a write that threw or failed with a 5xx, not a 4xx or a read", () => {
    const { store, calls } = harness(async () => {});
    store.failed(new Error("boom"), "POST");
    store.failed(new ApiError(500, "server_error", "x"), "DELETE");
    store.failed(new ApiError(409, "conflict", "x"), "POST");
    store.failed(new Error("boom"), "GET");
    expect(calls).toEqual(["rollback", "rollback"]);
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
