// The mock's HTTP front: a node:http server that serves the spec's operations under /v1, reads
// Prism's request preferences, handles CORS like Prism, and hands each call to the Prism engine
// running in this process (see engine.ts for the choice and the error mapping).
//
//   const mock = await startMock({ port: 0 });   // mock.baseUrl === "http://127.0.0.1:<port>/v1"
//   ...
//   await mock.close();
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_HOST, DEFAULT_PORT } from "./address.js";
import { createEngine, type Engine, type EngineMode } from "./engine.js";
import { errorReply, invalidRequest, noRoute, SERVER_ERROR_TYPE, type MockReply } from "./errors.js";
import {
  InputError,
  DEFAULT_SPEC_PATH,
  MAX_BODY_BYTES,
  MAX_HEADER_BYTES,
  answerClientError,
  bodyTooDeepMessage,
  bodyTooLargeMessage,
  continueWithin,
  drainBody,
  escapeLogText,
  foreignHostProblem,
  jsonTextOf,
  jsonTooDeep,
  NO_HOST_MESSAGE,
  normalizeRequestPath,
  readBodyWithin,
  parsePrefer,
  honouredPreferences,
  preferenceAppliedHeader,
  queryRecord,
  requestLogLine,
  requestWording,
  type PreferenceName,
} from "../../contract-core/index.js";

/** The Prefer preferences the mock acts on (see the table in README.md); any other is ignored. */
export const MOCK_PREFERENCES: readonly PreferenceName[] = ["code", "example", "dynamic", "seed", "latency"];

export interface MockOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Host names answered besides loopback names, IP addresses and `host` (any other Host: a 403, host-guard.ts). */
  allowedHosts?: readonly string[];
  /** OpenAPI document (JSON or YAML path); default generated/openapi.json. */
  spec?: string;
  /** No warnings on stderr (tests). */
  quiet?: boolean;
  /**
   * Validate every answer against the spec and warn (once per operation and status) when an example
   * breaks its schema. Default: off for the mock (CI checks the examples; this costs ~30% throughput),
   * always on for the proxy.
   */
  validateResponses?: boolean;
  /** Serve a repeated request Prism's first answer to it (default on; see memo.ts). Off: Prism answers every call. */
  memoize?: boolean;
  /** One line per request goes here (requestLogLine: never headers, so never a key); the command's default. */
  requestLog?: (line: string) => void;
}

export interface RunningMock {
  /** Ends with /v1, e.g. http://127.0.0.1:4010/v1. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface ProxyOptions extends MockOptions {
  /** Base URL of the deployment to validate, ending with /v1. */
  upstream: string;
}

/** Starts the static mock of the spec; resolves once it listens. */
export function startMock(opts: MockOptions = {}): Promise<RunningMock> {
  return startFront(opts, { kind: "mock" });
}

/** Starts the validating proxy in front of `upstream` (Prism proxy mode with errors on). */
export function startProxy(opts: ProxyOptions): Promise<RunningMock> {
  const upstream = new URL(opts.upstream);
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:") {
    throw new Error(`upstream must be an http(s) URL, got ${opts.upstream}`);
  }
  return startFront(opts, { kind: "proxy", upstream });
}

