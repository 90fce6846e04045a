/**
 * The MSW host of the sandbox: request handlers for Mock Service Worker (`setupServer` in Node,
 * `setupWorker` in a browser) that hand every request under a base URL to the transport-free core, in the
 * page or test process. No server, no `node:` import, so the same handlers run in vitest, Storybook,
 * Playwright and a service-worker-backed page.
 *
 *   const sandbox = createSandboxHandlers({ baseUrl: "http://localhost:5173/v1" });
 *   setupServer(...sandbox.handlers).listen();           // or setupWorker(...sandbox.handlers).start()
 *   sandbox.keys.acme; sandbox.advance(60_000); sandbox.reset(); sandbox.close();
 *
 * A test's own clock (`now`, `setNow`), ids (`ids`), starting state (`initialState`, `seedState`,
 * `snapshot`), faults and one-off answers by operation (`fail`, `delay`, `networkError`, `respond`;
 * msw-faults.ts) and the record of what the app sent (`calls`; msw-calls.ts) are options and methods of
 * the same object; so is the consumer contract of everything answered (`consumerContract`; msw-contract.ts).
 * The control routes (`/__sandbox/*`) answer at the root of the mount's origin.
 */
import { StateFileError, storeWrite } from "../../areas/stored-state.js";
import { http, HttpResponse, type HttpHandler } from "msw";
// Only what validation and answers read of the spec (npm run generate; scripts/build/runtime-spec.ts).
import bundledSpec from "../../../../generated/openapi.runtime.json" with { type: "json" };
import { exampleMatcher, serverUrl } from "../../../../contract-core/portable.js";
import { KEYS, ORGS } from "../../contract/auth.js";
import type { StateStorage, StoredState } from "../../contract/context.js";
import {
  createCore,
  createSandboxCore,
  type CoreOptions,
  type CoreRequest,
  type CoreResponse,
  type SandboxCore,
} from "../../core/core.js";
import { snapshotOfState } from "../../areas/stored-state.js";
import {
  applyStartingState,
  checkStartingState,
  holdsNoState,
  type SandboxSnapshot,
  type SeedOrgName,
  type StartingPoint,
} from "../seed-state.js";
import type { JsonObject } from "../../contract/spec.js";
import type { OperationId } from "../../contract/context.js";
import { createCallLog, type SandboxCall } from "./msw-calls.js";
import { createFaultTable, type FaultTimes, type SandboxFaults } from "./msw-faults.js";
import { clearJobPlans, planJobs, type JobPlan } from "../../areas/jobs.js";
import { createContractRecorder } from "./msw-contract.js";
import type { ConsumerContract } from "../../../../contract-core/portable.js";

export type { ClockInput, IdMode } from "../../core/core.js";
export {
  StartingStateError,
  type DeclaredJob,
  type DeclaredList,
  type DeclaredTarget,
  type SandboxSnapshot,
  type SeedOrgName,
  type StartingPoint,
  type StartingState,
} from "../seed-state.js";
export type { BodyFor, DocumentedStatus, ErrorStatus, FaultTimes, OperationId, RespondOptions } from "./msw-faults.js";
export type { CallResponse, SandboxCall } from "./msw-calls.js";
export type { JobPlan } from "../../areas/jobs.js";
export type {
  ConsumerContract,
  ConsumerInteraction,
  FieldTypes,
  JsonType,
} from "../../../../contract-core/portable.js";
export { mergeConsumerContracts } from "../../../../contract-core/portable.js";

/** The consumer a contract names: the app (or package) and its version. */
export interface ConsumerName {
  name: string;
  version: string;
}

export interface RecordsContract {
  /**
   * The consumer contract of every request answered since these handlers were made (reset() keeps it): each
   * distinct interaction (operation, parameter names, body shape, status, response fields and their types),
   * sorted, without values or timestamps. Write it as `JSON.stringify(contract, null, 2)` and the file diffs cleanly.
   */
  consumerContract(consumer: ConsumerName): ConsumerContract;
}

/** The test keys by name: a customer key per seeded organization, the platform key and a revoked key. */
export type SandboxKeyName = SeedOrgName | "platform" | "revoked";
export type SandboxKeys = Readonly<Record<SandboxKeyName, string>>;

