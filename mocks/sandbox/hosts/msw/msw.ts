/**
 * The MSW host of the sandbox: request handlers for Mock Service Worker (`setupServer` in Node,
 * `setupWorker` in a browser) that hand every request under a base URL to the transport-free core, in the
 * page or test process. No server, no `node:` import, so the same handlers run in vitest, Storybook,
 * Playwright and a service-worker-backed page.
 *
 *   const sandbox = createSandboxHandlers({ baseUrl: "http://localhost:5173/v1" });
 *   setupServer(...sandbox.handlers).listen();           // or setupWorker(...sandbox.handlers).start()
 *   sandbox.keys[0].key; sandbox.advance(60_000); sandbox.reset(); sandbox.close();
 *
 * A test's own clock (`now`), ids (`ids`), starting state (`initialState`, `seedState`) and faults by
 * operation (`fail`, `delay`, `networkError`; msw-faults.ts) are options and methods of the same object.
 */
import { StateFileError, storeWrite } from "../../areas/stored-state.js";
import { delay, http, HttpResponse, type HttpHandler } from "msw";
import bundledSpec from "../../../../generated/openapi.json" with { type: "json" };
import { exampleMatcher, serverUrl } from "../../../../contract-core/portable.js";
import type { SandboxKey } from "../../contract/auth.js";
import type { StateStorage, StoredState } from "../../contract/context.js";
import {
  createSandboxCore,
  type CoreOptions,
  type CoreRequest,
  type CoreResponse,
  type SandboxCore,
} from "../../core/core.js";
import { applyStartingState, checkStartingState, holdsNoState, type StartingState } from "../seed-state.js";
import type { JsonObject } from "../../contract/spec.js";
import { createFaultTable, type SandboxFaults } from "./msw-faults.js";

export type { ClockInput, IdMode } from "../../core/core.js";
export {
  StartingStateError,
  type DeclaredJob,
  type DeclaredList,
  type DeclaredTarget,
  type SeedOrgName,
  type StartingState,
} from "../seed-state.js";
export type { ErrorStatus, FaultTimes, OperationId } from "./msw-faults.js";

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
  /** The bundled spec document (default: the one this package ships). */
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
  initialState?: StartingState | StartingState[];
}

export interface SandboxHandlers extends SandboxFaults {
  handlers: HttpHandler[];
  /** The test keys (customer keys of the seeded organizations, a platform key, a revoked key). */
  keys: readonly SandboxKey[];
  /** Back to the seed, or to `initialState` when given; clears the faults (and what persistence stored). */
  reset(): void;
  /**
   * Back to the seed, then builds this state (requests wait for it). Rejects with a StartingStateError naming
   * the part the API refused, leaving the sandbox at the seed.
   */
  seedState(state: StartingState | StartingState[]): Promise<void>;
  /** Settles when the starting state (initialState, the last seedState) is built; rejects as seedState does. */
  readonly ready: Promise<void>;
  /** Moves the sandbox clock forward: Target jobs progress, events fall due (deterministic tests). */
  advance(ms: number): void;
  /** Stops the background timer and saves the state when persistence is on. */
  close(): void;
  /** The core behind the handlers (a host's view: graph, state, options). */
  core: SandboxCore;
}

/** Small enough to be ready in a fraction of a second in a browser; `people`/`companies` raise it. */
export const MSW_DEFAULT_SIZE = { people: 400, companies: 40 } as const;
export const DEFAULT_STORAGE_KEY = "talent-graph-sandbox";

/**
 * The state in the browser's localStorage: the whole stored state as one JSON text under `key`, replaced in
 * one setItem per acknowledged write (so a write is stored whole or not at all). The core checks what it
 * reads before use.
 */
export function localStorageState(key = DEFAULT_STORAGE_KEY, store: Storage = globalThis.localStorage): StateStorage {
  if (!store) throw new Error("persist needs localStorage (a browser); pass a StateStorage elsewhere");
  const location = `localStorage:${key}`;
  const read = (): StoredState | null => {
    const text = store.getItem(key);
    if (text === null) return null;
    let stored: { version?: unknown; orgs?: unknown; shared?: unknown; state?: { orgs?: unknown } };
    try {
      stored = JSON.parse(text) as typeof stored;
    } catch {
      throw new StateFileError(
        location,
        "it is not JSON",
        `remove it (localStorage.removeItem("${key}")) to start from the seed`,
      );
    }
    // Format 1 (earlier versions) kept the organizations under "state"; the core checks either before use.
    const orgs = stored?.version === 1 ? stored.state?.orgs : stored?.orgs;
    return { orgs: orgs as StoredState["orgs"], shared: stored?.shared as StoredState["shared"] };
  };
  return {
    location,
    load: read,
    write(change) {
      const current = read();
      const orgs = new Map(change.all ? [] : (current?.orgs ?? []).map((o) => [o.info.id, o]));
      for (const org of change.orgs) orgs.set(org.info.id, org);
      store.setItem(key, JSON.stringify({ version: 2, orgs: [...orgs.values()], shared: change.shared }));
    },
  };
}