async function startFront(opts: MockOptions, mode: EngineMode): Promise<RunningMock> {
  const quiet = opts.quiet ?? false;
  const spec = opts.spec ?? DEFAULT_SPEC_PATH;
  if (!existsSync(spec))
    throw new InputError(`${spec} not found${spec === DEFAULT_SPEC_PATH ? ": run npm run generate" : ""}`);
  const engine = await createEngine({
    spec,
    mode,
    validateResponses: mode.kind === "proxy" || (opts.validateResponses ?? false),
    warn: quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
    memoize: opts.memoize,
  });
  const exposed = [...engine.exposedHeaders, "preference-applied"].join(", ");
  const log = opts.requestLog;
  const host = opts.host ?? DEFAULT_HOST;
  const allowedHosts = [host, ...(opts.allowedHosts ?? [])];
  // A request without Host gets the 400 with a body from handle(), not Node's empty one.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, (req, res) => {
    const started = performance.now();
    let answered: MockReply | undefined;
    if (log) {
      res.once("finish", () => {
        const { method = "GET", url = "/" } = req;
        const ms = performance.now() - started;
        log(requestLogLine({ method, url, status: res.statusCode, ms, body: answered?.body }));
      });
    }
    handle(engine, exposed, allowedHosts, req, res)
      .then((reply) => send(res, (answered = reply)))
      .catch((error: unknown) => {
        if (!quiet) process.stderr.write(`${escapeLogText(`mock: ${req.method} ${req.url}: ${String(error)}`)}\n`);
        const message = error instanceof Error ? error.message : String(error);
        send(res, errorReply(500, SERVER_ERROR_TYPE, `mock failure: ${message}`));
      });
  });
  server.on("clientError", answerClientError);
  // `Expect: 100-continue` for a declared body over the limit gets the 400, not `100 Continue`.
  continueWithin(server, MAX_BODY_BYTES);
  await once(server.listen(opts.port ?? DEFAULT_PORT, host), "listening");
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    baseUrl: `http://${shownHost}:${port}${engine.basePath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The answer to one request; CORS headers (open to any origin, see README.md) are set on `res` first. */
async function handle(
  engine: Engine,
  exposed: string,
  allowedHosts: readonly string[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<MockReply> {
  // The Host check against DNS rebinding (contract-core/host-guard.ts), before anything else.
  if (req.headers.host === undefined) return invalidRequest(NO_HOST_MESSAGE);
  const foreign = foreignHostProblem(req.headers.host, allowedHosts);
  if (foreign !== null) return errorReply(403, "invalid_request", foreign);
  // Keys travel in headers, not cookies, so credentials are not allowed; without them `*` is a real wildcard
  // for the origin. Exposed headers are listed by name, which every browser honours with or without credentials.
  res.setHeader("access-control-allow-origin", "*");
  res.setHeader("access-control-allow-headers", req.headers["access-control-request-headers"] ?? "*");
  res.setHeader("access-control-expose-headers", exposed);
  const method = req.method ?? "GET";
  const requestedMethod = req.headers["access-control-request-method"];
  if (method === "OPTIONS" && req.headers.origin && requestedMethod) {
    const headers = { "access-control-allow-methods": requestedMethod, vary: "origin", "content-length": 0 };
    return { status: 204, headers };
  }
  const url = new URL(req.url ?? "/", "http://mock.invalid");
  // Routing, validation and messages all use this one normalized path.
  const normalized = normalizeRequestPath(url.pathname);
  if (!normalized.ok) return invalidRequest(normalized.message);
  const path = normalized.path;
  const label = `${method} ${path}`;
  const { basePath } = engine;
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return noRoute(label, basePath);
  const read = await readBody(req);
  // Node joins a repeated request header into one string; only `set-cookie`, no request header, stays a list.
  const headers = req.headers as Record<string, string>;
  // Authentication comes before the body, as in the sandbox: without a key, a body the mock cannot read is
  // left out and Prism answers the request's 401 (or its 404) rather than the body's 400.
  const keyless = headers.authorization === undefined && headers["x-api-key"] === undefined;
  if (!read.ok && !keyless) return invalidRequest(read.message);
  const body = read.ok ? read : { value: undefined, bytes: 0 };
  const preferences = parsePrefer(headers.prefer, MOCK_PREFERENCES, url.searchParams);
  if (!preferences.ok) return invalidRequest(preferences.message);
  const { latencyMs } = preferences.preferences;
  if (latencyMs) await new Promise((done) => setTimeout(done, latencyMs));
  const reply = await engine.handle(
    {
      // HEAD is GET without the body (RFC 9110 9.3.2), as on the sandbox: Node leaves the body out of the answer.
      method: method === "HEAD" ? "GET" : method,
      path: path.slice(basePath.length) || "/",
      label,
      query: queryRecord(url.searchParams),
      headers,
      body: body.value,
      bodyBytes: body.bytes,
    },
    preferences.preferences,
  );
  const applied = preferenceAppliedHeader(honouredPreferences(preferences, reply.status));
  return applied === undefined ? reply : { ...reply, headers: { ...reply.headers, "preference-applied": applied } };
}

type BodyResult = { ok: true; value: unknown; bytes: number } | { ok: false; message: string };

/**
 * The body, read as it streams in and given up at MAX_BODY_BYTES (a declared Content-Length over the
 * limit is refused before reading anything): nothing larger is buffered, parsed or validated. The rest of
 * a refused body is left unread and the answer closes the connection (see send).
 */
async function readBody(req: IncomingMessage): Promise<BodyResult> {
  if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) {
    return { ok: true, value: undefined, bytes: 0 };
  }
  const raw = await readBodyWithin(req, MAX_BODY_BYTES);
  if (raw === null) return { ok: false, message: bodyTooLargeMessage() };
  if (raw.length === 0) return { ok: true, value: undefined, bytes: 0 };
  if (!/^application\/(.+\+)?json\b/i.test(req.headers["content-type"] ?? ""))
    return { ok: true, value: raw.toString("utf8"), bytes: raw.length };
  // UTF-8 without a byte order mark, as the sandbox reads it (contract-core's jsonTextOf).
  const decoded = jsonTextOf(raw);
  if (!decoded.ok) return { ok: false, message: decoded.message };
  const { text } = decoded;
  if (jsonTooDeep(text)) return { ok: false, message: bodyTooDeepMessage() };
  try {
    return { ok: true, value: JSON.parse(text) as unknown, bytes: raw.length };
  } catch (error) {
    return { ok: false, message: requestWording.invalidJsonBody((error as Error).message) };
  }
}

function send(res: ServerResponse, reply: MockReply): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const { body } = reply;
  const payload = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  // A body left unread (refused early, or over the limit) is read and thrown away while the answer goes out,
  // so the client reads it; one too large for that (or never sent) closes the connection.
  if (!drainBody(res.req)) res.setHeader("connection", "close");
  if (payload !== undefined) res.setHeader("content-length", Buffer.byteLength(payload));
  res.writeHead(reply.status).end(payload);
}
