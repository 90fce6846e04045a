/**
 * The one test helper of the sandbox: an in-process sandbox (the Fastify host, inject, no port)
 * whose every API response is checked against the spec by the contract validator. A contract violation
 * throws, so the test that caused it fails.
 *
 *   const sb = await openSandbox({ graph: fixtureGraphInput() });
 *   const res = await sb.get("/people?company=northwind");                 // key "acme" by default
 *   const bad = await sb.request("GET", "/people?limit=0", { invalidRequest: true });
 *   await sb.close();
 */
import { appendFileSync } from "node:fs";
import { afterAll, expect } from "vitest";
import { createContractValidator, formatErrors, type Exchange, type ExchangeResult, type HeaderMap } from "../../../contract-core/index.js";
import { KEYS } from "../auth.js";
import type { Area } from "../context.js";
import type { SandboxOptions } from "../options.js";
import { buildApp, type BuiltSandbox } from "../server.js";

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
  constructor(readonly result: ExchangeResult) {
    super(`Contract violation:\n${formatErrors(result)}`);
    this.name = "ContractViolation";
  }
}

const validator = () => createContractValidator();

/** Validates one exchange; throws ContractViolation when it breaks the contract. Shared by HTTP-based tests. */
export function assertContract(exchange: Exchange, opts: { invalidRequest?: boolean } = {}): ExchangeResult {
  const result = opts.invalidRequest ? validator().validateResponse(exchange) : validator().validate(exchange);
  checked.total++;
  if (!result.valid) {
    checked.violations++;
    throw new ContractViolation(result);
  }
  return result;
}

/** Process-wide tally of validated exchanges (SANDBOX_CONTRACT_TALLY=<file> appends it per test file). */
export const checked = { total: 0, violations: 0 };

const tallyFile = process.env.SANDBOX_CONTRACT_TALLY;
if (tallyFile) {
  afterAll(() => {
    appendFileSync(tallyFile, `${JSON.stringify({ file: expect.getState().testPath, ...checked })}\n`);
    checked.total = checked.violations = 0;
  });
}

function keyValue(key: RequestOptions["key"]): string | null {
  if (key === null) return null;
  const name = key ?? "acme";
  return ["acme", "globex", "initech", "platform", "revoked"].includes(name) ? testKey(name as KeyName) : name;
}

export interface TestSandbox extends BuiltSandbox {
  /** `path` is relative to the base URL (/v1), e.g. "/people?limit=2". */
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** Routes outside /v1 (e.g. /__sandbox/...): not in the spec, so not contract-validated. */
  control<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export async function openSandbox(options: Partial<SandboxOptions> = {}, areas?: Area[]): Promise<TestSandbox> {
  const built = await buildApp({ rateLimit: false, ...options }, areas);
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
    const res = await built.app.inject({ method: method as "GET", url, headers, ...(payload !== undefined ? { payload } : {}) });
    const text = res.body;
    const isJson = /json/i.test(String(res.headers["content-type"] ?? ""));
    const body = text === "" ? null : isJson ? JSON.parse(text) : text;
    const requestBody = opts.body === undefined ? undefined : typeof opts.body === "string" ? safeParse(opts.body) : opts.body;
    const exchange: Exchange = {
      request: { method, url, headers, body: requestBody },
      response: { status: res.statusCode, headers: res.headers as HeaderMap, body },
    };
    const contract = assertContract(exchange, { invalidRequest: opts.invalidRequest });
    return { status: res.statusCode, headers: res.headers as HeaderMap, body: body as T, contract };
  }

  return {
    ...built,
    request,
    get: (path, opts) => request("GET", path, opts),
    async control(method, path, body) {
      const res = await built.app.inject({ method: method as "POST", url: path, ...(body !== undefined ? { payload: body as object } : {}) });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
    },
    close: () => built.app.close(),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
