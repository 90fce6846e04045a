/**
 * The sandbox inside the reference page: the transport-free core with the Node sandbox's own defaults (graph
 * size, seed, rate limit), its state in the page's storage (page-store.ts: the MSW host's format), the kit's faults
 * and typed starting states, and a job clock the reader can step or speed up. `fetch(input, init)` answers
 * a path under the base path as a `Response`, without a service worker: nothing here touches the network.
 * Browser-safe: no `node:` import (it is bundled for the page by try-it/bundle.ts).
 */
import bundledSpec from "../../../generated/openapi.json" with { type: "json" };
import { createSandboxCore, type ClockInput, type CoreRequest, type IdMode } from "../../../mocks/sandbox/core/core.js";
import type { JsonObject } from "../../../mocks/sandbox/contract/spec.js";
import type { StateStorage } from "../../../mocks/sandbox/contract/context.js";
import { storeWrite } from "../../../mocks/sandbox/areas/stored-state.js";
import { issuedIds } from "../../../mocks/sandbox/areas/area-helpers.js";
import { localStorageState } from "../../../mocks/sandbox/hosts/msw/msw.js";
import { createFaultTable, type OperationId } from "../../../mocks/sandbox/hosts/msw/msw-faults.js";
import { applyStartingState, type StartingState } from "../../../mocks/sandbox/hosts/seed-state.js";
import { parseJsonBody } from "../../../mocks/sandbox/core/body.js";
import { ApiError } from "../../../mocks/sandbox/contract/errors.js";
import { advanceJobs } from "../../../mocks/sandbox/areas/jobs.js";
import { choicesOf, type SandboxChoices } from "./choices.js";

/** Where the page keeps the sandbox's state (apart from the MSW host's default key). */
export const PAGE_STORAGE_KEY = "talent-graph-reference-sandbox";

/** Options a script may set as `window.talentGraphSandboxOptions` before the sandbox's first use. */
export interface PageSandboxOptions {
  /** A pinned clock (ISO date-time or epoch ms): the same seed and clock give the Node sandbox's bytes. */
  now?: ClockInput;
  ids?: IdMode;
  /** false: no background timer (time moves only with `advance`). */
  timers?: boolean;
  /** false: nothing kept across reloads. */
  persist?: boolean;
}

/** Named starting states, built with the kit's typed starting states through the API's own requests. */
export const PRESETS: { name: string; label: string; state: StartingState[] | null }[] = [
  { name: "seed", label: "Seed: every organization empty", state: null },
  {
    name: "team",
    label: "A team with Lists and a Target mid-job (Acme)",
    state: [
      {
        org: "acme",
        lists: [{ name: "Backend shortlist", members: ["priya-raman", "jonas-weber"] }, { name: "Design leads" }],
        targets: [{ kind: "company", input: "Northwind Labs", job: "discovering" }],
      },
    ],
  },
  { name: "locked", label: "A locked trial (Acme: 402 except GET /me)", state: [{ org: "acme", access: false }] },
];

export interface PageSandbox {
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  keys: ReturnType<typeof createSandboxCore>["keys"];
  basePath: string;
  /** Back to the seed (or the chosen preset), faults cleared, stored state replaced. */
  reset(): Promise<void>;
  /** Back to the seed, then builds a named preset. */
  preset(name: string): Promise<void>;
  /** The next call of the operation answers this documented error status (or fails at the network level). */
  fail(operationId: OperationId, status: number | "network"): void;
  /** Moves the job clock forward (jobs progress, events fall due). */
  advance(ms: number): void;
  /** Every pending or running job one phase on (queued -> resolving -> discovering -> enriching -> done). */
  nextPhase(): { target_id: string; phase: string | null; status: string }[];
  /** What exists for the key's organization (platform keys: the organization named by `orgHeader`). */
  choices(key: string, orgHeader?: string): SandboxChoices;
  /**
   * The first thing the sandbox would refuse in this request, in the words of its 400 (null: nothing): the body
   * as JSON, then path, query and body against the spec.
   */
  check(
    operationId: string,
    params: Record<string, string>,
    query: string,
    body: string | undefined,
  ): Promise<string | null>;
  /** Extra clock speed: every real second also moves the clock `factor - 1` seconds (1: real time). */
  speed(factor: number): void;
}

