/**
 * The contracts between the server core and the route areas. An *area* (routes/<area>.ts) maps
 * operationIds of the spec to handlers; the server routes, authenticates and validates each request from
 * the spec before the handler sees it.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "./auth.js";
import type { Graph } from "./data/graph.js";
import type { SandboxOptions } from "./options.js";
import type { SpecIndex } from "./spec.js";
import type { OrgState, SandboxState } from "./state.js";

export type OperationId =
  | "searchPeople" | "getPerson" | "listPersonCoworkers" | "listSimilarPeople"
  | "searchCompanies" | "getCompanyOrbit" | "suggest" | "getAccount"
  | "createSavedQuery" | "listSavedQueries" | "getSavedQuery"
  | "listLists" | "createList" | "getList" | "deleteList" | "addListMembers" | "updateListMember"
  | "listTargets" | "createTarget" | "getTarget" | "updateTarget" | "deleteTarget" | "retryTarget"
  | "listTargetMembers" | "setTargetMemberStatus"
  | "listEvents" | "getNotificationPreferences" | "updateNotificationPreferences" | "sendTestDigest";

export interface SandboxRequest {
  operationId: OperationId;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  /** Query parameters declared by the spec, validated and coerced to their schema types. */
  query: Record<string, unknown>;
  /** The raw query string (e.g. filter mode of setTargetMemberStatus reads the URL's filters). */
  rawQuery: URLSearchParams;
  /** JSON body, validated against the operation's request body schema (undefined when none). */
  body: unknown;
  headers: IncomingHttpHeaders;
  org: OrgState;
  auth: AuthContext;
}

export interface SandboxReply {
  /** Default 200. */
  status?: number;
  /** Omitted for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: SandboxRequest, ctx: SandboxContext) => SandboxReply | Promise<SandboxReply>;

/** Hooks the read side needs from the stateful side (part 2 sets them in its area's `setup`). */
export interface AccountHooks {
  /** Profile URLs of the organization's watching Target members (any order, duplicates allowed). */
  watchingUrls(org: OrgState): Iterable<string>;
  /** True when the organization stored a default webhook URL. */
  webhookConfigured(org: OrgState): boolean;
}

export interface SandboxContext {
  options: SandboxOptions;
  graph: Graph;
  state: SandboxState;
  spec: SpecIndex;
  hooks: AccountHooks;
}

export interface Area {
  name: string;
  handlers: Partial<Record<OperationId, Handler>>;
  /** Called once before listening: set hooks, register routes outside /v1 (e.g. /__sandbox/*), start timers. */
  setup?(app: FastifyInstance, ctx: SandboxContext): void | Promise<void>;
  /** Called on close (stop timers, save the state file). */
  close?(ctx: SandboxContext): void | Promise<void>;
}
