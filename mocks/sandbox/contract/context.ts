/**
 * The contracts between the sandbox core and its areas, typed from the spec (generated/schema.d.ts): an
 * area maps operation ids to handlers whose path params, query, JSON body and reply bodies are the
 * operation's own types, so a handler answering a body the spec does not allow fails the type check.
 */
import type { operations } from "../../../generated/schema.js";
import type { Graph } from "../data/graph.js";
import type { SandboxOptions } from "./options.js";
import type { SpecIndex } from "./spec.js";
import type { OrgState, SandboxState, SavedOrg } from "./state.js";

/** Every operation of the spec. */
export type OperationId = keyof operations;

type Op<Id extends OperationId> = operations[Id];
type Defined<T> = [T] extends [never] ? Record<string, never> : NonNullable<T>;

/** Path parameters of an operation (URL-decoded; validated against the spec). */
export type PathParams<Id extends OperationId> = Defined<Op<Id>["parameters"]["path"]>;
/** Query parameters declared by the spec, validated and coerced to their schema types. */
export type QueryParams<Id extends OperationId> = Defined<Op<Id>["parameters"]["query"]>;

type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : undefined;
/** The JSON request body (validated against the spec); undefined when the operation takes none or it is optional and absent. */
export type RequestBody<Id extends OperationId> =
  Op<Id> extends { requestBody: infer R }
    ? JsonContent<R>
    : Op<Id> extends { requestBody?: infer R }
      ? JsonContent<NonNullable<R>> | undefined
      : undefined;

type Responses<Id extends OperationId> = Op<Id>["responses"];
/** The JSON body of an operation's response for a status (undefined for a response without content). */
export type ResponseBody<Id extends OperationId, S extends keyof Responses<Id>> = JsonContent<Responses<Id>[S]>;

type Headers = Record<string, string>;
/** The success statuses an operation documents (errors are thrown as ApiError, not returned). */
type SuccessKey<Id extends OperationId> = Extract<keyof Responses<Id>, 200 | 201 | 202 | 203 | 204 | 206 | "2XX">;
type StatusOf<S> = S extends "2XX" ? 200 | 201 | 202 | 203 | 204 | 206 : S;
type ReplyFor<Id extends OperationId, S extends keyof Responses<Id>> =
  ResponseBody<Id, S> extends undefined
    ? { status: StatusOf<S>; body?: undefined; headers?: Headers }
    : { status: StatusOf<S>; body: ResponseBody<Id, S>; headers?: Headers };
type DefaultKey<Id extends OperationId> = 200 extends keyof Responses<Id>
  ? 200
  : "2XX" extends keyof Responses<Id>
    ? "2XX"
    : never;

/** What a handler answers: a documented success status with its body (status defaults to 200). */
export type SandboxReply<Id extends OperationId = OperationId> =
  | (Omit<ReplyFor<Id, DefaultKey<Id>>, "status"> & { status?: 200 })
  | { [S in SuccessKey<Id>]: ReplyFor<Id, S> }[SuccessKey<Id>];

/** A reply before typing by operation (the core's own answers: Prefer examples, control endpoints). */
export interface UntypedReply {
  status?: number;
  body?: unknown;
  headers?: Headers;
}

export interface SandboxRequest<Id extends OperationId = OperationId> {
  operationId: Id;
  params: PathParams<Id>;
  query: QueryParams<Id>;
  /** The raw query string (e.g. filter mode of setTargetMemberStatus reads the URL's filters). */
  rawQuery: URLSearchParams;
  body: RequestBody<Id>;
  /** The organization the key acts for. */
  org: OrgState;
}

export type Handler<Id extends OperationId = OperationId> = (
  req: SandboxRequest<Id>,
  ctx: SandboxContext,
) => SandboxReply<Id> | Promise<SandboxReply<Id>>;

/** Handlers keyed by operation id, each typed from its own operation: every operation of the spec has one. */
export type Handlers = { [Id in OperationId]: Handler<Id> };

/** The handlers one area serves: a part of Handlers (the areas together serve all of it, see areas/index.ts). */
export type AreaHandlers = Partial<Handlers>;

/** The operations a list of areas handles: the keys each area's handlers hold for certain (not optional). */
type HandledBy<Areas extends readonly Area[]> = Areas[number] extends infer A
  ? A extends Area
    ? { [K in keyof A["handlers"]]-?: object extends Pick<A["handlers"], K> ? never : K }[keyof A["handlers"]]
    : never
  : never;

