/**
 * Per-test faults of the MSW host, by operationId: the next calls of an operation answer one of its
 * documented error statuses (with the spec's example, as `Prefer: code=` does), wait a given time, or fail
 * at the network level (MSW's `HttpResponse.error()`, what a dropped connection looks like to fetch).
 *
 *   sandbox.fail("createList", { status: 503 });        // the next createList only
 *   sandbox.delay("searchPeople", 2000, { times: Infinity });
 *   sandbox.networkError("getPerson");
 *   sandbox.reset();                                    // no faults left
 */
import type { operations } from "../../../../generated/schema.js";
import { Router } from "../../../../contract-core/portable.js";
import type { CoreRequest } from "../../core/core.js";
import { responseFor, type SpecIndex } from "../../contract/spec.js";

export type OperationId = keyof operations;

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type InRange<First extends 4 | 5> = `${First}${Digit}${Digit}` extends `${infer N extends number}` ? N : never;
/** A response key as the statuses it covers: 503 -> 503, "5XX" -> 500..599. */
type Covered<K> = K extends number ? K : K extends "4XX" ? InRange<4> : K extends "5XX" ? InRange<5> : never;
/** The error statuses (4xx, 5xx) the spec documents for an operation. */
export type ErrorStatus<Op extends OperationId> = Extract<
  Covered<keyof operations[Op]["responses"]>,
  InRange<4> | InRange<5>
>;

export interface FaultTimes {
  /** How many of the next calls (default 1; Infinity: every call until reset()). */
  times?: number;
}

type Effect = { kind: "status"; status: number } | { kind: "network" } | { kind: "delay"; ms: number };
interface Rule {
  operationId: string;
  effect: Effect;
  left: number;
}

/** What to do with one request: wait `delayMs`, then answer a status, drop the connection, or go on. */
export interface Planned {
  delayMs: number;
  outcome: { status: number } | "network" | null;
}

export interface SandboxFaults {
  /** The next `times` calls of the operation answer this documented error status. */
  fail<Op extends OperationId>(operationId: Op, options: { status: ErrorStatus<Op> } & FaultTimes): void;
  /** The next `times` calls of the operation take `ms` longer. */
  delay(operationId: OperationId, ms: number, options?: FaultTimes): void;
  /** The next `times` calls of the operation fail at the network level (fetch rejects). */
  networkError(operationId: OperationId, options?: FaultTimes): void;
}

export interface FaultTable extends SandboxFaults {
  /** The faults that apply to this request (each counts one call off). */
  take(request: CoreRequest): Planned;
  clear(): void;
}

function times(options: FaultTimes | undefined): number {
  const n = options?.times ?? 1;
  if (!(n === Infinity || (Number.isInteger(n) && n >= 1)))
    throw new TypeError(`times must be a positive integer or Infinity, got ${String(n)}`);
  return n;
}

/** The fault table of one sandbox; operations are matched as the core routes them. */
export function createFaultTable(spec: SpecIndex): FaultTable {
  const router = new Router(spec.basePath, spec.operations, (op) => op);
  let rules: Rule[] = [];
  const operation = (id: string) => {
    const op = spec.byId.get(id);
    if (!op) throw new TypeError(`No operation ${JSON.stringify(id)} in the spec`);
    return op;
  };
  const add = (operationId: string, effect: Effect, options?: FaultTimes) => {
    operation(operationId);
    rules.push({ operationId, effect, left: times(options) });
  };
  const first = (id: string, delays: boolean) =>
    rules.find((r) => r.operationId === id && r.left > 0 && (r.effect.kind === "delay") === delays);
  return {
    fail(operationId, options) {
      const status = Number(options?.status);
      const op = operation(operationId);
      if (!(status >= 400 && status <= 599) || !responseFor(op, status))
        throw new TypeError(
          `${operationId} does not document status ${String(options?.status)} (documented: ${Object.keys(op.responses).join(", ")})`,
        );
      add(operationId, { kind: "status", status }, options);
    },
    delay(operationId, ms, options) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new TypeError(`delay needs a non-negative ms, got ${String(ms)}`);
      add(operationId, { kind: "delay", ms }, options);
    },
    networkError(operationId, options) {
      add(operationId, { kind: "network" }, options);
    },
    take(request) {
      const planned: Planned = { delayMs: 0, outcome: null };
      if (rules.length === 0) return planned;
      const path = new URL(request.url, "http://any.invalid").pathname;
      const method = request.method.toUpperCase() === "HEAD" ? "GET" : request.method.toUpperCase();
      const found = router.match(method, path);
      if (!found.ok) return planned;
      const id = found.route.operationId;
      for (const rule of [first(id, true), first(id, false)]) {
        if (!rule) continue;
        rule.left -= 1;
        const e = rule.effect;
        if (e.kind === "delay") planned.delayMs = e.ms;
        else planned.outcome = e.kind === "network" ? "network" : { status: e.status };
      }
      rules = rules.filter((r) => r.left > 0);
      return planned;
    },
    clear() {
      rules = [];
    },
  };
}
