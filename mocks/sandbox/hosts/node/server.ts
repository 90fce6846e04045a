/**
 * The Fastify host of the sandbox: one plugin hands every request, raw, to the transport-free core
 * (core/core.ts) and writes its answer back. Node-only concerns live here: reading the spec file, the state file
 * on disk, listening on a port, logging.
 */
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply } from "fastify";
import Fastify from "fastify";
import { existsSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import {
  InputError,
  DEFAULT_SPEC_PATH,
  MAX_HEADER_BYTES,
  NO_HOST_MESSAGE,
  answerClientError,
  continueWithin,
  drainBody,
  loadSpec,
  normalizeRequestPath,
  escapeLogText,
  requestLogLine,
  readBodyWithin,
} from "../../../../contract-core/index.js";
import type { Area, SandboxContext } from "../../contract/context.js";
import { json } from "../../core/answer.js";
import { BODY_LIMIT, createSandboxCore, type SandboxCore } from "../../core/core.js";
import type { Graph } from "../../data/graph.js";
import { invalidRequest, serverError } from "../../contract/errors.js";
import { resolveOptions, type SandboxOptions } from "../../contract/options.js";
import type { SandboxState } from "../../contract/state.js";
import { nodeStateStorage } from "./node-state-storage.js";
import { recordPath } from "./state-lineage.js";
import { applyStartingState, holdsNoState, type StartingState } from "../seed-state.js";

export interface BuiltSandbox {
  app: FastifyInstance;
  core: SandboxCore;
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

/** Serves every request of the app through the core; closing the app closes the core. */
export function sandboxPlugin(core: SandboxCore): FastifyPluginAsync {
  return async (app) => {
    app.removeAllContentTypeParsers();
    // The body is left unread here: the core reads it (streamed, up to BODY_LIMIT bytes) only after
    // authentication and organization access, so a missing key is a 401 whatever the body.
    app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    // Errors Fastify raises before the core sees the request (body too large, ...) keep the reference's shape.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = typeof error.statusCode === "number" ? error.statusCode : 500;
      if (status >= 400 && status < 500) return reply.code(400).send(invalidRequest(error.message).body);
      core.ctx.logError("sandbox host failed", error);
      return reply.code(500).send(serverError("The sandbox failed to answer this request").body);
    });
    app.all("*", async (request, reply) => {
      const res =
        request.headers.host === undefined
          ? json(400, invalidRequest(NO_HOST_MESSAGE).body)
          : await core.handle({
              method: request.method,
              url: request.url,
              headers: request.headers,
              body: request.body === undefined ? undefined : () => readBodyWithin(request.raw, BODY_LIMIT),
              remoteAddress: request.ip,
            });
      reply.code(res.status).headers(res.headers);
      // A body left unread (refused before reading, or over the limit) is read and thrown away while the answer
      // goes out, so the client reads it; one too large for that (or never sent) closes the connection.
      if (!drainBody(request.raw, BODY_LIMIT)) reply.header("connection", "close");
      return res.body === undefined ? reply.send() : reply.send(res.body);
    });
    app.addHook("onClose", async () => core.close());
  };
}

/**
 * One line per answered request (requestLogLine), hooked at the root so that answers given before the core
 * (a body Fastify refused) have their line too; frameworkErrors writes its own: one request, one line.
 */
function logRequests(app: FastifyInstance, log: (line: string) => void): void {
  const sent = new WeakMap<object, unknown>();
  app.addHook("onSend", async (request, _reply, payload) => {
    sent.set(request, payload);
    return payload;
  });
  app.addHook("onResponse", async (request, reply) => {
    const body = sent.get(request);
    log(
      requestLogLine({
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: reply.elapsedTime,
        body,
      }),
    );
  });
}

/**
 * Unexpected failures (a storage error, a handler that threw): Fastify's log with --log, else one line on
 * stderr naming the failing step and the error, so a 500 in the request log always has its reason beside it.
 */
