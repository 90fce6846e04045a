/**
 * The sandbox server: a Fastify app whose /v1 routes are built from the spec's operations. Every request
 * goes: rate limit -> authentication -> organization access (402) -> Prefer code -> request validation
 * (from the spec) -> the area's handler. Every error becomes the reference's error shape.
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { authenticate, SEED_ORGS } from "./auth.js";
import { installCors } from "./cors.js";
import type { AccountHooks, Area, Handler, OperationId, SandboxContext, SandboxReply } from "./context.js";
import { buildGraph, type Graph } from "./data/graph.js";
import { generatedGraph } from "./data/generate.js";
import { ApiError, invalidRequest, notFound, paymentRequired } from "./errors.js";
import { resolveOptions, type SandboxOptions } from "./options.js";
import { MAX_PREFER_LATENCY_MS, parsePrefer, preferredReply } from "./prefer.js";
import { createRateLimiter } from "./ratelimit.js";
import { areas as allAreas } from "./routes/index.js";
import { loadSpec, type OperationSpec, type SpecIndex } from "./spec.js";
import { SandboxState } from "./state.js";
import { compileRequestValidators } from "./validation.js";

export interface BuiltSandbox {
  app: FastifyInstance;
  ctx: SandboxContext;
  state: SandboxState;
  graph: Graph;
  /** Time spent building the graph (generation and indexes), in ms. */
  graphMs: number;
}

export interface RunningSandbox extends BuiltSandbox {
  /** e.g. http://127.0.0.1:4011/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4011 (control endpoints live at origin + /__sandbox/...) */
  origin: string;
  close(): Promise<void>;
}

const NO_HOOKS: AccountHooks = { watchingUrls: () => [], webhookConfigured: () => false };

/** Spec path /people/{slug} -> Fastify path /v1/people/:slug */
export function routePath(basePath: string, specPath: string): string {
  return basePath + specPath.replace(/\{([^}]+)\}/g, ":$1");
}

function loadGraph(opts: SandboxOptions): Graph {
  return opts.graph ? buildGraph(opts.graph) : generatedGraph({ people: opts.people, companies: opts.companies, seed: opts.seed });
}

export async function buildApp(partial: Partial<SandboxOptions> = {}, areas: Area[] = allAreas): Promise<BuiltSandbox> {
  const options = resolveOptions(partial);
  const spec = loadSpec(options.specPath);
  const t0 = performance.now();
  const graph = loadGraph(options);
  const graphMs = performance.now() - t0;
  const state = new SandboxState(graph, SEED_ORGS);
  const ctx: SandboxContext = { options, graph, state, spec, hooks: { ...NO_HOOKS } };

  const app = Fastify({
    logger: options.logger,
    trustProxy: false,
    return503OnClosing: false,
    // Errors raised before routing (e.g. a malformed percent-encoding in the path) keep the reference's shape.
    frameworkErrors: (error, _request, reply) => void (reply as FastifyReply).code(400).send(invalidRequest(error.message).body),
  });
  installJsonParser(app);
  installErrorHandling(app, spec);
  installCors(app);
  if (options.rateLimit) {
    const limiter = createRateLimiter(options.rateLimit);
    app.addHook("onRequest", async (request, reply) => {
      if (request.method !== "OPTIONS" && request.url.startsWith(`${spec.basePath}/`)) await limiter(request, reply);
    });
  }
  app.addHook("onSend", async (request, _reply, payload) => {
    let prefer = 0;
    try {
      prefer = parsePrefer(request.headers.prefer).latencyMs ?? 0;
    } catch {
      // an invalid Prefer header already answered 400
    }
    const delay = options.latencyMs + Math.min(prefer, MAX_PREFER_LATENCY_MS);
    if (delay > 0) await sleep(delay);
    return payload;
  });

  const handlers = new Map<string, Handler>();
  for (const area of areas) for (const [id, h] of Object.entries(area.handlers)) if (h) handlers.set(id, h);
  const validators = compileRequestValidators(spec);
  for (const op of spec.operations) {
    app.route({
      method: op.method,
      url: routePath(spec.basePath, op.path),
      handler: (request, reply) => handle(op, request, reply),
    });
  }

  async function handle(op: OperationSpec, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const auth = authenticate(request.headers, state);
    if (!auth.org.info.accessAllowed && op.operationId !== "getAccount") throw paymentRequired();
    const prefs = parsePrefer(request.headers.prefer);
    if (prefs.code !== undefined) return send(reply, preferredReply(spec, op, { ...prefs, code: prefs.code }));
    const v = validators.get(op.operationId)!;
    const rawQuery = new URLSearchParams(request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "");
    const handler = handlers.get(op.operationId);
    if (!handler) throw new ApiError(500, "server_error", `${op.operationId} is not implemented in the sandbox yet`);
    const result = await handler(
      {
        operationId: op.operationId as OperationId,
        params: v.params(request.params as Record<string, string>),
        query: v.query(rawQuery),
        rawQuery,
        body: v.body(request.body),
        headers: request.headers,
        org: auth.org,
        auth,
      },
      ctx,
    );
    return send(reply, result);
  }

  for (const area of areas) await area.setup?.(app, ctx);
  app.addHook("onClose", async () => {
    for (const area of [...areas].reverse()) await area.close?.(ctx);
  });
  await app.ready();
  return { app, ctx, state, graph, graphMs };
}

function send(reply: FastifyReply, result: SandboxReply): FastifyReply {
  reply.code(result.status ?? 200);
  for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
  return result.body === undefined ? reply.send() : reply.send(result.body);
}

/** JSON bodies; an empty body is "no body" (POST /targets/{id}/retry), anything unparsable is a 400. */
function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser(/^application\/([a-z.+-]*\+)?json$/i, { parseAs: "string" }, (_req, text, done) => {
    const body = String(text);
    if (body.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch {
      done(invalidRequest("Body is not valid JSON"), undefined);
    }
  });
}

function installErrorHandling(app: FastifyInstance, spec: SpecIndex): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.code(error.status).send(error.body);
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors (media type, body size, malformed URL, ...) -> 400 invalid_request.
      const message = error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? "Content-Type must be application/json" : error.message;
      return reply.code(400).send(invalidRequest(message).body);
    }
    request.log.error({ err: error }, "sandbox handler failed");
    return reply.code(500).send(new ApiError(500, "server_error", "The sandbox failed to answer this request").body);
  });
  app.setNotFoundHandler((request, reply) => {
    const err = notFound(`No route ${request.method} ${request.url.split("?")[0]}${request.url.startsWith(spec.basePath) ? "" : ` (the API lives under ${spec.basePath})`}`);
    return reply.code(404).send(err.body);
  });
}

export async function startSandbox(partial: Partial<SandboxOptions> = {}, areas?: Area[]): Promise<RunningSandbox> {
  const built = await buildApp(partial, areas);
  const { options, spec } = built.ctx;
  await built.app.listen({ host: options.host, port: options.port });
  const address = built.app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const origin = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`;
  return { ...built, origin, baseUrl: origin + spec.basePath, close: () => built.app.close() };
}
