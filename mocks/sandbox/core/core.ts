/**
 * The transport-free sandbox: `createSandboxCore(options)` answers plain requests
 * (`{ method, url, headers, body }` -> `{ status, headers, body }`) with no server, no Node API and no
 * framework, so a Fastify server, MSW request handlers or a test can host the same behaviour.
 *
 * Every request goes: CORS -> preflight -> rate limit (under the API base path) -> route -> JSON body ->
 * authentication -> organization access (402) -> Prefer code -> request validation (from the spec) ->
 * the area's handler. Control endpoints (/__sandbox/*) are served here too. Every error becomes the
 * reference's error shape; nothing escapes as an exception.
 */
import { authenticate, KEYS, presentedKey, SEED_ORGS, type SandboxKey } from "../contract/auth.js";
import type {
  AccountHooks,
  Area,
  ControlRoute,
  Handler,
  OperationId,
  RequestHeaders,
  SandboxContext,
  StateStorage,
  UntypedReply,
} from "../contract/context.js";
import { corsHeaders } from "./cors.js";
import { generatedGraph } from "../data/generate.js";
import { buildGraph, type Graph } from "../data/graph.js";
import { searchIndexOf } from "../domain/search-index.js";
import { ApiError, invalidRequest, notFound, paymentRequired, unauthorized } from "../contract/errors.js";
import { resolveOptions, type SandboxOptions } from "../contract/options.js";
import {
  bodyTooDeepMessage,
  jsonTooDeep,
  normalizeRequestPath,
  parsePrefer,
  preferenceAppliedHeader,
  queryRecord,
  requestWording,
  Router,
  type Preferences,
  type PreferResult,
} from "../../../contract-core/portable.js";
import { choosesExample, preferredReply, SANDBOX_PREFERENCES } from "./prefer.js";
import { createRateLimiter } from "./ratelimit.js";
import { areas as allAreas } from "../areas/index.js";
import { indexSpec, type JsonObject, type OperationSpec, type SpecIndex } from "../contract/spec.js";
import { SandboxState, type OrgState } from "../contract/state.js";
import { useIdMode, type IdMode } from "../areas/area-helpers.js";
export type { IdMode } from "../areas/area-helpers.js";
import { compileRequestValidators } from "./validation.js";

export interface CoreRequest {
  method: string;
  /** Path and query (/v1/people?limit=2), or an absolute URL. */
  url: string;
  /** Lower-case header names. */
  headers: RequestHeaders;
  /**
   * Raw body; undefined when the request has none. A host that streams gives a reader instead, called only
   * once authentication and organization access passed; it resolves null when the body is over BODY_LIMIT.
   */
  body?: string | Uint8Array | BodyReader;
  /** The client's address (rate limit key); hosts without one share a single window. */
  remoteAddress?: string;
}

/** An answer: a JSON body is the text of `JSON.stringify` of the handler's object. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * The sandbox clock: a function, or a fixed instant (a Date, an ISO 8601 string, epoch ms) that only
 * `advance(ms)` moves, so the same seed and steps write the same timestamps.
 */
export type ClockInput = (() => number | Date) | Date | string | number;

/** The clock as epoch ms; an unreadable instant is a TypeError naming it. */
export function clockOf(input: ClockInput): () => number {
  if (typeof input === "function") return () => +input();
  const ms = typeof input === "string" ? Date.parse(input) : +input;
  if (!Number.isFinite(ms))
    throw new TypeError(`now must be a Date, an ISO 8601 date-time or a function, got ${String(input)}`);
  return () => ms;
}

