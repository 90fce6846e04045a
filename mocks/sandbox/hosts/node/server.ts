/**
 * The Fastify host of the sandbox: one plugin hands every request, raw, to the transport-free core
 * (core/core.ts) and writes its answer back. Node-only concerns live here: reading the spec file, the state file
 * on disk, listening on a port, logging.
 */
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply } from "fastify";
import Fastify from "fastify";
import { readFile } from "node:fs/promises";
import {
  DEFAULT_SPEC_PATH,
  MAX_HEADER_BYTES,
  answerClientError,
  continueWithin,
  drainBody,
  loadSpec,
  requestLogLine,
  readBodyWithin,
} from "../../../../contract-core/index.js";
import type { Area, SandboxContext } from "../../contract/context.js";
import { BODY_LIMIT, createSandboxCore, type SandboxCore } from "../../core/core.js";
import type { Graph } from "../../data/graph.js";
import { invalidRequest, serverError } from "../../contract/errors.js";
import { resolveOptions, type SandboxOptions } from "../../contract/options.js";
import type { SandboxState } from "../../contract/state.js";
import { nodeStateStorage } from "./node-state-storage.js";
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
      request.log.error({ err: error }, "sandbox host failed");
      return reply.code(500).send(serverError("The sandbox failed to answer this request").body);
    });
    const log = core.ctx.options.requestLog;
    app.all("*", async (request, reply) => {
      const started = performance.now();
      const res = await core.handle({
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
      const body = res.body;
      if (log) {
        const line = {
          method: request.method,
          url: request.url,
          status: res.status,
          body: res.status < 500 ? body : undefined,
        };
        reply.raw.once("finish", () => log(requestLogLine({ ...line, ms: performance.now() - started })));
      }
      return body === undefined ? reply.send() : reply.send(body);
    });
    app.addHook("onClose", async () => core.close());
  };
}

/** --state-seed: the declared starting state in a JSON file, built when the state (file) holds nothing yet. */
async function seedFromFile(core: SandboxCore, file: string): Promise<void> {
  if (!holdsNoState(core)) return;
  let declared: unknown;
  try {
    declared = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`--state-seed ${file}: ${(error as Error).message}`, { cause: error });
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
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    // Errors raised before routing (e.g. a malformed percent-encoding in the path) keep the reference's shape.
    frameworkErrors: (error, _request, reply) =>
      void (reply as FastifyReply).code(400).send(invalidRequest(error.message).body),
  });
  const core = createSandboxCore({
    ...options,
    spec,
    ...(areas ? { areas } : {}),
    storage: options.stateFile ? nodeStateStorage(options.stateFile) : null,
    onError: (message, err) => app.log.error({ err }, message),
    onWarning: (message) => (options.logger ? app.log.warn(message) : console.warn(`sandbox: ${message}`)),
  });
  // `Expect: 100-continue` for a declared body over the limit gets the 400, not `100 Continue`.
  continueWithin(app.server, BODY_LIMIT);
  if (options.stateSeed) {
    try {
      await seedFromFile(core, options.stateSeed);
    } catch (error) {
      core.close();
      throw error;
    }
  }
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