/** The test keys by name (the sandbox's KEYS: customer keys found by their organization). */
export const SANDBOX_KEYS: SandboxKeys = Object.freeze({
  ...(Object.fromEntries(
    (Object.keys(ORGS) as SeedOrgName[]).map((name) => [
      name,
      KEYS.find((k) => k.kind === "customer" && k.orgId === ORGS[name].id)!.key,
    ]),
  ) as Record<SeedOrgName, string>),
  platform: KEYS.find((k) => k.kind === "platform")!.key,
  revoked: KEYS.find((k) => k.kind === "revoked")!.key,
});

/** The spec's server URL with its variables at their defaults (https://api.talent-graph.example/v1). */
export function defaultBaseUrl(spec: JsonObject = bundledSpec as JsonObject): string {
  return serverUrl(spec) || "/";
}

export interface HandlersOptions {
  /**
   * Where the API is mounted: an absolute URL (`http://localhost:5173/api/v1`) answers that origin and
   * path only; a path (`/v1`) answers it on any origin. Default: the spec's server URL.
   */
  baseUrl?: string;
  /** The bundled spec document (default: the one this package ships, with only what the handlers read). */
  spec?: JsonObject;
}

export interface SandboxHandlersOptions
  extends HandlersOptions, Omit<CoreOptions, "spec" | "storage" | "examples" | "areas"> {
  /**
   * Keep the sandbox's state (Lists, saved queries, Targets, preferences) across page reloads:
   * true stores it in localStorage under "talent-graph-sandbox", a string names the key, a StateStorage
   * stores it anywhere. Default false: every page load starts from the seed.
   */
  persist?: boolean | string | StateStorage;
  /**
   * The state to start from (and that `reset()` returns to), built through the API's own validation
   * (seed-state.ts); with `persist`, only when nothing was stored yet. Requests wait until it is built.
   */
  initialState?: StartingPoint;
}

export interface SandboxHandlers extends SandboxFaults, RecordsContract {
  handlers: HttpHandler[];
  /** The test keys by name: `keys.acme`, `keys.globex`, `keys.initech` (locked), `keys.platform`, `keys.revoked`. */
  keys: SandboxKeys;
  /**
   * Back to the seed, or to `initialState` when given, and to the starting clock; clears the faults, the
   * one-off answers and the record of calls (and stores the state when persistence is on).
   */
  reset(): void;
  /**
   * Back to the seed, then builds this state (requests wait for it), or puts a snapshot back. Rejects with a
   * StartingStateError naming the part the API refused, leaving the sandbox at the seed.
   */
  seedState(state: StartingPoint): Promise<void>;
  /**
   * The whole state now and the clock, as a plain value (JSON keeps all of it) that `initialState`,
   * `seedState` and `--state-seed` take back: a sandbox started from it answers the same reads with the same
   * bytes. It holds what a state file holds (a webhook URL and secret too): keep it where you keep those.
   */
  snapshot(): SandboxSnapshot;
  /**
   * What the app sent, in the order answered: every request that named an operation (all, or those of
   * `operationId`), with method, path, params, query, parsed body (typed from the spec), and the answer the
   * app received (`response`: status, headers, parsed body, typed per documented status).
   */
  calls<Op extends OperationId = OperationId>(operationId?: Op): SandboxCall<Op>[];
  /** Settles when the starting state (initialState, the last seedState) is built; rejects as seedState does. */
  readonly ready: Promise<void>;
  /**
   * How the next `times` discovery jobs end (default 1; Infinity: every one until reset()), whatever
   * `jobFailureRate` draws: the job of each Target the app creates (createTarget) or retries (retryTarget), in
   * order. `"failed"` ends it in its discovering phase with the reference's job error; `members` caps what its
   * discovery finds (default: all the graph gives). reset() forgets the ones not used yet.
   */
  nextJobs(plan: JobPlan & FaultTimes): void;
  /** Moves the sandbox clock forward: Target jobs progress, events fall due (deterministic tests). */
  advance(ms: number): void;
  /** Sets the sandbox clock to `t` (forward or back); runs no jobs or events (advance does). */
  setNow(t: Date | string | number): void;
  /** Stops the background timer and saves the state when persistence is on. */
  close(): void;
  /** The core behind the handlers (a host's view: graph, state, options). */
  core: SandboxCore;
}