export interface CoreOptions extends Partial<Omit<SandboxOptions, "now">> {
  /** Wall clock of the stateful areas (default Date.now); `advance(ms)` adds to it. */
  now?: ClockInput;
  /** Created ids: "random" (default) unique across instances, "sequential" the same for the same steps. */
  ids?: IdMode;
  /** The bundled spec document (generated/openapi.json, parsed). */
  spec: JsonObject;
  /** Areas to serve (default: every area of the sandbox). */
  areas?: Area[];
  /** Persistence of the state file (the host's: a file in Node, storage in a browser). */
  storage?: StateStorage | null;
  /** false: no background timer; time moves only with `advance(ms)` (deterministic tests). Default true. */
  timers?: boolean;
  /** Unexpected failures (a handler that threw). Default: silent. */
  onError?: (message: string, error: unknown) => void;
  /** What the sandbox got past and the user should know (a state file's mode tightened at start). Default: silent. */
  onWarning?: (message: string) => void;
  /**
   * Stateless mode: every operation answers with a spec example (the one `choose` names for the request,
   * else the default 2xx example) instead of its handler, as the static mock does: any presented key is
   * accepted, requests are still validated and `Prefer` still picks. Pass `areas: []` and a tiny graph with it.
   */
  examples?: { choose(method: string, path: string, query: Record<string, string | string[]>): string | undefined };
}

export interface SandboxCore {
  handle(request: CoreRequest): Promise<CoreResponse>;
  /** The test keys. */
  keys: readonly SandboxKey[];
  /** Back to the seed (as POST /__sandbox/reset). */
  reset(): void;
  /** Moves the sandbox clock forward and runs the time-driven work (jobs, events) that falls due. */
  advance(ms: number): void;
  /** Stops the timer and saves the state file (when storage was given). */
  close(): void;
  ctx: SandboxContext;
  graph: Graph;
  /** Time spent building the graph (generation and indexes), in ms. */
  graphMs: number;
}

/** Methods whose success is stored before it is answered. */
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A routed answer and the organization it acted for (null: control endpoints, documented examples). */
interface Answered {
  response: CoreResponse;
  org: OrgState | null;
}

/** Largest accepted request body, in bytes (contract-core's MAX_BODY_BYTES; the core stays free of Node imports). */
export const BODY_LIMIT = 1_048_576;

/** Reads a streamed body, giving up at BODY_LIMIT bytes (null). */
export type BodyReader = () => Promise<string | Uint8Array | null>;
const JSON_TYPE = "application/json; charset=utf-8";
const JSON_MEDIA = /^application\/([a-z.+-]*\+)?json$/i;
const NO_HOOKS: AccountHooks = { watchingUrls: () => [], webhookConfigured: () => false };

function loadGraph(opts: SandboxOptions): Graph {
  return opts.graph
    ? buildGraph(opts.graph)
    : generatedGraph({ people: opts.people, companies: opts.companies, seed: opts.seed });
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { ...headers, "content-type": JSON_TYPE }, body: JSON.stringify(value) };
}

function errorResponse(error: unknown, onUnexpected: (e: unknown) => void): CoreResponse {
  if (error instanceof ApiError) return json(error.status, error.body, error.headers);
  onUnexpected(error);
  return json(500, new ApiError(500, "server_error", "The sandbox failed to answer this request").body);
}

/** The body as text, read (when streamed) only now; a 400 over BODY_LIMIT bytes. */
async function text(raw: CoreRequest["body"]): Promise<string> {
  const body = typeof raw === "function" ? await raw() : raw;
  if (body === undefined) return "";
  const tooLarge = invalidRequest(`request body exceeds ${BODY_LIMIT} bytes`);
  if (body === null) throw tooLarge;
  if (typeof body !== "string") {
    if (body.length > BODY_LIMIT) throw tooLarge;
    return new TextDecoder().decode(body);
  }
  if (body.length > BODY_LIMIT || new TextEncoder().encode(body).length > BODY_LIMIT) throw tooLarge;
  return body;
}

