// Prism's HTTP engine (@stoplight/prism-http, the library under `prism mock` / `prism proxy`) used
// in-process, and the mapping of its answers to the reference's error shapes.
//
// Why a library and not a front proxying to the Prism CLI: one process and one hop instead of two
// (faster, nothing to orphan, port 0 works), structured violations instead of parsing the
// `sl-violations` header, and no Prism logger (at info level it prints request headers, API keys
// included; its log piping is also what makes the CLI slow).
import { createInstance, getHttpOperationsFromSpec } from "@stoplight/prism-http";
import type { IHttpConfig, IHttpRequest, IHttpResponse } from "@stoplight/prism-http";
import {
  describeViolations,
  errorReply,
  isErrorBody,
  invalidRequest,
  isError,
  isSecurityViolation,
  noRoute,
  SERVER_ERROR_TYPE,
  UNAUTHORIZED_MESSAGE,
  type MockReply,
  type Violation,
} from "./errors.js";
import {
  exampleMatcher,
  loadSpec,
  pastLastPage,
  presentedKey,
  requestWording,
  Router,
  serverBasePath,
  withAnsweredStatus,
  type Preferences,
} from "../../contract-core/index.js";
import type { EngineRequest } from "./engine-request.js";
import { requestPrecheck } from "./bounds.js";
import { createMemo, hasCallbacks } from "./memo.js";

export type { EngineRequest } from "./engine-request.js";

export type EngineMode = { kind: "mock" } | { kind: "proxy"; upstream: URL };

export interface EngineOptions {
  spec: string;
  mode: EngineMode;
  /** Validate each answer against the spec (mock: warns about examples that drift; proxy: 500 on violation). */
  validateResponses: boolean;
  /** Where warnings go (examples that break their schema, upstream violations). */
  warn?: (line: string) => void;
  /** Serve a repeated request Prism's first answer to it (memo.ts): default on, never for the proxy. */
  memoize?: boolean;
}

export interface Engine {
  /** The path of the spec's server URL (`/v1`): the mock serves the spec's paths under it. */
  basePath: string;
  /** Every response header the spec declares, lower-case (CORS exposes them to browser apps). */
  exposedHeaders: readonly string[];
  handle(request: EngineRequest, preferences: Preferences): Promise<MockReply>;
}

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

/** Prism's components all log through this; a no-op logger keeps that work (and key leaks) out. */
function silentLogger(): never {
  const noop = (): void => undefined;
  const logger: Record<string, unknown> = { level: "silent" };
  for (const level of ["trace", "debug", "info", "success", "start", "warn", "error", "fatal"]) logger[level] = noop;
  logger.child = () => logger;
  logger.isLevelEnabled = () => false;
  return logger as never;
}

/** Prism error names look like `https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR`. */
function prismErrorType(error: Error): string {
  return error.name.slice(error.name.lastIndexOf("#") + 1);
}

interface PrismError extends Error {
  detail?: string;
  status?: number;
  additional?: { validation?: Violation[] };
}

function responseHeaderNames(operations: Operations): string[] {
  const names = operations.flatMap((op) =>
    op.responses.flatMap((r) => (r.headers ?? []).map((h) => h.name.toLowerCase())),
  );
  return [...new Set(names)].sort();
}

