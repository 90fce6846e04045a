/**
 * The contracts between the sandbox core and its areas, typed from the spec (generated/schema.d.ts): an
 * area maps operation ids to handlers whose path params, query, JSON body and reply bodies are the
 * operation's own types, so a handler answering a body the spec does not allow fails the type check.
 */
import type { operations } from "../../generated/schema.js";
import type { AuthContext, RequestHeaders } from "./auth.js";

export type { RequestHeaders };
import type { Graph } from "./data/graph.js";
import type { SandboxOptions } from "./options.js";
import type { SpecIndex } from "./spec.js";
import type { OrgState, SandboxState } from "./state.js";

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
  /** Lower-case header names. */
  headers: RequestHeaders;
  org: OrgState;
  auth: AuthContext;
}

export type Handler<Id extends OperationId = OperationId> = (
  req: SandboxRequest<Id>,
  ctx: SandboxContext,
) => SandboxReply<Id> | Promise<SandboxReply<Id>>;

/** Handlers keyed by operation id, each typed from its own operation. */
export type Handlers = { [Id in OperationId]?: Handler<Id> };

/** Hooks the read side needs from the stateful side (set by areas in `setup`). */
export interface AccountHooks {
  /** Profile URLs of the organization's watching Target members (any order, duplicates allowed). */
  watchingUrls(org: OrgState): Iterable<string>;
  /** True when the organization stored a default webhook URL. */
  webhookConfigured(org: OrgState): boolean;
}

/** Where the state file lives: injected by the host (a file in Node, e.g. localStorage in a browser). */
/**
 * Where a host keeps the sandbox's state: a snapshot plus an append-only journal of the writes made since
 * (the Node host: files beside --state-file; a browser host: its own storage). The core awaits `append`
 * before it answers a write, so an acknowledged write is durable once `append` resolves.
 */
export interface StateStorage {
  /** Human-readable location (answered by POST /__sandbox/state/save, named in every load error). */
  location: string;
  /** The snapshot (null when nothing is stored yet) and the journal records written after it, oldest first. */
  read(): StoredState;
  /** Appends one journal record (one line of JSON text); resolves once it is durable. */
  append(record: string): Promise<void>;
  /** Replaces the snapshot with `snapshot` and empties the journal (at start and on shutdown). */
  compact(snapshot: string): void;
}

export interface StoredState {
  snapshot: string | null;
  /** Each record's text and where it is (`line 3 of /tmp/s.json.journal`), for error messages. */
  journal: readonly { text: string; where: string }[];
  /** What the host skipped and the user should know (a torn last record after a crash). */
  warnings: readonly string[];
}

export interface SandboxContext {
  options: SandboxOptions;
  graph: Graph;
  state: SandboxState;
  spec: SpecIndex;
  hooks: AccountHooks;
  /** Persistence of the state file, when the host gave one. */
  storage: StateStorage | null;
  /** Reports an unexpected failure (never with request headers, so keys never reach a log). */
  logError(message: string, error: unknown): void;
  /** Reports what the user should know and the sandbox got past (a torn journal record skipped at start). */
  logWarning(message: string): void;
}

/** A control endpoint outside the API base path (not in the spec, no key, not rate-limited). */
export interface ControlRoute {
  method: "GET" | "POST";
  /** e.g. /__sandbox/reset */
  path: string;
  handle(body: unknown, ctx: SandboxContext): unknown;
}

export interface Area {
  name: string;
  handlers: Handlers;
  /** Control endpoints this area serves (any host gets them through the core). */
  control?: ControlRoute[];
  /** Called once when the core is created: set hooks, load state, start timers. */
  setup?(ctx: SandboxContext): void;
  /** Time-driven work (jobs, events): called by the core's timer and by `advance(ms)`. */
  tick?(ctx: SandboxContext): void;
  /** How often `tick` wants to run, in ms of the sandbox clock (null: never by itself). */
  tickEveryMs?(ctx: SandboxContext): number | null;
  /** Called on close (stop work, save the state file). */
  close?(ctx: SandboxContext): void;
  /**
   * Makes a write durable before the core acknowledges it: `org` is the organization the write changed,
   * null for a sandbox-wide change (control endpoints).
   */
  persist?(ctx: SandboxContext, org: OrgState | null): Promise<void>;
}