/** JSON bodies; an empty body is "no body" (POST /targets/{id}/retry), anything unparsable is a 400. */
export async function parseJsonBody(
  method: string,
  headers: RequestHeaders,
  raw: CoreRequest["body"],
): Promise<unknown> {
  if (method === "GET" || method === "HEAD") return undefined;
  const body = await text(raw);
  const type = headers["content-type"];
  const contentType = Array.isArray(type) ? type[0] : type;
  if (contentType === undefined && body === "") return undefined;
  const media = (contentType ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA.test(media)) throw invalidRequest("Content-Type must be application/json");
  if (body.trim() === "") return undefined;
  // Before parsing: a value thousands of levels deep parses, then overflows every recursive reader after it.
  if (jsonTooDeep(body)) throw invalidRequest(bodyTooDeepMessage());
  try {
    return JSON.parse(body);
  } catch (error) {
    throw invalidRequest(requestWording.invalidJsonBody((error as Error).message));
  }
}

/**
 * Control writes change or wipe every organization, so a page on another site must not be able to send them:
 * they need a JSON content type or an X-Sandbox-Control header (neither passes without CORS approval, which
 * the preflight never gives to a foreign origin for these paths), and a request with a foreign Origin is a 403.
 */
/** The reference has no 403 error type (control endpoints are outside it): the general one, with the status that says why. */
const forbidden = (message: string) => new ApiError(403, "invalid_request", message);

