/**
 * The one test helper of the sandbox: an in-process sandbox whose every API response is checked against the
 * spec by the contract validator. A contract violation throws, so the test that caused it fails. The host
 * is Fastify (inject, no port) or, with SANDBOX_HOST=msw (the vitest project "sandbox-msw"), the MSW
 * handlers (msw's getResponse, no interception), so the same behaviour tests run against both hosts.
 *
 *   const sb = await openSandbox({ graph: fixtureGraphInput() });
 *   const res = await sb.get("/people?company=northwind");                 // key "acme" by default
 *   const bad = await sb.request("GET", "/people?limit=0", { invalidRequest: true });
 *   await sb.close();
 */
import { getResponse } from "msw";
import {
  createContractValidator,
  formatErrors,
  type Exchange,
  type ExchangeResult,
  type HeaderMap,
  logSuiteExchange,
} from "../../../contract-core/index.js";
import { KEYS } from "../contract/auth.js";
import type { Area } from "../contract/context.js";
import { resolveOptions, type SandboxOptions } from "../contract/options.js";
import { createSandboxHandlers, defaultBaseUrl } from "../hosts/msw/msw.js";
import { buildApp, type BuiltSandbox } from "../hosts/node/server.js";
import { nodeStateStorage } from "../hosts/node/node-state-storage.js";

export type KeyName = "acme" | "globex" | "initech" | "platform" | "revoked";

/** The test key of a named organization / kind. */
export function testKey(name: KeyName): string {
  const found = KEYS.find((k) => k.key.startsWith(`tgsb_${name}_`));
  if (!found) throw new Error(`no sandbox key named ${name}`);
  return found.key;
}

export interface RequestOptions {
  /** A named test key (default "acme"), a raw key string, or null for no key. */
  key?: KeyName | (string & {}) | null;
  /** How the key is sent (default bearer). */
  via?: "bearer" | "x-api-key";
  headers?: Record<string, string>;
  /** JSON body (objects are serialized; strings are sent raw with content-type application/json). */
  body?: unknown;
  /** The request is deliberately outside the contract: only the response side is validated. */
  invalidRequest?: boolean;
}

export interface TestResponse<T = any> {
  status: number;
  headers: HeaderMap;
  body: T;
  /** The contract validation result of this exchange. */
  contract: ExchangeResult;
}

export class ContractViolation extends Error {
  declare readonly result: ExchangeResult;

  constructor(result: ExchangeResult) {
    super(`Contract violation:\n${formatErrors(result)}`);
    this.result = result;
    this.name = "ContractViolation";
  }
}

const validator = () => createContractValidator();

/**
 * Validates one exchange; throws ContractViolation when it breaks the contract. Shared by HTTP-based tests.
 * Logs it as coverage evidence: caused, unless the request asked for its status (`Prefer: code=`, seen by the
 * marker itself) or `forced` says a fault of the test's own made the answer.
 */
export function assertContract(
  exchange: Exchange,
  opts: { invalidRequest?: boolean; forced?: boolean } = {},
): ExchangeResult {
  const result = opts.invalidRequest ? validator().validateResponse(exchange) : validator().validate(exchange);
  logSuiteExchange(exchange, opts.forced);
  if (!result.valid) throw new ContractViolation(result);
  return result;
}

/** A named test key's value, or the raw key given. */
function keyValue(key: RequestOptions["key"]): string | null {
  if (key === null) return null;
  return KEYS.find((k) => k.key.startsWith(`tgsb_${key ?? "acme"}_`))?.key ?? key!;
}

export type HostName = "fastify" | "msw";

/** The host the behaviour tests run on (SANDBOX_HOST, default fastify). */
export const HOST: HostName = process.env.SANDBOX_HOST === "msw" ? "msw" : "fastify";

