/**
 * Per-test faults of the MSW host, by operationId: the next calls of an operation answer one of its
 * documented error statuses (with the spec's example, as `Prefer: code=` does), wait a given time, or fail
 * at the network level (MSW's `HttpResponse.error()`, what a dropped connection looks like to fetch).
 *
 *   sandbox.fail("createList", { status: 503 });        // the next createList only
 *   sandbox.delay("searchPeople", 2000, { times: Infinity });
 *   sandbox.networkError("getPerson");
 *   sandbox.respond("getPerson", { status: 200, body: { data: { ...person, headline: null } } });
 *   sandbox.reset();                                    // no faults left
 *
 * `respond` answers a documented status with the caller's body, typed from that status's response schema
 * and checked against it when it is declared (a body the spec does not allow is a TypeError at once).
 */
import type { operations } from "../../../../generated/schema.js";
import {
  createSpecChecker,
  describeViolation,
  violationFromAjv,
  type SpecChecker,
} from "../../../../contract-core/portable.js";
import type { CoreRequest } from "../../core/core.js";
import type { ResponseBody } from "../../contract/context.js";
import { responseFor, type SpecIndex } from "../../contract/spec.js";
import { operationMatcher } from "./msw-operations.js";

export type OperationId = keyof operations;

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type InRange<First extends 2 | 3 | 4 | 5> = `${First}${Digit}${Digit}` extends `${infer N extends number}` ? N : never;
/** A response key as the statuses it covers: 503 -> 503, "5XX" -> 500..599. */
type Covered<K> = K extends number ? K : K extends `${infer D extends 2 | 3 | 4 | 5}XX` ? InRange<D> : never;
/** The error statuses (4xx, 5xx) the spec documents for an operation. */
export type ErrorStatus<Op extends OperationId> = Extract<
  Covered<keyof operations[Op]["responses"]>,
  InRange<4> | InRange<5>
>;

type Responses<Op extends OperationId> = operations[Op]["responses"];
/** Every status the spec documents for an operation (a range such as "5XX" as the statuses it covers). */
export type DocumentedStatus<Op extends OperationId> = Covered<keyof Responses<Op>>;
/** The response key that documents a status: itself, else its range ("5XX"). */
type KeyOf<Op extends OperationId, S extends number> = S extends keyof Responses<Op>
  ? S
  : `${S}` extends `${infer D}${string}`
    ? Extract<`${D}XX`, keyof Responses<Op>>
    : never;
/** The JSON body the spec documents for an operation's status (undefined: the response has none). */
export type BodyFor<Op extends OperationId, S extends number> = ResponseBody<Op, KeyOf<Op, S>>;

/** A one-off answer: a documented status, its body typed from that status's schema, extra headers. */
export type RespondOptions<Op extends OperationId, S extends DocumentedStatus<Op>> = {
  status: S;
  /** Set on the answer (over the documented ones). */
  headers?: Record<string, string>;
} & FaultTimes &
  (BodyFor<Op, S> extends undefined ? { body?: undefined } : { body: BodyFor<Op, S> });

export interface FaultTimes {
  /** How many of the next calls (default 1; Infinity: every call until reset()). */
  times?: number;
}

type Effect =
  | { kind: "status"; status: number }
  | { kind: "respond"; status: number; body: unknown; headers: Record<string, string> }
  | { kind: "network" }
  | { kind: "delay"; ms: number };
interface Rule {
  operationId: string;
  effect: Effect;
  left: number;
}

/** The longest delay a timer can hold: 2^31 - 1 ms. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** What to do with one request: wait `delayMs`, then answer a status (with a given body), drop it, or go on. */
export interface Planned {
  delayMs: number;
  outcome: { status: number; respond?: { body: unknown; headers: Record<string, string> } } | "network" | null;
}