/** The mock's own failure (not a documented 5xx example, which is kept like any answer). */
const isMockFailure = (reply: MockReply): boolean =>
  isErrorBody(reply.body, SERVER_ERROR_TYPE) && reply.body.error.message.startsWith("mock failure");

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const operations: Operations = await getHttpOperationsFromSpec(options.spec);
  const doc = loadSpec(options.spec);
  const pickExample = exampleMatcher(doc);
  const precheck = requestPrecheck(doc);
  if (operations.length === 0) throw new Error(`No operations found in ${options.spec}`);
  // Prism's router scores every operation of the spec on every call (a third of its time on this spec):
  // handing it only the operations whose template matches the path leaves it the same choice for less work.
  const router = new Router("", operations, (op) => op);
  const proxy = options.mode.kind === "proxy";
  const shared = {
    checkSecurity: true,
    validateRequest: true,
    validateResponse: options.validateResponses,
    errors: proxy,
    upstreamProxy: undefined,
    mock: { dynamic: false },
  };
  const config: IHttpConfig =
    options.mode.kind === "proxy"
      ? { ...shared, isProxy: true, upstream: options.mode.upstream }
      : { ...shared, isProxy: false };
  const prism = createInstance(config, { logger: silentLogger() });
  const warn = options.warn ?? (() => undefined);
  const warned = new Set<string>();
  const memo = !proxy && (options.memoize ?? true) ? createMemo<MockReply>(operations) : undefined;

  function fromPrismError(error: PrismError, request: EngineRequest, preferences: Preferences): MockReply {
    const type = prismErrorType(error);
    switch (type) {
      case "NO_PATH_MATCHED_ERROR":
      case "NO_METHOD_MATCHED_ERROR":
      case "NO_RESOURCE_PROVIDED_ERROR":
      case "NO_SERVER_MATCHED_ERROR":
        return noRoute(request.label);
      case "UNPROCESSABLE_ENTITY":
        return rejected(describeViolations(error.additional?.validation ?? []), request);
      case "INVALID_CONTENT_TYPE":
        return invalidRequest(error.detail ?? "unsupported content type");
      case "UNAUTHORIZED":
        return errorReply(401, "unauthorized", UNAUTHORIZED_MESSAGE);
      case "NOT_FOUND":
      case "NOT_ACCEPTABLE":
        // The request asked the mock for something the spec does not document.
        return invalidRequest(unknownPreference(request, preferences, error.detail));
      default:
        if (proxy && error.status === undefined) {
          return errorReply(502, SERVER_ERROR_TYPE, `upstream unreachable for ${request.label}: ${error.message}`);
        }
        warn(`mock: ${request.label}: ${type}: ${error.detail ?? error.message}`);
        return errorReply(500, SERVER_ERROR_TYPE, `mock failure: ${error.detail ?? error.message}`);
    }
  }

  /** A request that breaks the spec: 400 naming every violation (the proxy also reports it). */
  function rejected(message: string, request: EngineRequest): MockReply {
    if (proxy) warn(`proxy: request ${request.label} violates the spec: ${message}`);
    return invalidRequest(message);
  }

  function checkedOutput(output: IHttpResponse, outputViolations: Violation[], request: EngineRequest): MockReply {
    const errors = outputViolations.filter(isError);
    if (errors.length > 0) {
      const message = `response to ${request.label} (${output.statusCode}) violates the spec: ${describeViolations(errors)}`;
      if (proxy) {
        warn(`proxy: ${message}`);
        return errorReply(500, SERVER_ERROR_TYPE, `contract violation: ${message}`);
      }
      const key = `${request.method} ${request.path} ${output.statusCode}`;
      if (!warned.has(key)) {
        warned.add(key);
        warn(`mock: the spec's example ${message}`);
      }
    }
    return toReply(output);
  }

  /** Prism's answer to a request, with the mock's checks and adjustments around it. */
  async function answer(
    request: EngineRequest,
    preferences: Preferences,
    candidates: Operations,
    operation: Operations[number] | undefined,
  ): Promise<MockReply> {
    // An operation that takes no body (POST /targets/{id}/retry: "no query parameters or body", and no 400 in
    // its errors) ignores a JSON body sent anyway, as the sandbox does; a body that is not JSON is still a 400.
    // Prism judges a body by its Content-Length, so that header goes with it.
    const noBody = operation !== undefined && operation.request?.body === undefined;
    const headers = noBody
      ? Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== "content-length"))
      : request.headers;
    const input: IHttpRequest = {
      method: request.method.toLowerCase() as IHttpRequest["method"],
      url: { path: request.path, query: request.query },
      headers,
      body: noBody ? undefined : request.body,
    };
    const refused = operation && precheck(operation, request);
    // A keyless request is answered 401 before its other faults, as Prism (and the sandbox) answer it.
    if (refused && presentedKey(request.headers) === null && operation.security?.some((s) => s.length > 0))
      return errorReply(401, "unauthorized", UNAUTHORIZED_MESSAGE);
    if (refused) return rejected(refused, request);
    const stated = preferences.example !== undefined || preferences.code !== undefined || preferences.dynamic === true;
    const matched = stated ? undefined : pickExample(request.method, request.path, request.query, request.body);
    const { dynamic = false, seed } = preferences;
    const code = matched?.status ?? preferences.code;
    // Prism's mock config: the preferences it knows (it tests each for truth, so undefined is unset).
    const mock = { code, dynamic, seed, exampleKey: matched?.example ?? preferences.example };
    const result = await prism.request(input, candidates, { ...config, mock })();
    if (result._tag === "Left") return fromPrismError(result.left as PrismError, request, preferences);

    const { output, validations } = result.right;
    const inputErrors = validations.input.filter(isError) as Violation[];
    if (inputErrors.some(isSecurityViolation)) {
      return output.statusCode === 401 && isErrorBody(output.body, "unauthorized")
        ? toReply(output)
        : errorReply(401, "unauthorized", UNAUTHORIZED_MESSAGE);
    }
    if (inputErrors.length > 0) return rejected(describeViolations(inputErrors), request);
    const reply = checkedOutput(output, validations.output as Violation[], request);
    // The proxy passes the upstream's answers through; only the mock's own examples are adjusted.
    if (proxy || reply.body === undefined) return reply;
    if (!stated && matched === undefined && request.method.toUpperCase() === "GET" && reply.status === 200) {
      const page = pastLastPage(reply.body, request.query);
      if (page !== undefined) return { ...reply, body: page };
    }
    return { ...reply, body: withAnsweredStatus(reply.body, reply.status) };
  }

  return {
    basePath: serverBasePath(doc),
    exposedHeaders: responseHeaderNames(operations),
    async handle(request, preferences) {
      const candidates = router.candidates(request.path);
      if (candidates.length === 0) return noRoute(request.label);
      const found = router.match(request.method, request.path);
      const operation = found.ok ? found.route : undefined;
      const key =
        memo && request.body === undefined && request.bodyBytes === 0 && !candidates.some(hasCallbacks)
          ? memo.keyOf(request, preferences)
          : undefined;
      const known = key === undefined ? undefined : memo?.get(key);
      if (known) return known;
      const reply = await answer(request, preferences, candidates, operation);
      // A failure of the mock itself is never kept.
      if (key !== undefined && !isMockFailure(reply)) memo?.set(key, reply);
      return reply;
    },
  };
}

function unknownPreference(request: EngineRequest, preferences: Preferences, detail: string | undefined): string {
  if (preferences.example !== undefined) {
    return requestWording.noNamedExample(request.label, preferences.example, preferences.code);
  }
  if (preferences.code !== undefined) {
    return requestWording.noDocumentedResponse(request.label, preferences.code);
  }
  return `the mock cannot answer ${request.label}: ${detail ?? "no matching response"}`;
}

/** Prism's output as an HTTP reply: lower-case header names, no content-type without a body. */
function toReply(output: IHttpResponse): MockReply {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(output.headers ?? {})) {
    if (value !== null && value !== undefined) headers[name.toLowerCase()] = value;
  }
  const hasBody = output.body !== undefined && output.body !== null && output.statusCode !== 204;
  if (!hasBody) delete headers["content-type"];
  return hasBody ? { status: output.statusCode, headers, body: output.body } : { status: output.statusCode, headers };
}