function storageOf(persist: SandboxHandlersOptions["persist"]): StateStorage | null {
  if (!persist) return null;
  if (persist === true) return localStorageState();
  if (typeof persist === "string") return localStorageState(persist);
  if (typeof persist !== "object" || typeof persist.load !== "function" || typeof persist.write !== "function") {
    throw new TypeError(
      "persist must be true, a localStorage key or a StateStorage ({ location, load(), write(change) })",
    );
  }
  return persist;
}

/**
 * One MSW handler serving every request under `baseUrl` through `handle`: the mount path is swapped for
 * the spec's base path, so an app can mount the API anywhere.
 */
export function mswHandler(
  baseUrl: string,
  specBasePath: string,
  handle: (request: CoreRequest) => Promise<CoreResponse | Response>,
): HttpHandler {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl);
  const mount = new URL(baseUrl, "http://any.invalid");
  const prefix = mount.pathname.replace(/\/+$/, "");
  const under = (url: URL) =>
    (!absolute || url.origin === mount.origin) && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  return http.all(
    ({ request }) => under(new URL(request.url)),
    async ({ request }) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
      const res = await handle({
        method: request.method,
        url: specBasePath + url.pathname.slice(prefix.length) + url.search,
        headers,
        ...(body ? { body } : {}),
      });
      if (res instanceof Response) return res;
      return new HttpResponse(res.body ?? null, { status: res.status, headers: res.headers });
    },
  );
}

/** MSW handlers running the stateful sandbox in-process (see the file comment). */
export function createSandboxHandlers(options: SandboxHandlersOptions = {}): SandboxHandlers {
  const { baseUrl, spec = bundledSpec as JsonObject, persist, initialState, ...coreOptions } = options;
  const storage = storageOf(persist);
  if (initialState !== undefined) checkStartingState(initialState);
  // The stored state is checked before use: createSandboxHandlers throws StateFileError naming the problem.
  const core = createSandboxCore({ ...MSW_DEFAULT_SIZE, rateLimit: false, ...coreOptions, spec, storage });
  const faults = createFaultTable(core.ctx.spec);
  // Every acknowledged write is stored by the core before its answer; jobs and events also move with time,
  // so reset() and a page that goes away store the whole state.
  const save = () => {
    if (storage) void storeWrite(core.ctx, storage, null);
  };
  const page = storage && typeof globalThis.addEventListener === "function" ? globalThis : null;
  page?.addEventListener("pagehide", save);
  let ready: Promise<void> = Promise.resolve();
  const seed = (state: StartingState | StartingState[]) => {
    // Built after what is pending; a failed build is reported by `ready`/seedState, not by every request.
    ready = ready.catch(() => undefined).then(() => applyStartingState(core, state));
    void ready.then(save, () => undefined);
    return ready;
  };
  // A declared start the API refuses is said where a test or page author looks; `ready` rejects with it too.
  const seedInitial = () => void seed(initialState!).catch((error: unknown) => console.error(String(error)));
  if (initialState !== undefined && holdsNoState(core)) seedInitial();
  const handle = async (request: CoreRequest): Promise<CoreResponse | Response> => {
    await ready.catch(() => undefined);
    const planned = faults.take(request);
    if (planned.delayMs > 0) await delay(planned.delayMs);
    if (planned.outcome === "network") return HttpResponse.error();
    if (planned.outcome) {
      // The operation's documented answer for the status, as `Prefer: code=` gives it (after authentication).
      const failed = await core.handle({
        ...request,
        headers: { ...request.headers, prefer: `code=${planned.outcome.status}` },
      });
      delete failed.headers["preference-applied"];
      return failed;
    }
    return core.handle(request);
  };
  return {
    handlers: [mswHandler(baseUrl ?? defaultBaseUrl(spec), core.ctx.spec.basePath, handle)],
    keys: core.keys,
    reset() {
      faults.clear();
      if (initialState !== undefined) seedInitial();
      else {
        core.reset();
        if (storage) save();
      }
    },
    seedState: (state) => seed(state),
    get ready() {
      return ready;
    },
    fail: (operationId, options) => faults.fail(operationId, options),
    delay: (operationId, ms, options) => faults.delay(operationId, ms, options),
    networkError: (operationId, options) => faults.networkError(operationId, options),
    advance: (ms) => core.advance(ms),
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
export function createMockHandlers(options: HandlersOptions = {}): { handlers: HttpHandler[] } {
  const { baseUrl, spec = bundledSpec as JsonObject } = options;
  const core = createSandboxCore({
    spec,
    areas: [],
    graph: NO_GRAPH,
    rateLimit: false,
    timers: false,
    examples: { choose: exampleMatcher(spec) },
  });
  return {
    handlers: [mswHandler(baseUrl ?? defaultBaseUrl(spec), core.ctx.spec.basePath, (request) => core.handle(request))],
  };
}