function failureLog(app: FastifyInstance, logger: boolean): (message: string, error: unknown) => void {
  if (logger) return (message, err) => app.log.error({ err }, message);
  return (message, error) => {
    const reasons: string[] = [];
    for (let e: unknown = error; e !== undefined && reasons.length < 4; e = (e as Error).cause)
      reasons.push(e instanceof Error ? e.message : String(e));
    console.error(escapeLogText(`sandbox: ${message}: ${reasons.join(": ")}`));
  };
}

/** --state-seed: the declared starting state in a JSON file, built when the state (file) holds nothing yet. */
async function seedFromFile(core: SandboxCore, file: string): Promise<void> {
  if (!holdsNoState(core)) return;
  let declared: unknown;
  try {
    declared = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new InputError(`--state-seed ${file}: ${(error as Error).message}`, { cause: error });
  }
  await applyStartingState(core, declared as StartingState, `--state-seed ${file}`);
}

export async function buildApp(partial: Partial<SandboxOptions> = {}, areas?: Area[]): Promise<BuiltSandbox> {
  const options = resolveOptions(partial);
  const specPath = options.specPath || DEFAULT_SPEC_PATH;
  let spec: Record<string, unknown>;
  try {
    spec = loadSpec(specPath);
  } catch (e) {
    throw new Error(`${(e as Error).message}: run \`npm run generate\` first`, { cause: e });
  }
  const app = Fastify({
    logger: options.logger,
    trustProxy: false,
    return503OnClosing: false,
    // Node's own parser refusals (headers or URL over MAX_HEADER_BYTES, malformed requests) in the reference's shape.
    clientErrorHandler: answerClientError,
    // A request without Host reaches the core's Host step, which answers the 400 with a body (Node's own has none).
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    // Errors raised before routing (e.g. a malformed percent-encoding in the path) keep the reference's shape.
    // A path that cannot be decoded gets the core's message for it, as the mock words it.
    // It runs no hooks, so it writes its request line itself.
    frameworkErrors: (error, request, reply) => {
      const url = request.raw.url ?? "/";
      const path = normalizeRequestPath(url.split("?")[0]!);
      const body = invalidRequest(path.ok ? error.message : path.message).body;
      void (reply as FastifyReply).code(400).send(body);
      const ms = (reply as FastifyReply).elapsedTime;
      options.requestLog?.(requestLogLine({ method: request.method, url, status: 400, ms, body }));
    },
  });
  const created = options.stateFile !== null && !existsSync(options.stateFile);
  const warn = (message: string) => (options.logger ? app.log.warn(message) : console.warn(`sandbox: ${message}`));
  const core = createSandboxCore({
    ...options,
    // The Host step (core/host-guard.ts): loopback names, IP addresses, --host and --allowed-host.
    allowedHosts: [options.host, ...(options.allowedHosts ?? [])],
    spec,
    ...(areas ? { areas } : {}),
    storage: options.stateFile
      ? nodeStateStorage(options.stateFile, { acceptOlderState: options.acceptOlderState, warn })
      : null,
    onError: failureLog(app, options.logger),
    onWarning: warn,
  });
  // `Expect: 100-continue` for a declared body over the limit gets the 400, not `100 Continue`.
  continueWithin(app.server, BODY_LIMIT);
  if (options.stateSeed) {
    try {
      await seedFromFile(core, options.stateSeed);
    } catch (error) {
      core.close();
      // The seed stored nothing (all or nothing); a state file this start created goes too.
      if (created && options.stateFile)
        for (const file of [options.stateFile, recordPath(options.stateFile)]) rmSync(file, { force: true });
      throw error;
    }
  }
  if (options.requestLog) logRequests(app, options.requestLog);
  await app.register(sandboxPlugin(core));
  await app.ready();
  return { app, core, ctx: core.ctx, state: core.ctx.state, graph: core.graph, graphMs: core.graphMs };
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
