/**
 * The transport-free sandbox: `createSandboxCore(options)` answers plain requests
 * (`{ method, url, headers, body }` -> `{ status, headers, body }`) with no server, no Node API and no
 * framework, so a Fastify server, MSW request handlers or a test can host the same behaviour. Every request
 * runs one pipeline of named steps (pipeline.ts, wired in `handle` below; ARCHITECTURE.md lists them);
 * authentication and organization access come before the body is read, so a missing key is a 401 and a
 * locked organization a 402 whatever the body.
 * Every error becomes the reference's error shape; nothing escapes as an exception.
 */
import { KEYS, SEED_ORGS, type SandboxKey } from "../contract/auth.js";
import type { Area, Handler, SandboxContext, StateStorage } from "../contract/context.js";
import { generatedGraph } from "../data/generate.js";
import { buildGraph, type Graph } from "../data/graph.js";
import { searchIndexOf } from "../domain/search-index.js";
import { resolveOptions, type SandboxOptions } from "../contract/options.js";
import { Router } from "../../../contract-core/portable.js";
import { areas as allAreas } from "../areas/index.js";
import { indexSpec, type JsonObject, type SpecIndex } from "../contract/spec.js";
import { SandboxState } from "../contract/state.js";
import { useIdMode, type IdMode } from "../areas/area-helpers.js";
import { holdsUnstoredIds, loadState, storeWrite as storeState } from "../areas/stored-state.js";
import { clockOf, movableClock, type ClockInput } from "./clock.js";
import { controlRoutesOf } from "./control.js";
import type { ChooseExample } from "./examples.js";
import type { CoreRequest, CoreResponse } from "./exchange.js";
import { answer, begin, checkPath, preflight, rateLimit, route, storeWrite, type Pipeline } from "./pipeline.js";
import { refuseForeignHost } from "./host-guard.js";
import { createRateLimiter } from "./ratelimit.js";
import { createWriteStore } from "./store.js";
import { advanceTicking, startTicker } from "./timers.js";
import { compileRequestValidators, type RequestValidator } from "./validation.js";

export type { IdMode } from "../areas/area-helpers.js";
export { BODY_LIMIT } from "./body.js";
export type { ClockInput } from "./clock.js";
export type { BodyReader, CoreRequest, CoreResponse } from "./exchange.js";

export interface CoreOptions extends Partial<Omit<SandboxOptions, "now">> {
  /** Wall clock of the stateful areas (default Date.now); `advance(ms)` adds to it. */
  now?: ClockInput;
  /** Created ids: "random" (default) unique across instances, "sequential" the same for the same steps. */
  ids?: IdMode;
  /** The bundled spec document (generated/openapi.json, parsed). */
  spec: JsonObject;
  /** Areas to serve (default: every area of the sandbox). */
  areas?: readonly Area[];
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
  examples?: { choose: ChooseExample };
}

export interface SandboxCore {
  handle(request: CoreRequest): Promise<CoreResponse>;
  /** The test keys. */
  keys: readonly SandboxKey[];
  /** Back to the seed (as POST /__sandbox/reset) and to the starting clock. */
  reset(): void;
  /** Moves the sandbox clock forward and runs the time-driven work (jobs, events) that falls due. */
  advance(ms: number): void;
  /** Sets the sandbox clock to `t` (forward or back); runs no jobs or events (advance does). */
  setNow(t: Date | string | number): void;
  /** Stops the timer and saves the state file (when storage was given). */
  close(): void;
  ctx: SandboxContext;
  /** An operation's request check (throws the 400 ApiError the sandbox answers), for a form that checks as you type. */
  validator(operationId: string): RequestValidator | undefined;
  graph: Graph;
  /** Time spent building the graph (generation and, for a generated graph, its search indexes), in ms. */
  graphMs: number;
}

/** Makes the graph of a sandbox from its size and seed (the generator: data/generate.ts, with its indexes). */
export type GraphMaker = (size: Pick<SandboxOptions, "people" | "companies" | "seed">) => Graph;

/** The generated graph with its search indexes built, so the first search pays for neither. */
const generatedAndIndexed: GraphMaker = (size) => {
  const graph = generatedGraph(size);
  searchIndexOf(graph);
  return graph;
};