function refuseCrossSite(headers: RequestHeaders): void {
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const origin = one("origin");
  const host = one("host");
  if (origin !== undefined && origin !== "null" && host !== undefined) {
    let originHost: string | null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost !== host.toLowerCase())
      throw forbidden(`Control endpoints answer only their own origin, not ${origin.slice(0, 200)}`);
  } else if (origin !== undefined) {
    throw forbidden("Control endpoints answer only their own origin");
  }
  const media = (one("content-type") ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA.test(media) && one("x-sandbox-control") === undefined)
    throw invalidRequest("Control writes need Content-Type: application/json (or an X-Sandbox-Control header)");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSandboxCore(input: CoreOptions): SandboxCore {
  const {
    spec: doc,
    areas = allAreas,
    storage = null,
    timers = true,
    onError,
    onWarning,
    examples,
    ids = "random",
    now,
    ...partial
  } = input;
  const base = resolveOptions({ ...partial, ...(now === undefined ? {} : { now: clockOf(now) }) });
  let offset = 0;
  const options: SandboxOptions = { ...base, now: () => base.now() + offset };
  const spec: SpecIndex = indexSpec(doc);
  const t0 = performance.now();
  const graph = loadGraph(options);
  searchIndexOf(graph);
  const graphMs = performance.now() - t0;
  const state = new SandboxState(graph, SEED_ORGS, options.maxPlatformOrgs);
  useIdMode(state, ids);
  const logError = (message: string, error: unknown) => onError?.(message, error);
  const ctx: SandboxContext = {
    options,
    graph,
    state,
    spec,
    hooks: { ...NO_HOOKS },
    storage,
    logError,
    logWarning: (m) => onWarning?.(m),
  };
  const persisting = areas.filter((a) => a.persist);
  /** The write is durable once every persisting area (the state storage) has it: only then is it acknowledged. */
  async function persist(org: OrgState | null, write: boolean): Promise<void> {
    for (const area of persisting) await area.persist!(ctx, org, write);
  }
  /** A write that is not acknowledged changes nothing: the areas put memory back to the stored state. */
  function rollback(): void {
    for (const area of areas) {
      try {
        area.rollback?.(ctx);
      } catch (error) {
        logError("sandbox state could not be restored after a failed write", error);
      }
    }
  }

  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit, options.now) : null;
  const validators = compileRequestValidators(spec);
  const handlers = new Map<string, Handler>();
  const control = new Map<string, ControlRoute>();
  for (const area of areas) {
    for (const [id, h] of Object.entries(area.handlers)) if (h) handlers.set(id, h as Handler);
    for (const route of area.control ?? []) control.set(`${route.method} ${route.path}`, route);
  }
  const router = new Router(spec.basePath, spec.operations, (op) => op);

  for (const area of areas) area.setup?.(ctx);
  const tickers = areas.filter((a) => a.tick);
  const tickEvery = Math.min(...tickers.map((a) => a.tickEveryMs?.(ctx) ?? Infinity));
  const tick = () => {
    for (const area of tickers) {
      try {
        area.tick!(ctx);
      } catch (err) {
        logError("sandbox timer failed", err);
      }
    }
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  if (timers && Number.isFinite(tickEvery)) {
    timer = setInterval(tick, tickEvery);
    (timer as { unref?: () => void }).unref?.();
  }

  async function answer(
    op: OperationSpec,
    params: Record<string, string>,
    rawQuery: URLSearchParams,
    request: CoreRequest,
    label: string,
    prefer: PreferResult,
  ): Promise<Answered> {
    // authenticate -> organization access -> validate -> handle, for every operation: a missing key is a 401
    // and a locked organization a 402 whatever the body, its content type or the Prefer header.
    if (examples) {
      if (!presentedKey(request.headers)) throw unauthorized();
      const body = await parseJsonBody(request.method.toUpperCase(), request.headers, request.body);
      if (!prefer.ok) throw invalidRequest(prefer.message);
      return {
        response: answerFromExamples(op, params, rawQuery, body, label, prefer.preferences, examples.choose),
        org: null,
      };
    }
    const auth = authenticate(request.headers, state);
    if (!auth.org.info.accessAllowed && op.operationId !== "getAccount") throw paymentRequired();
    // A read has no body: no await (a turn of the event loop per request) for nothing.
    const method = request.method.toUpperCase();
    const body =
      method === "GET" || method === "HEAD" ? undefined : await parseJsonBody(method, request.headers, request.body);
    if (!prefer.ok) throw invalidRequest(prefer.message);
    if (choosesExample(prefer.preferences))
      return { response: reply(preferredReply(spec, op, label, prefer.preferences)), org: null };
    const v = validators.get(op.operationId)!;
    const handler = handlers.get(op.operationId);
    if (!handler) throw new ApiError(500, "server_error", `${op.operationId} is not implemented in the sandbox yet`);
    const answered = handler(
      {
        operationId: op.operationId as OperationId,
        params: v.params(params) as never,
        query: v.query(rawQuery) as never,
        rawQuery,
        body: v.body(body) as never,
        headers: request.headers,
        org: auth.org,
        auth,
      },
      ctx,
    );
    const result = answered instanceof Promise ? await answered : answered;
    return { response: reply(result as UntypedReply), org: auth.org };
  }

  function answerFromExamples(
    op: OperationSpec,
    params: Record<string, string>,
    rawQuery: URLSearchParams,
    body: unknown,
    label: string,
    prefs: Preferences,
    choose: NonNullable<CoreOptions["examples"]>["choose"],
  ): CoreResponse {
    const v = validators.get(op.operationId)!;
    v.params(params);
    v.query(rawQuery);
    v.body(body);
    if (choosesExample(prefs)) return reply(preferredReply(spec, op, label, prefs));
    const query = queryRecord(rawQuery);
    return reply(
      preferredReply(spec, op, label, {
        ...prefs,
        example: choose(op.method, label.slice(label.indexOf(" ") + 1 + spec.basePath.length), query),
      }),
    );
  }

  async function route(
    request: CoreRequest,
    method: string,
    path: string,
    query: URLSearchParams,
    prefer: PreferResult,
  ): Promise<Answered> {
    const lookupMethod = method === "HEAD" ? "GET" : method;
    const ctl = control.get(`${lookupMethod} ${path}`);
    if (ctl && method !== "GET" && method !== "HEAD") refuseCrossSite(request.headers);
    if (ctl)
      return {
        response: json(200, await ctl.handle(await parseJsonBody(method, request.headers, request.body), ctx)),
        org: null,
      };
    const found = router.match(lookupMethod, path);
    if (found.ok) return answer(found.route, found.params, query, request, `${method} ${path}`, prefer);
    throw notFound(
      requestWording.notAnOperation(
        `${method} ${path}`,
        path.startsWith(`${spec.basePath}/`) ? undefined : spec.basePath,
      ),
    );
  }

  /** Preflight, rate limit, then the control endpoint or operation (its write stored before the answer). */
  async function dispatch(
    request: CoreRequest,
    method: string,
    path: string,
    normalized: ReturnType<typeof normalizeRequestPath>,
    api: boolean,
    query: URLSearchParams,
    prefer: PreferResult,
    headers: Record<string, string>,
  ): Promise<CoreResponse> {
    // Preflight requests: answered before authentication and rate limiting.
    if (method === "OPTIONS") return { status: 204, headers: {}, body: undefined };
    if (limiter && api) {
      const decision = limiter(request.remoteAddress ?? "local");
      Object.assign(headers, decision.headers);
      if (decision.rejected) return json(429, decision.rejected);
    }
    if (!normalized.ok) throw invalidRequest(normalized.message);
    let answered: Answered;
    try {
      answered = await route(request, method, path, query, prefer);
    } catch (error) {
      if (WRITES.has(method) && !(error instanceof ApiError && error.status < 500)) rollback();
      throw error;
    }
    const { response, org } = answered;
    const write = WRITES.has(method);
    // A read can change state too (a default List created on first read takes an id): the areas store it.
    if (response.status < 400 && (write || org)) {
      try {
        await persist(org, write);
      } catch (error) {
        logError("sandbox state could not be saved", error);
        rollback();
        return json(
          500,
          new ApiError(500, "server_error", "The sandbox could not save this write; it was not acknowledged").body,
        );
      }
    }
    return response;
  }

  async function handle(request: CoreRequest): Promise<CoreResponse> {
    const method = request.method.toUpperCase();
    let url = request.url;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "") || "/";
    const q = url.indexOf("?");
    // One normalized path for every decision (rate limit, authentication, routing, logging): `/%761/me` is `/v1/me`.
    const normalized = normalizeRequestPath(q === -1 ? url : url.slice(0, q));
    const path = normalized.ok ? normalized.path : "/";
    const search = q === -1 ? "" : url.slice(q + 1);
    const headers = corsHeaders(request.headers, method === "OPTIONS");
    // A path that cannot be normalized is refused, and still counted by the rate limit.
    const api = !normalized.ok || path.startsWith(`${spec.basePath}/`);
    // The Prefer grammar removes its `__code`-style stand-ins from the query.
    const query = new URLSearchParams(search);
    const prefer = parsePrefer(request.headers.prefer, SANDBOX_PREFERENCES, query);
    let response: CoreResponse;
    try {
      response = await dispatch(request, method, path, normalized, api, query, prefer, headers);
    } catch (error) {
      response = errorResponse(error, (e) => logError("sandbox handler failed", e));
    }
    response.headers = { ...headers, ...response.headers };
    const applied = api && prefer.ok ? preferenceAppliedHeader(prefer.applied) : undefined;
    if (applied) response.headers["preference-applied"] = applied;
    const delay = options.latencyMs + (api && prefer.ok ? (prefer.preferences.latencyMs ?? 0) : 0);
    if (delay > 0) await sleep(delay);
    if (method === "HEAD") response.body = undefined;
    return response;
  }

  return {
    handle,
    keys: KEYS,
    reset: () => void control.get("POST /__sandbox/reset")?.handle(undefined, ctx),
    advance(ms) {
      if (!(ms >= 0)) throw new Error(`advance(ms) needs a non-negative number of milliseconds, got ${ms}`);
      const step = Number.isFinite(tickEvery) ? tickEvery : ms;
      let remaining = ms;
      do {
        const d = Math.min(step, remaining);
        offset += d;
        remaining -= d;
        tick();
      } while (remaining > 0);
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      for (const area of [...areas].reverse()) area.close?.(ctx);
    },
    ctx,
    graph,
    graphMs,
  };
}

/** A handler's reply as a response: objects are serialized once. */
function reply(result: UntypedReply): CoreResponse {
  const status = result.status ?? 200;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = v;
  if (result.body === undefined) return { status, headers, body: undefined };
  if (typeof result.body === "string")
    return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body: result.body };
  return {
    status,
    headers: { ...headers, "content-type": headers["content-type"] ?? JSON_TYPE },
    body: JSON.stringify(result.body),
  };
}
