/**
 * Test helpers of the stateful side: an in-process sandbox on the fixture graph (every response validated
 * against the spec by the harness) with a pinned clock, jobs only moved by the control endpoint, and
 * no failures unless a test asks for them.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import type { OperationId } from "../contract/context.js";
import { fixtureGraphInput } from "../data/fixture.js";
import type { SandboxOptions } from "../contract/options.js";
import { openSandbox, type KeyName, type TestSandbox } from "./harness.js";

export const T0 = Date.parse("2026-11-22T08:00:00.000Z");

export interface StatefulSandbox extends TestSandbox {
  clock: { now: number };
  /** Moves the pinned clock forward. */
  tick(ms?: number): void;
  reset(): Promise<void>;
  /** POST /targets; returns the Target. */
  createTarget(body: Record<string, unknown>, key?: KeyName): Promise<any>;
  /** Steps the Target's job to its end (optionally forcing the outcome). */
  finish(targetId: string, outcome?: "done" | "partial" | "failed"): Promise<any>;
  /** A company Target on Northwind Labs whose discovery job is done. */
  northwind(body?: Record<string, unknown>, key?: KeyName): Promise<any>;
  members(targetId: string, query?: string, key?: KeyName): Promise<any[]>;
  emit(body: Record<string, unknown>): Promise<any[]>;
}

export async function openStateful(options: Partial<SandboxOptions> = {}): Promise<StatefulSandbox> {
  const clock = { now: T0 };
  const sb = await openSandbox({
    graph: fixtureGraphInput(),
    jobSpeed: 0,
    jobFailureRate: 0,
    now: () => clock.now,
    ...options,
  });
  const kit: StatefulSandbox = {
    ...sb,
    clock,
    tick(ms = 1000) {
      clock.now += ms;
    },
    async reset() {
      const res = await sb.control("POST", "/__sandbox/reset");
      if (res.status !== 200) throw new Error(`reset failed: ${res.status}`);
      clock.now = T0;
    },
    async createTarget(body, key = "acme") {
      const res = await sb.request("POST", "/targets", { key, body });
      if (res.status !== 202 && res.status !== 200)
        throw new Error(`createTarget: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async finish(targetId, outcome) {
      kit.tick();
      const res = await sb.control("POST", "/__sandbox/jobs/advance", {
        target_id: targetId,
        until: "finished",
        ...(outcome ? { outcome } : {}),
      });
      if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
      kit.tick();
      return res.body.data;
    },
    async northwind(body = {}, key = "acme") {
      const t = await kit.createTarget({ input: "Northwind Labs", ...body }, key);
      await kit.finish(t.id);
      return (await sb.get(`/targets/${t.id}`, { key })).body.data;
    },
    async members(targetId, query = "", key = "acme") {
      const res = await sb.get(`/targets/${targetId}/members?limit=500${query ? `&${query}` : ""}`, { key });
      if (res.status !== 200) throw new Error(`members: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async emit(body) {
      kit.tick(10);
      const res = await sb.control("POST", "/__sandbox/events/emit", body);
      if (res.status !== 200) throw new Error(`emit: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
  };
  return kit;
}

/** Names in the fixture's Northwind Labs orbit (graph people with a Northwind position, flagged Dana excluded). */
export const NORTHWIND_CURRENT = ["Jonas Weber", "Kwame Mensah", "Priya Raman"];
export const NORTHWIND_ALUMNI = ["Amara Okafor", "Mei Chen", "Olivia Smith"];

/**
 * One sandbox per test file: opened before the tests, closed after them, reset to the seed before each test
 * unless `resetEach` is false. The returned object forwards to the sandbox.
 */
export function useStatefulSandbox({ resetEach = true } = {}): StatefulSandbox {
  let current: StatefulSandbox | undefined;
  beforeAll(async () => {
    current = await openStateful();
  });
  afterAll(() => current?.close());
  if (resetEach) beforeEach(() => current!.reset());
  return new Proxy({} as StatefulSandbox, {
    get(_target, prop) {
      if (!current) throw new Error("the sandbox is not open yet (use it inside a test or hook)");
      return current[prop as keyof StatefulSandbox];
    },
  });
}

/** "Not visible to the organization": the 404 not_found the spec documents for the operation. */
export function expectNotVisible(
  sb: StatefulSandbox,
  res: { status: number; body: any },
  operationId: OperationId,
): void {
  expect(sb.ctx.spec.byId.get(operationId)?.responses["404"], `${operationId} documents 404`).toBeDefined();
  expect(res.status, operationId).toBe(404);
  expect(res.body.error.type).toBe("not_found");
  expect(res.body.error.message).toMatch(/not found/);
}