/**
 * The sandbox every host serves: every area of the sandbox over the generated graph (or the hand-made `graph`).
 * `createCore` is the same core with its areas and graph maker given, so a host that serves no area (the
 * stateless MSW handlers) bundles neither the areas nor the generator.
 */
export function createSandboxCore(input: CoreOptions): SandboxCore {
  return createCore({ areas: allAreas, makeGraph: generatedAndIndexed, ...input });
}

const RESET_ROUTE = "POST /__sandbox/reset";

/** The core over the given areas, and the hand-made `graph` or else the graph `makeGraph` makes. */
export function createCore(input: CoreOptions & { areas: readonly Area[]; makeGraph?: GraphMaker }): SandboxCore {
  const {
    spec: doc,
    areas,
    makeGraph,
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
  const clock = movableClock(base.now);
  const options: SandboxOptions = { ...base, now: clock.now };
  const spec: SpecIndex = indexSpec(doc);
  const t0 = performance.now();
  const { people, companies, seed } = options;
  if (!options.graph && !makeGraph) throw new TypeError("createCore needs a graph or a graph maker");
  const graph = options.graph ? buildGraph(options.graph) : makeGraph!({ people, companies, seed });
  const graphMs = performance.now() - t0;
  const state = new SandboxState(graph, SEED_ORGS, options.maxPlatformOrgs);
  useIdMode(state, ids);
  const logError = (message: string, error: unknown) => onError?.(message, error);
  const ctx: SandboxContext = {
    options,
    graph,
    state,
    spec,
    storage,
    logError,
    logWarning: (m) => onWarning?.(m),
  };

  const store = createWriteStore(ctx);
  const limiter = options.rateLimit ? createRateLimiter(options.rateLimit, options.now) : null;
  const validators = compileRequestValidators(spec);
  const handlers = new Map(areas.flatMap((area) => Object.entries(area.handlers) as [string, Handler][]));
  const control = controlRoutesOf(areas);
  // POST /__sandbox/reset is reset() on every host: back to the seed and to the starting clock.
  const seedReset = control.get(RESET_ROUTE);
  const resetAll = (): void => {
    clock.reset();
    void seedReset?.handle(undefined, ctx);
  };
  if (seedReset)
    control.set(RESET_ROUTE, { ...seedReset, handle: (body, c) => (clock.reset(), seedReset.handle(body, c)) });
  const router = new Router(spec.basePath, spec.operations, (op) => op);
  if (storage) loadState(ctx, storage);
  for (const area of areas) area.setup?.(ctx);
  // Ids handed out by time-driven work are stored after each timer tick and once after advance(ms) (not after
  // each of its ticks: a day's advance would write the whole state thousands of times).
  const storeBackground = (): void => {
    if (!storage || !holdsUnstoredIds(ctx)) return;
    storeState(ctx, storage, null).catch((error: unknown) => ctx.logError("sandbox state could not be saved", error));
  };
  const ticker = startTicker(areas, ctx, timers, storeBackground);

  const pipeline: Pipeline = { ctx, router, control, handlers, validators, limiter, store, examples };

  /** The pipeline's steps (pipeline.ts), in order; each may end the request with its answer. */
  async function handle(request: CoreRequest): Promise<CoreResponse> {
    const x = begin(pipeline, request);
    try {
      refuseForeignHost(request.headers, options.allowedHosts);
      const early = preflight(x) ?? rateLimit(pipeline, x);
      if (early) return await answer(pipeline, x, early);
      checkPath(x);
      return await answer(pipeline, x, await storeWrite(pipeline, x, () => route(pipeline, x)));
    } catch (error) {
      return answer(pipeline, x, { error });
    }
  }

  return {
    handle,
    keys: KEYS,
    reset: resetAll,
    setNow: (t) => clock.set(t),
    advance(ms) {
      if (!(ms >= 0)) clock.advance(ms); // refused (RangeError) before any tick runs
      advanceTicking(ticker, clock, ms);
      storeBackground();
    },
    close() {
      ticker.stop();
      storage?.close?.();
    },
    ctx,
    validator: (operationId) => validators.get(operationId),
    graph,
    graphMs,
  };
}