export interface TestSandbox extends Omit<BuiltSandbox, "app"> {
  host: HostName;
  /** `path` is relative to the base URL (/v1), e.g. "/people?limit=2". */
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** Routes outside /v1 (e.g. /__sandbox/...): not in the spec, so not contract-validated. */
  control<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** Fastify-specific tests (inject options such as remoteAddress) get the app as well. */
export interface FastifyTestSandbox extends TestSandbox, BuiltSandbox {}

interface RawResponse {
  status: number;
  headers: HeaderMap;
  text: string;
}

type Send = (
  method: string,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
) => Promise<RawResponse>;

/** An in-process sandbox on the host the run chose (see the file comment). */
export function openSandbox(options: Partial<SandboxOptions> = {}, areas?: Area[]): Promise<TestSandbox> {
  return HOST === "msw" ? openMswSandbox(options, areas) : openFastifySandbox(options, areas);
}

export async function openFastifySandbox(
  options: Partial<SandboxOptions> = {},
  areas?: Area[],
): Promise<FastifyTestSandbox> {
  const built = await buildApp({ rateLimit: false, ...options }, areas);
  const send: Send = async (method, url, headers, payload) => {
    const res = await built.app.inject({
      method: method as "GET",
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    return { status: res.statusCode, headers: res.headers as HeaderMap, text: res.body };
  };
  return { ...built, ...client(built, "fastify", send), close: () => built.app.close() };
}

async function openMswSandbox(options: Partial<SandboxOptions> = {}, areas?: Area[]): Promise<TestSandbox> {
  if (areas) throw new Error("the MSW host serves every area; tests of a partial sandbox run on Fastify");
  const { stateFile: file, ...rest } = options;
  // The Fastify host's dataset size, so both hosts answer the same default graph.
  const { people, companies } = resolveOptions();
  const sandbox = createSandboxHandlers({
    people,
    companies,
    rateLimit: false,
    ...rest,
    persist: file ? nodeStateStorage(file) : false,
  });
  const origin = new URL(defaultBaseUrl()).origin;
  const { core } = sandbox;
  const send: Send = async (method, url, headers, payload) => {
    const body = payload !== undefined ? { body: payload } : {};
    // API calls go through the MSW handlers; control endpoints (not mounted in MSW) straight to the core.
    if (!url.startsWith(`${core.ctx.spec.basePath}/`)) {
      const answer = await core.handle({ method, url, headers, ...body });
      return { status: answer.status, headers: answer.headers, text: answer.body ?? "" };
    }
    const res = await getResponse(sandbox.handlers, new Request(origin + url, { method, headers, ...body }));
    if (!res) throw new Error(`no MSW handler answered ${method} ${url}`);
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
  const built = { core, ctx: core.ctx, state: core.ctx.state, graph: core.graph, graphMs: core.graphMs };
  return { ...built, ...client(built, "msw", send), close: async () => sandbox.close() };
}

function client(
  built: Omit<BuiltSandbox, "app">,
  host: HostName,
  send: Send,
): Pick<TestSandbox, "host" | "request" | "get" | "control"> {
  const base = built.ctx.spec.basePath;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = keyValue(opts.key);
    if (key !== null) {
      if (opts.via === "x-api-key") headers["x-api-key"] = key;
      else headers.authorization = `Bearer ${key}`;
    }
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const url = base + path;
    const res = await send(method, url, headers, payload);
    const isJson = /json/i.test(String(res.headers["content-type"] ?? ""));
    const body = res.text === "" ? null : isJson ? JSON.parse(res.text) : res.text;
    const requestBody =
      opts.body === undefined ? undefined : typeof opts.body === "string" ? safeParse(opts.body) : opts.body;
    const exchange: Exchange = {
      request: { method, url, headers, body: requestBody },
      response: { status: res.status, headers: res.headers, body },
    };
    const contract = assertContract(exchange, { invalidRequest: opts.invalidRequest });
    return { status: res.status, headers: res.headers, body: body as T, contract };
  }

  return {
    host,
    request,
    get: (path, opts) => request("GET", path, opts),
    async control(method, path, body) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      // Control writes need a JSON content type (what a page on another site cannot send), with or without a body.
      const res = await send(method, path, method === "GET" ? {} : { "content-type": "application/json" }, payload);
      return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
