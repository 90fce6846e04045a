/**
 * The MSW host of the sandbox: request handlers for Mock Service Worker (`setupServer` in Node,
 * `setupWorker` in a browser) that hand every request under a base URL to the transport-free core, in the
 * page or test process. No server, no `node:` import, so the same handlers run in vitest, Storybook,
 * Playwright and a service-worker-backed page.
 *
 *   const sandbox = createSandboxHandlers({ baseUrl: "http://localhost:5173/v1" });
 *   setupServer(...sandbox.handlers).listen();           // or setupWorker(...sandbox.handlers).start()
 *   sandbox.keys[0].key; sandbox.advance(60_000); sandbox.reset(); sandbox.close();
 */
import { saveState } from "../stateful/state-snapshot.js";
import { http, HttpResponse, type HttpHandler } from "msw";
import bundledSpec from "../../../generated/openapi.json" with { type: "json" };
import { exampleMatcher } from "../../prism/match.js";
import type { SandboxKey } from "../auth.js";
import type { StateStorage } from "../context.js";
import { createSandboxCore, type CoreOptions, type CoreRequest, type CoreResponse, type SandboxCore } from "../core.js";
import type { JsonObject } from "../spec.js";

/** The spec's server URL with its variables at their defaults (https://api.talent-graph.example/v1). */
export function defaultBaseUrl(spec: JsonObject = bundledSpec as JsonObject): string {
  const server = (spec.servers as { url: string; variables?: Record<string, { default: string }> }[] | undefined)?.[0];
  if (!server) return "/v1";
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? "");
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
}

export interface SandboxHandlers {
  handlers: HttpHandler[];
  /** The test keys (customer keys of the seeded organizations, a platform key, a revoked key). */
  keys: readonly SandboxKey[];
  /** Back to the seed (and clears what persistence stored). */
  reset(): void;
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
 * The state in the browser's localStorage: the snapshot under `key`, the journal of writes since under
 * `<key>.journal` (the host compacts after each change, so the journal stays short).
 */
export function localStorageState(key = DEFAULT_STORAGE_KEY, store: Storage = globalThis.localStorage): StateStorage {
  if (!store) throw new Error("persist needs localStorage (a browser); pass a StateStorage elsewhere");
  const journalKey = `${key}.journal`;
  return {
    location: `localStorage:${key}`,
    read: () => ({
      snapshot: store.getItem(key),
      journal: (store.getItem(journalKey) ?? "")
        .split("\n")
        .filter((line) => line !== "")
        .map((text, i) => ({ text, where: `record ${i + 1} of localStorage:${journalKey}` })),
      warnings: [],
    }),
    append: async (record) => store.setItem(journalKey, `${store.getItem(journalKey) ?? ""}${record}\n`),
    compact: (snapshot) => {
      store.setItem(key, snapshot);
      store.removeItem(journalKey);
    },
  };
}

function storageOf(persist: SandboxHandlersOptions["persist"]): StateStorage | null {
  if (!persist) return null;
  if (persist === true) return localStorageState();
  if (typeof persist === "string") return localStorageState(persist);
  if (
    typeof persist !== "object" ||
    typeof persist.read !== "function" ||
    typeof persist.append !== "function" ||
    typeof persist.compact !== "function"
  ) {
    throw new TypeError(
      "persist must be true, a localStorage key or a StateStorage ({ location, read(), append(record), compact(snapshot) })",
    );
  }
  return persist;
}

const CHANGES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * One MSW handler serving every request under `baseUrl` through `handle`: the mount path is swapped for
 * the spec's base path, so an app can mount the API anywhere.
 */
export function mswHandler(
  baseUrl: string,
  specBasePath: string,
  handle: (request: CoreRequest) => Promise<CoreResponse>,
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
      return new HttpResponse(res.body ?? null, { status: res.status, headers: res.headers });
    },
  );
}

/** MSW handlers running the stateful sandbox in-process (see the file comment). */
export function createSandboxHandlers(options: SandboxHandlersOptions = {}): SandboxHandlers {
  const { baseUrl, spec = bundledSpec as JsonObject, persist, ...coreOptions } = options;
  const storage = storageOf(persist);
  const core = createSandboxCore({ ...MSW_DEFAULT_SIZE, rateLimit: false, ...coreOptions, spec, storage });
  // Compaction at once (not through a request), so it is done when reset() or the pagehide listener returns.
  const save = () => {
    if (storage) saveState(core.ctx, storage);
  };
  // Jobs and events move with time, not only with requests: a page that goes away saves them too.
  const page = storage && typeof globalThis.addEventListener === "function" ? globalThis : null;
  page?.addEventListener("pagehide", save);
  const handle = async (request: CoreRequest) => {
    const response = await core.handle(request);
    // The core journaled the change before answering; a reload never closes the sandbox, so compact now.
    if (storage && CHANGES.has(request.method) && response.status < 400) save();
    return response;
  };
  return {
    handlers: [mswHandler(baseUrl ?? defaultBaseUrl(spec), core.ctx.spec.basePath, handle)],
    keys: core.keys,
    reset() {
      core.reset();
      if (storage) save();
    },
    advance: (ms) => core.advance(ms),
    close() {
      page?.removeEventListener("pagehide", save);
      core.close();
    },
    core,
  };
}

/** An empty graph: the stateless handlers never read it. */
const NO_GRAPH = { today: "2026-01-01", companies: [], people: [], continentOf: () => null };

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