/** The operations of the spec that none of `Areas` handles. */
export type MissingHandlers<Areas extends readonly Area[]> = Exclude<OperationId, HandledBy<Areas>>;

/**
 * The areas that serve the sandbox together, typed `Area[]` only when they handle every operation of the spec
 * (declare each area with `satisfies Area`, so its handlers' keys stay in its type). Otherwise the type names
 * each operation without a handler, and assigning it to `Area[]` fails tsc with it:
 * `Type '{ noHandlerFor: "getAccount"; }' is missing the following properties from type 'Area[]': ...`.
 */
export function everyOperationHandled<const Areas extends readonly Area[]>(
  areas: Areas,
): [MissingHandlers<Areas>] extends [never] ? Area[] : { noHandlerFor: MissingHandlers<Areas> } {
  return [...areas] as never;
}

/**
 * Where a host keeps the sandbox's state (the Node host: a SQLite file, --state-file; a browser host:
 * localStorage or the caller's own store). The core hands every acknowledged write to `write` as one change
 * and answers only once it returns: a write is kept whole or not at all.
 */
export interface StateStorage {
  /** Human-readable location (answered by POST /__sandbox/state/save, named in every load error). */
  location: string;
  /**
   * Everything stored, null when nothing is stored yet. The core checks all of it before use; a store that
   * cannot be read throws an Error naming the location and what to do.
   */
  load(): StoredState | null;
  /**
   * Takes the store for this sandbox once what load() returned passed every check (the Node host creates or
   * locks its file only then, so a refused file is never written); returns what the user should know (a file
   * mode tightened).
   */
  open?(): readonly string[];
  /** Keeps one change whole or not at all; returns (or resolves) once it is durable, throws when it is not kept. */
  write(change: StateChange): void | Promise<void>;
  /** Releases the store (the Node host's lock on its file). */
  close?(): void;
}

export interface StoredState {
  orgs: readonly SavedOrg[];
  /** The sandbox-wide items by name (the id sequence, events). */
  shared: Record<string, unknown>;
}

/** One acknowledged write: the organizations it changed (every organization when `all`) and the sandbox-wide items. */
export interface StateChange {
  orgs: readonly SavedOrg[];
  /** The change replaces the whole state (reset, control writes): organizations not in `orgs` are gone. */
  all: boolean;
  shared: Record<string, unknown>;
}

export interface SandboxContext {
  options: SandboxOptions;
  graph: Graph;
  state: SandboxState;
  spec: SpecIndex;
  /** Where the state is kept, when the host gave a storage. */
  storage: StateStorage | null;
  /** Reports an unexpected failure (never with request headers, so keys never reach a log). */
  logError(message: string, error: unknown): void;
  /** Reports what the user should know and the sandbox got past (a state file's mode tightened at start). */
  logWarning(message: string): void;
}

/** A control endpoint outside the API base path (not in the spec, no key, not rate-limited). */
export interface ControlRoute {
  method: "GET" | "POST";
  /** e.g. /__sandbox/reset */
  path: string;
  handle(body: unknown, ctx: SandboxContext): unknown;
}

/** One `advance(ms)` call, as its ticks see it (an area may key what it carries between them by it). */
export interface AdvanceRun {
  /** The sandbox instant the advance started at (epoch ms). */
  readonly from: number;
}

export interface Area {
  name: string;
  handlers: AreaHandlers;
  /** Control endpoints this area serves (any host gets them through the core). */
  control?: ControlRoute[];
  /** Called once when the core is created, after the stored state is loaded. */
  setup?(ctx: SandboxContext): void;
  /**
   * Time-driven work (jobs, events): called by the core's timer and by `advance(ms)`. `run` is the same object
   * for every tick of one `advance(ms)` (undefined for the timer's): no request comes between those ticks, so
   * what only ticks change may be carried from one of them to the next.
   */
  tick?(ctx: SandboxContext, run?: AdvanceRun): void;
  /** How often `tick` wants to run, in ms of the sandbox clock (null: never by itself). */
  tickEveryMs?(ctx: SandboxContext): number | null;
  /**
   * The earliest sandbox instant (epoch ms) at which `tick` has work, null for none: `advance(ms)` skips the
   * instants before it. An area with `tick` and no `nextDueAt` is ticked at every instant.
   */
  nextDueAt?(ctx: SandboxContext): number | null;
}