/** Small enough to be ready in a fraction of a second in a browser; `people`/`companies` raise it. */
export const MSW_DEFAULT_SIZE = { people: 400, companies: 40 } as const;
export const DEFAULT_STORAGE_KEY = "talent-graph-sandbox";

/** The stored format this sandbox writes (and reads, besides format 1 of earlier versions). */
const STORED_VERSION = 2;

/**
 * The state in the browser's localStorage: the whole stored state as one JSON text under `key`, replaced in
 * one setItem per acknowledged write (so a write is stored whole or not at all). The core checks what it
 * reads before use. A stored state of a version this sandbox does not write is refused by name: the page
 * starts fresh, says so once, and leaves the refused value untouched. Once started, the state is read from
 * what this sandbox last stored, never from the store again: when the store fails (a full quota, storage
 * turned off) or holds a value this sandbox did not write (another tab or script changed it), the sandbox
 * goes on in memory from its last good state, with one warning, and leaves the stored value as it is.
 */
export function localStorageState(
  key = DEFAULT_STORAGE_KEY,
  store: Storage = globalThis.localStorage,
  warn: (message: string) => void = (message) => console.warn(`sandbox: ${message}`),
  /** How messages name the store and its removal (another Storage than localStorage, such as the page's). */
  names = { location: `localStorage:${key}`, removal: `localStorage.removeItem("${key}")` },
): StateStorage {
  if (!store) throw new Error("persist needs localStorage (a browser); pass a StateStorage elsewhere");
  const { location, removal } = names;
  /** The text this sandbox last read or stored: its state as stored. */
  let last: string | null = null;
  let started = false;
  /** Set once the store is no longer used (refused at start, or failed while running). */
  let inMemory = false;
  const toMemory = (why: string) => {
    if (inMemory) return;
    inMemory = true;
    warn(
      `${location} ${why}; the sandbox goes on in memory (its state is lost when the page closes) and leaves ` +
        `the stored value as it is (${removal} to store state again)`,
    );
  };
  const parse = (text: string): StoredState => {
    let stored: { version?: unknown; orgs?: unknown; shared?: unknown; state?: { orgs?: unknown } };
    try {
      stored = JSON.parse(text) as typeof stored;
    } catch {
      throw new StateFileError(location, "it is not JSON", `remove it (${removal}) to start from the seed`);
    }
    // Format 1 (earlier versions) kept the organizations under "state"; the core checks either before use.
    const orgs = stored?.version === 1 ? stored.state?.orgs : stored?.orgs;
    return { orgs: orgs as StoredState["orgs"], shared: stored?.shared as StoredState["shared"] };
  };
  /** The version a stored text declares, when it is not one this sandbox reads (JSON.stringify'd, or "no"). */
  const foreignVersion = (text: string): string | null => {
    let version: unknown;
    try {
      const value = JSON.parse(text) as unknown;
      if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
      version = (value as { version?: unknown }).version;
    } catch {
      return null;
    }
    if (version === 1 || version === STORED_VERSION) return null;
    return version === undefined ? "no" : JSON.stringify(version);
  };
  const first = (): StoredState | null => {
    let text: string | null;
    try {
      text = store.getItem(key);
    } catch (error) {
      toMemory(`cannot be read (${(error as Error).message})`);
      return null;
    }
    if (text === null) return null;
    const version = foreignVersion(text);
    if (version !== null) {
      toMemory(
        `holds a stored state of ${version === "no" ? "no version" : `version ${version}`}, which this sandbox does ` +
          `not write (it writes version ${STORED_VERSION}): refused, and the page starts fresh`,
      );
      return null;
    }
    const stored = parse(text);
    last = text;
    return stored;
  };
  return {
    location,
    load() {
      if (started) return last === null ? null : parse(last);
      started = true;
      return first();
    },
    write(change) {
      // A whole-state change replaces everything: the last stored text is read back only to merge a partial one.
      const current = change.all || last === null ? null : parse(last);
      const orgs = new Map((current?.orgs ?? []).map((o) => [o.info.id, o]));
      for (const org of change.orgs) orgs.set(org.info.id, org);
      const text = JSON.stringify({ version: STORED_VERSION, orgs: [...orgs.values()], shared: change.shared });
      if (!inMemory) {
        try {
          const found = store.getItem(key);
          if (found !== null && found !== last) toMemory("was changed by something other than this sandbox");
          else store.setItem(key, text);
        } catch (error) {
          toMemory(`failed while the page ran (${(error as Error).message})`);
        }
      }
      last = text;
    },
  };
}