export interface SandboxFaults {
  /** The next `times` calls of the operation answer this documented error status. */
  fail<Op extends OperationId>(operationId: Op, options: { status: ErrorStatus<Op> } & FaultTimes): void;
  /** The next `times` calls of the operation take `ms` longer. */
  delay(operationId: OperationId, ms: number, options?: FaultTimes): void;
  /** The next `times` calls of the operation fail at the network level (fetch rejects). */
  networkError(operationId: OperationId, options?: FaultTimes): void;
  /**
   * The next `times` calls of the operation answer this documented status with `body` (typed and checked
   * against that status's schema) and the documented headers plus `headers`.
   */
  respond<Op extends OperationId, S extends DocumentedStatus<Op>>(
    operationId: Op,
    options: RespondOptions<Op, S>,
  ): void;
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
  const match = operationMatcher(spec);
  let rules: Rule[] = [];
  let checker: SpecChecker | undefined;
  const operation = (id: string) => {
    const op = spec.byId.get(id);
    if (!op) throw new TypeError(`No operation ${JSON.stringify(id)} in the spec`);
    return op;
  };
  const add = (operationId: string, effect: Effect, options?: FaultTimes) => {
    operation(operationId);
    rules.push({ operationId, effect, left: times(options) });
  };
  const documented = (operationId: string, value: unknown, from: number) => {
    const status = Number(value);
    const op = operation(operationId);
    if (!(status >= from && status <= 599) || !responseFor(op, status))
      throw new TypeError(
        `${operationId} does not document status ${String(value)} (documented: ${Object.keys(op.responses).join(", ")})`,
      );
    return { status, response: responseFor(op, status)! };
  };
  const first = (id: string, delays: boolean) =>
    rules.find((r) => r.operationId === id && r.left > 0 && (r.effect.kind === "delay") === delays);
  return {
    fail(operationId, options) {
      const { status } = documented(operationId, options?.status, 400);
      add(operationId, { kind: "status", status }, options);
    },
    respond(operationId, options) {
      const { status, response } = documented(operationId, options?.status, 100);
      const schema = response.content?.["application/json"]?.schema;
      let body: unknown = options.body;
      if (schema && body === undefined) throw new TypeError(`${operationId} ${status} needs a body`);
      if (!schema && body !== undefined) throw new TypeError(`${operationId} ${status} documents no body`);
      if (schema) {
        // Checked and kept as it will be sent: JSON (a property set to `undefined` is left out, and a later
        // change to the caller's object changes nothing).
        const text = JSON.stringify(body) as string | undefined;
        if (text === undefined) throw new TypeError(`respond(${operationId}, ${status}): the body is not a JSON value`);
        body = JSON.parse(text);
        const error = (checker ??= createSpecChecker(spec.doc)).compile(schema)(body);
        if (error)
          throw new TypeError(
            `respond(${operationId}, ${status}): the body does not match the spec: ` +
              describeViolation(violationFromAjv("body", error)),
          );
      }
      const headers = { ...options.headers };
      add(operationId, { kind: "respond", status, body, headers }, options);
    },
    delay(operationId, ms, options) {
      // setTimeout's longest wait (about 24.8 days); a longer one would fire at once.
      if (!(ms >= 0 && ms <= MAX_DELAY_MS))
        throw new TypeError(`delay needs ms from 0 to ${MAX_DELAY_MS}, got ${String(ms)}`);
      add(operationId, { kind: "delay", ms }, options);
    },
    networkError(operationId, options) {
      add(operationId, { kind: "network" }, options);
    },
    take(request) {
      const planned: Planned = { delayMs: 0, outcome: null };
      if (rules.length === 0) return planned;
      const found = match(request.method, request.url);
      if (!found) return planned;
      const id = found.operationId;
      for (const rule of [first(id, true), first(id, false)]) {
        if (!rule) continue;
        rule.left -= 1;
        const e = rule.effect;
        if (e.kind === "delay") planned.delayMs = e.ms;
        else if (e.kind === "network") planned.outcome = "network";
        else if (e.kind === "respond")
          planned.outcome = { status: e.status, respond: { body: e.body, headers: e.headers } };
        else planned.outcome = { status: e.status };
      }
      rules = rules.filter((r) => r.left > 0);
      return planned;
    },
    clear() {
      rules = [];
    },
  };
}