/** Request headers as the core reads them: lower-case names. */
function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

/** `storage`: where the state is kept (the page's, page-store.ts; by default localStorage), unless `persist` is false. */
export function createPageSandbox(
  options: PageSandboxOptions = {},
  storage: StateStorage | null = options.persist === false ? null : localStorageState(PAGE_STORAGE_KEY),
): PageSandbox {
  const spec = bundledSpec as JsonObject;
  const core = createSandboxCore({
    spec,
    storage,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.timers === undefined ? {} : { timers: options.timers }),
  });
  const faults = createFaultTable(core.ctx.spec);
  const basePath = core.ctx.spec.basePath;
  const save = () => {
    if (storage) void storeWrite(core.ctx, storage, null);
  };
  globalThis.addEventListener?.("pagehide", save);
  let ready: Promise<void> = Promise.resolve();
  let ticker: ReturnType<typeof setInterval> | undefined;

  async function answer(request: CoreRequest): Promise<Response> {
    await ready.catch(() => undefined);
    const planned = faults.take(request);
    if (planned.outcome === "network") throw new TypeError("Failed to fetch (a network fault chosen in the page)");
    const res = await core.handle(
      planned.outcome
        ? // The operation's documented answer for the status, as `Prefer: code=` gives it (after authentication).
          { ...request, headers: { ...request.headers, prefer: `code=${planned.outcome.status}` } }
        : request,
    );
    if (planned.outcome) delete res.headers["preference-applied"];
    const empty = res.status === 204 || res.status === 304 || request.method === "HEAD";
    return new Response(empty ? null : (res.body ?? null), { status: res.status, headers: res.headers });
  }

  return {
    keys: core.keys,
    basePath,
    async fetch(input, init) {
      // Only the path and query are read: a relative path, an absolute URL or a Request all name a path.
      const request =
        input instanceof Request
          ? new Request(input, init)
          : new Request(new URL(String(input), "http://page.invalid"), init);
      const url = new URL(request.url);
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
        throw new TypeError(`talentGraphSandbox.fetch answers paths under ${basePath} only, got ${url.pathname}`);
      const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      return answer({
        method: request.method,
        url: url.pathname + url.search,
        headers: headersOf(request.headers),
        ...(body ? { body } : {}),
      });
    },
    async reset() {
      faults.clear();
      await ready.catch(() => undefined);
      core.reset();
      save();
    },
    preset(name) {
      const found = PRESETS.find((p) => p.name === name);
      if (!found) return Promise.reject(new Error(`no preset named ${name}`));
      faults.clear();
      ready = ready
        .catch(() => undefined)
        .then(() => (found.state ? applyStartingState(core, found.state) : core.reset()));
      void ready.then(save, () => undefined);
      return ready;
    },
    fail(operationId, status) {
      if (status === "network") faults.networkError(operationId);
      else faults.fail(operationId, { status } as never);
    },
    advance(ms) {
      const issued = issuedIds(core.ctx.state);
      core.advance(ms);
      // The core stores the whole state after an advance that handed out ids (diffs, members); storing it again
      // would cost a day's advance as much again. The page stores it when only job phases moved.
      if (issuedIds(core.ctx.state) === issued) save();
    },
    nextPhase() {
      const moved = advanceJobs(core.ctx, { steps: 1 });
      save();
      return moved.map((m) => ({ target_id: m.target_id, phase: m.job.phase, status: m.job.status }));
    },
    choices(key, orgHeader) {
      const found = core.keys.find((k) => k.key === key);
      return choicesOf(core.ctx, found?.orgId ?? (found ? orgHeader : undefined));
    },
    async check(operationId, params, query, body) {
      const validator = core.validator(operationId);
      if (!validator) return null;
      try {
        const parsed =
          body === undefined ? undefined : await parseJsonBody("POST", { "content-type": "application/json" }, body);
        validator(params, new URLSearchParams(query), parsed);
        return null;
      } catch (error) {
        if (error instanceof ApiError) return error.message;
        throw error;
      }
    },
    speed(factor) {
      if (ticker) clearInterval(ticker);
      ticker = factor > 1 ? setInterval(() => core.advance((factor - 1) * 1000), 1000) : undefined;
    },
  };
}