function storageOf(persist: SandboxHandlersOptions["persist"], warn: (message: string) => void): StateStorage | null {
  if (!persist) return null;
  if (persist === true) return localStorageState(DEFAULT_STORAGE_KEY, globalThis.localStorage, warn);
  if (typeof persist === "string") return localStorageState(persist, globalThis.localStorage, warn);
  if (typeof persist !== "object" || typeof persist.load !== "function" || typeof persist.write !== "function") {
    throw new TypeError(
      "persist must be true, a localStorage key or a StateStorage ({ location, load(), write(change) })",
    );
  }
  return persist;
}

/**
 * One MSW handler serving every request under `baseUrl` through `handle`: the mount path is swapped for
 * the spec's base path, so an app can mount the API anywhere. With `control`, requests to `/__sandbox/*` at
 * the root of the mount's origin (any origin for a bare path) go to `handle` as they are.
 */
export function mswHandler(
  baseUrl: string,
  specBasePath: string,
  handle: (request: CoreRequest) => Promise<CoreResponse | Response>,
  control = false,
): HttpHandler {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl);
  const mount = new URL(baseUrl, "http://any.invalid");
  const prefix = mount.pathname.replace(/\/+$/, "");
  const sameOrigin = (url: URL) => !absolute || url.origin === mount.origin;
  const under = (url: URL, path: string) => url.pathname === path || url.pathname.startsWith(`${path}/`);
  const routeOf = (url: URL) =>
    !sameOrigin(url) ? null : under(url, prefix) ? "api" : control && under(url, "/__sandbox") ? "control" : null;
  return http.all(
    ({ request }) => routeOf(new URL(request.url)) !== null,
    async ({ request }) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      // A page's fetch carries no Host header; the control step compares a write's Origin with it.
      headers.host ??= url.host;
      // The bytes as sent: the core decodes them as the Node host's do (UTF-8 or a 400, never U+FFFD).
      const body =
        request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
      const path = routeOf(url) === "api" ? specBasePath + url.pathname.slice(prefix.length) : url.pathname;
      const res = await handle({
        method: request.method,
        url: path + url.search,
        headers,
        ...(body?.length ? { body } : {}),
      });
      if (res instanceof Response) return res;
      return new HttpResponse(res.body ?? null, { status: res.status, headers: res.headers });
    },
  );
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** MSW handlers running the stateful sandbox in-process (see the file comment). */
export function createSandboxHandlers(options: SandboxHandlersOptions = {}): SandboxHandlers {
  const { baseUrl, spec = bundledSpec as JsonObject, persist, initialState, ...coreOptions } = options;
  // Warnings (a stored state refused, storage that failed) are said once, where a page author looks.
  const warn = coreOptions.onWarning ?? ((message: string) => console.warn(`sandbox: ${message}`));
  const storage = storageOf(persist, warn);
  if (initialState !== undefined) checkStartingState(initialState);
  // The stored state is checked before use: createSandboxHandlers throws StateFileError naming the problem.
  const core = createSandboxCore({ ...MSW_DEFAULT_SIZE, rateLimit: false, ...coreOptions, spec, storage });
  const faults = createFaultTable(core.ctx.spec);
  const log = createCallLog(core.ctx.spec);
  const recorder = createContractRecorder(core.ctx.spec);
  // Every acknowledged write is stored by the core before its answer; jobs and events also move with time,
  // so reset() and a page that goes away store the whole state.
  const save = () => {
    if (storage) void storeWrite(core.ctx, storage, null);
  };
  const page = storage && typeof globalThis.addEventListener === "function" ? globalThis : null;
  page?.addEventListener("pagehide", save);
  let ready: Promise<void> = Promise.resolve();
  const seed = (state: StartingPoint) => {
    // Built after what is pending; a failed build is reported by `ready`/seedState, not by every request.
    ready = ready.catch(() => undefined).then(() => applyStartingState(core, state));
    void ready.then(save, () => undefined);
    return ready;
  };
  // A declared start the API refuses is said where a test or page author looks; `ready` rejects with it too.
  const seedInitial = () => void seed(initialState!).catch((error: unknown) => console.error(String(error)));
  if (initialState !== undefined && holdsNoState(core)) seedInitial();
  const answer = async (request: CoreRequest): Promise<CoreResponse | Response> => {
    await ready.catch(() => undefined);
    const planned = faults.take(request);
    // A plain timer (msw's delay() adds its "real" and "infinite" modes, which the kit does not offer).
    if (planned.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, planned.delayMs));
    if (planned.outcome === "network") return HttpResponse.error();
    if (planned.outcome) {
      // The operation's documented answer for the status, as `Prefer: code=` gives it (after authentication).
      const { status, respond } = planned.outcome;
      const planted = await core.handle({ ...request, headers: { ...request.headers, prefer: `code=${status}` } });
      delete planted.headers["preference-applied"];
      if (!respond || planted.status !== status) return planted;
      const headers = { ...planted.headers, ...lowerCased(respond.headers) };
      return { status, headers, body: respond.body === undefined ? undefined : JSON.stringify(respond.body) };
    }
    return core.handle(request);
  };
  const handle = async (request: CoreRequest): Promise<CoreResponse | Response> => {
    const res = await answer(request);
    const { body } = request;
    const text =
      typeof body === "string" ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : undefined;
    const sent = { ...request, body: text };
    log.record(sent, res);
    if (!(res instanceof Response)) recorder.record(sent, res);
    return res;
  };
  return {
    handlers: [mswHandler(baseUrl ?? defaultBaseUrl(spec), core.ctx.spec.basePath, handle, true)],
    keys: SANDBOX_KEYS,
    reset() {
      faults.clear();
      log.clear();
      clearJobPlans(core.ctx.state);
      if (initialState !== undefined) seedInitial();
      else {
        core.reset();
        if (storage) save();
      }
    },
    seedState: (state) => seed(state),
    snapshot: () => snapshotOfState(core.ctx),
    calls: (operationId) => log.calls(operationId),
    consumerContract: (consumer) => recorder.contract(consumer),
    respond: (operationId, options) => faults.respond(operationId, options),
    get ready() {
      return ready;
    },
    fail: (operationId, options) => faults.fail(operationId, options),
    delay: (operationId, ms, options) => faults.delay(operationId, ms, options),
    networkError: (operationId, options) => faults.networkError(operationId, options),
    nextJobs: ({ times, ...plan }) => planJobs(core.ctx.state, plan, times),
    advance: (ms) => core.advance(ms),
    setNow: (t) => core.setNow(t),
    close() {
      page?.removeEventListener("pagehide", save);
      core.close();
    },
    core,
  };
}

/** An empty graph: the stateless handlers never read it. */
const NO_GRAPH = { today: "2026-01-01", companies: [], people: [] };

/**
 * Stateless MSW handlers that answer from the spec's named examples with the static mock's choices
 * (`npm run mock`): any presented key, request validation, `x-mock-match` picks by query, `Prefer:
 * code=`/`example=`/`latency=` (dynamic and seed need Prism's generator and are ignored here).
 */
export function createMockHandlers(options: HandlersOptions = {}): { handlers: HttpHandler[] } & RecordsContract {
  const { baseUrl, spec = bundledSpec as JsonObject } = options;
  const core = createCore({
    spec,
    areas: [],
    graph: NO_GRAPH,
    rateLimit: false,
    timers: false,
    examples: { choose: exampleMatcher(spec) },
  });
  const recorder = createContractRecorder(core.ctx.spec);
  const handle = async (request: CoreRequest) => {
    const res = await core.handle(request);
    recorder.record({ ...request, body: typeof request.body === "string" ? request.body : undefined }, res);
    return res;
  };
  return {
    handlers: [mswHandler(baseUrl ?? defaultBaseUrl(spec), core.ctx.spec.basePath, handle)],
    consumerContract: (consumer) => recorder.contract(consumer),
  };
}
