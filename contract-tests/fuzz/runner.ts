/**
 * One fuzz run against a deployment: discover ids that exist (listing first), generate the seeded request
 * sequence, send it with bounded concurrency and time, apply the checks, and summarize. Keys are added only
 * when sending, so neither the report nor the curl commands contain one.
 */
import { performance } from "node:perf_hooks";
import {
  checkTarget,
  createContractValidator,
  DEFAULT_SPEC_PATH,
  exchangeFromFetch,
  isObj,
  type Exchange,
} from "../../contract-core/index.js";
import { CHECKS, runChecks, type CheckName, type CheckOutcome } from "./checks.js";
import { curlCommand } from "./curl.js";
import { loadOperations, type FuzzOperation, type FuzzSpec } from "./operations.js";
import { RequestGenerator, type FuzzRequest, type SeedValues } from "./requests.js";

export interface FuzzOptions {
  /** Base URL of the API, ending with its base path, e.g. http://127.0.0.1:4010/v1. */
  baseUrl: string;
  key: string;
  revokedKey?: string;
  seed: number;
  requests: number;
  concurrency: number;
  /** Stop sending new requests after this long. */
  timeLimitMs: number;
  spec?: string;
  /** Restrict to these operation ids. */
  operations?: string[];
  /** List resources first so that valid requests use ids that exist (default true). */
  discover?: boolean;
  /** How requests are sent (default the global fetch); an in-process host passes its own. */
  fetch?: typeof fetch;
  /** Sees every exchange the run judged (coverage collects them). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Probe the deployment with the key before fuzzing (the CLI does): an unreachable server, a refused key or a
   * missing base path stops the run with one FuzzTargetError instead of a failure per request.
   */
  checkTarget?: { keySource: string };
}

export interface FuzzFailure {
  check: CheckName;
  operationId: string;
  status: number;
  message: string;
  /** Requests that failed the same way (same check, operation, status and mutation kind). */
  count: number;
  request: Pick<FuzzRequest, "index" | "method" | "path" | "auth" | "intent" | "mutation">;
  curl: string;
}

export interface OperationSummary {
  requests: number;
  valid: number;
  invalid: number;
  statuses: Record<string, number>;
  failures: number;
}

export interface FuzzReport {
  baseUrl: string;
  seed: number;
  requested: number;
  sent: number;
  durationMs: number;
  stoppedBy: "done" | "time limit";
  /**
   * Rate limiting: `waited` 429 answers the run waited out as their Retry-After asked and sent again (judged
   * by no check), `waitedMs` in all, and `answers`: requests whose last answer was still a 429, so that they
   * tested nothing (no Retry-After, or no time left to wait).
   */
  rateLimited: { waited: number; waitedMs: number; answers: number };
  checks: Record<CheckName, { failed: number }>;
  operations: Record<string, OperationSummary>;
  /** Distinct failures, most frequent first. */
  failures: FuzzFailure[];
}

function authHeaders(request: FuzzRequest, options: FuzzOptions): Record<string, string> {
  if (request.auth === "bearer") return { authorization: `Bearer ${options.key}` };
  if (request.auth === "x-api-key") return { "x-api-key": options.key };
  if (request.auth === "revoked" && options.revokedKey) return { authorization: `Bearer ${options.revokedKey}` };
  return {};
}

/** An answer as an exchange for the contract validator (URL under the spec's base path, key redacted), or why there was none. */
type Sent = { exchange: Exchange; error?: undefined } | { exchange?: undefined; error: string };

async function send(options: FuzzOptions, basePath: string, request: FuzzRequest): Promise<Sent> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}${request.path}`;
  try {
    const res = await (options.fetch ?? fetch)(url, {
      method: request.method,
      headers: { ...request.headers, ...authHeaders(request, options) },
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    const recorded = {
      method: request.method,
      url: basePath + request.path,
      headers: { ...request.headers, ...authHeaders(request, { ...options, key: "redacted", revokedKey: "redacted" }) },
      body: request.body,
    };
    return { exchange: await exchangeFromFetch(recorded, res) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: `no answer: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
}

/** The template with every parameter filled, so that a request whose own URL does not route is judged against its operation. */
function canonicalPath(op: FuzzOperation): string {
  return op.pathTemplate.replace(/\{[^}]+\}/g, "fuzz");
}

/**
 * Finds ids that exist, so that valid requests reach real data: creates one resource per create operation
 * (its first example body), lists every collection, then creates and reads one level below (List members).
 * Values are collected per path template and property (`/lists#id`), and matched to the path parameters.
 */
async function discover(spec: FuzzSpec, send: (request: FuzzRequest) => Promise<Sent>): Promise<SeedValues> {
  const found = new Map<string, Set<string>>();
  const collect = (template: string, body: unknown, withSelf: boolean): void => {
    const data = isObj(body) ? body.data : undefined;
    const nested = isObj(data) ? Object.values(data).flatMap((v) => (Array.isArray(v) ? v : [])) : [];
    const items: unknown[] = Array.isArray(data) ? data : [...(withSelf && isObj(data) ? [data] : []), ...nested];
    for (const item of items) {
      if (!isObj(item)) continue;
      for (const [key, value] of Object.entries(item)) {
        if (typeof value !== "string" || value.length > 200) continue;
        const bucket = `${template}#${key}`;
        if (!found.has(bucket)) found.set(bucket, new Set());
        const set = found.get(bucket)!;
        if (set.size < 10) set.add(value);
      }
    }
  };
  const call = async (op: FuzzOperation, path: string, withSelf: boolean): Promise<void> => {
    const body = op.body?.examples[0];
    const headers: Record<string, string> = body === undefined ? {} : { "content-type": op.body!.mediaType };
    const request: FuzzRequest = {
      index: -1,
      operationId: op.operationId,
      method: op.method,
      path,
      headers,
      auth: "bearer",
      intent: "valid",
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    const { exchange } = await send(request);
    const status = exchange?.response.status ?? 0;
    if (status >= 200 && status < 300) collect(op.pathTemplate, exchange!.response.body, withSelf);
  };
  const pathParams = (op: FuzzOperation): string[] => [...op.pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const noRequiredQuery = (op: FuzzOperation): boolean => !op.params.some((p) => p.required && p.in === "query");
  const creates = spec.operations.filter(
    (op) => op.method === "POST" && (op.body?.examples.length ?? 0) > 0 && noRequiredQuery(op),
  );
  const reads = spec.operations.filter((op) => op.method === "GET" && noRequiredQuery(op));

  const candidates = (template: string, param: string): string[] => {
    const prefix = template.slice(0, template.indexOf(`{${param}}`)).replace(/\/$/, "");
    const snake = param.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    // The collection at the prefix (`/lists` for `/lists/{id}`), else the resource that holds it (`/lists/{id}` for `/lists/{id}/members/{membershipId}`).
    for (const owner of [prefix, prefix.replace(/(\/[^/{}]+)+$/, "")]) {
      for (const key of [param, snake, "id"]) {
        const values = found.get(`${owner}#${key}`);
        if (values && values.size > 0) return [...values];
      }
    }
    return [];
  };
  const firstLevel = (op: FuzzOperation): boolean => pathParams(op).length === 0;
  /** The template with its one parameter filled by a discovered value, or null. */
  const secondLevel = (op: FuzzOperation): string | null => {
    const params = pathParams(op);
    if (params.length !== 1) return null;
    const value = candidates(op.pathTemplate, params[0]!)[0];
    return value === undefined ? null : op.pathTemplate.replace(`{${params[0]}}`, encodeURIComponent(value));
  };

  for (const op of creates.filter(firstLevel)) await call(op, op.pathTemplate, true);
  await Promise.all(reads.filter(firstLevel).map((op) => call(op, op.pathTemplate, false)));
  for (const op of creates) {
    const path = secondLevel(op);
    if (path) await call(op, path, true);
  }
  await Promise.all(
    reads
      .map((op) => [op, secondLevel(op)] as const)
      .filter(([, path]) => path !== null)
      .map(([op, path]) => call(op, path!, false)),
  );

  const seeds: SeedValues = {};
  for (const op of spec.operations) {
    for (const param of pathParams(op)) {
      const values = candidates(op.pathTemplate, param);
      if (values.length > 0) (seeds[op.operationId] ??= {})[param] = values;
    }
  }
  return seeds;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a 429 asks to wait (its Retry-After: seconds or an HTTP date), or undefined for any other answer. */
function retryAfterMs(answer: Sent): number | undefined {
  if (answer.exchange?.response.status !== 429) return undefined;
  const headers = answer.exchange.response.headers ?? {};
  const raw = headers["retry-after"];
  const value = String(Array.isArray(raw) ? raw[0] : (raw ?? "")).trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The share of requests a deployment may answer 429 before a run counts as not made (see the CLI). */
export const RATE_LIMITED_SHARE = 0.01;

/** The one line of a run the rate limit kept from testing, or undefined when it was tested. */
export function rateLimitProblem(report: FuzzReport): string | undefined {
  const { answers } = report.rateLimited;
  if (answers === 0 || answers <= RATE_LIMITED_SHARE * report.sent) return undefined;
  return (
    `${report.baseUrl} rate-limited ${answers} of ${report.sent} requests (429) with no time left to wait as ` +
    "Retry-After asked, so they tested nothing: fuzz a sandbox started with --no-rate-limit " +
    "(npm run sandbox -- --no-rate-limit), or give the run a longer --time-limit."
  );
}

/** The checks, with a validator that fails on an answer (e.g. a body too large to report on) counted as a schema failure of that answer. */
function checkSafely(...args: Parameters<typeof runChecks>): CheckOutcome {
  try {
    return runChecks(...args);
  } catch (error) {
    return {
      invalid: args[1].intent === "invalid",
      failures: [
        {
          check: "response_schema_conformance",
          message: `the contract validator could not check this answer: ${(error as Error).message}`,
        },
      ],
    };
  }
}

/** Options that cannot work (an unreadable spec, an unknown operation id): the CLI exits 2. */
export class FuzzConfigError extends Error {}

/** The deployment cannot be fuzzed (not reachable, the key refused, no such base path): one line, exit 2. */
export class FuzzTargetError extends Error {}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  let spec: FuzzSpec;
  let contract: ReturnType<typeof createContractValidator>;
  try {
    spec = loadOperations(options.spec ?? DEFAULT_SPEC_PATH);
    contract = createContractValidator(options.spec ?? DEFAULT_SPEC_PATH);
  } catch (error) {
    throw new FuzzConfigError(`cannot load the spec: ${(error as Error).message}`);
  }
  const unknown = (options.operations ?? []).filter((id) => !spec.operations.some((op) => op.operationId === id));
  if (unknown.length > 0)
    throw new FuzzConfigError(`unknown operation ${unknown.join(", ")} (see the operationIds in the spec)`);
  if (options.checkTarget) {
    const problem = await checkTarget(options.baseUrl, options.key, {
      basePath: spec.basePath,
      keySource: options.checkTarget.keySource,
    });
    if (problem) throw new FuzzTargetError(problem);
  }
  const started = performance.now();
  const rateLimited = { waited: 0, waitedMs: 0, answers: 0 };
  /** Every request waits until then: the last Retry-After the deployment asked for. */
  let pausedUntil = 0;
  /** Sends a request; a 429 with Retry-After is waited out and the request sent again, within the time limit. */
  const paced = async (request: FuzzRequest): Promise<Sent> => {
    for (;;) {
      const pause = pausedUntil - performance.now();
      if (pause > 0) await sleep(pause);
      const answer = await send(options, spec.basePath, request);
      const wait = retryAfterMs(answer);
      if (wait === undefined) return answer;
      // Waiting past the time limit would leave the request untested: its 429 is kept and counted.
      if (performance.now() + wait - started > options.timeLimitMs) {
        rateLimited.answers++;
        return answer;
      }
      rateLimited.waited++;
      const until = performance.now() + wait;
      if (until > pausedUntil) {
        rateLimited.waitedMs += until - Math.max(pausedUntil, performance.now());
        pausedUntil = until;
      }
    }
  };
  const seeds = options.discover === false ? {} : await discover(spec, paced);
  const requests = new RequestGenerator(spec).generate({
    seed: options.seed,
    count: options.requests,
    seeds,
    revokedKey: options.revokedKey !== undefined,
    operations: options.operations,
  });
  const byId = new Map(spec.operations.map((op) => [op.operationId, op]));

  const operations: Record<string, OperationSummary> = {};
  const checks = Object.fromEntries(CHECKS.map((name) => [name, { failed: 0 }])) as FuzzReport["checks"];
  const distinct = new Map<string, FuzzFailure>();
  let sent = 0;
  let stoppedBy: FuzzReport["stoppedBy"] = "done";
  let next = 0;

  const record = (request: FuzzRequest, answer: Sent): void => {
    const op = byId.get(request.operationId)!;
    if (answer.exchange) options.onExchange?.(answer.exchange);
    const summary = (operations[op.operationId] ??= { requests: 0, valid: 0, invalid: 0, statuses: {}, failures: 0 });
    summary.requests++;
    const status = answer.exchange?.response.status ?? 0;
    summary.statuses[status] = (summary.statuses[status] ?? 0) + 1;
    const outcome = !answer.exchange
      ? {
          invalid: request.intent === "invalid",
          failures: [{ check: "not_a_server_error" as const, message: answer.error! }],
        }
      : checkSafely(contract, request, answer.exchange, spec.basePath + canonicalPath(op));
    if (outcome.invalid) summary.invalid++;
    else summary.valid++;
    for (const failure of outcome.failures) {
      checks[failure.check].failed++;
      summary.failures++;
      const kind = request.mutation?.split(/[ =]/).slice(0, 3).join(" ") ?? request.auth;
      const key = `${failure.check}|${op.operationId}|${status}|${request.intent}|${kind}`;
      const existing = distinct.get(key);
      if (existing) existing.count++;
      else {
        const { index, method, path, auth, intent, mutation } = request;
        distinct.set(key, {
          check: failure.check,
          operationId: op.operationId,
          status,
          message: failure.message,
          count: 1,
          request: { index, method, path, auth, intent, ...(mutation ? { mutation } : {}) },
          curl: curlCommand(options.baseUrl, request),
        });
      }
    }
  };

  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      if (performance.now() - started > options.timeLimitMs) {
        stoppedBy = "time limit";
        return;
      }
      const request = requests[next++]!;
      const answer = await paced(request);
      sent++;
      record(request, answer);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));

  const failures = [...distinct.values()].sort((a, b) => b.count - a.count || a.request.index - b.request.index);
  return {
    baseUrl: options.baseUrl,
    seed: options.seed,
    requested: requests.length,
    sent,
    durationMs: Math.round(performance.now() - started),
    stoppedBy,
    rateLimited: { ...rateLimited, waitedMs: Math.round(rateLimited.waitedMs) },
    checks,
    operations,
    failures,
  };
}

/** The human summary printed by the CLI: totals, failures per check and operation, and one curl per distinct failure. */
export function formatReport(report: FuzzReport): string {
  const lines: string[] = [];
  const failed = Object.values(report.checks).reduce((n, c) => n + c.failed, 0);
  lines.push(
    `fuzz ${report.baseUrl}  seed ${report.seed}  ${report.sent}/${report.requested} requests in ${(report.durationMs / 1000).toFixed(1)} s${report.stoppedBy === "time limit" ? " (stopped by the time limit)" : ""}`,
  );
  lines.push("", "checks:");
  for (const [name, { failed: n }] of Object.entries(report.checks))
    lines.push(`  ${n === 0 ? "ok  " : "FAIL"} ${name.padEnd(28)} ${n} failed`);
  lines.push("", "operations:                      requests  valid invalid failures  statuses");
  for (const [id, s] of Object.entries(report.operations).sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = Object.entries(s.statuses)
      .map(([code, n]) => `${code}×${n}`)
      .join(" ");
    lines.push(
      `  ${id.padEnd(31)} ${String(s.requests).padStart(8)} ${String(s.valid).padStart(6)} ${String(s.invalid).padStart(7)} ${String(s.failures).padStart(8)}  ${statuses}`,
    );
  }
  if (report.failures.length > 0) {
    lines.push(
      "",
      `${report.failures.length} distinct failures (reproduce with TALENT_GRAPH_API_KEY set to your key):`,
    );
    for (const f of report.failures) {
      lines.push(
        "",
        `✘ ${f.check}  ${f.operationId} → ${f.status}  (${f.count}×)${f.request.mutation ? `  [${f.request.mutation}]` : ""}`,
        `    ${f.message}`,
        `    ${f.curl}`,
      );
    }
  }
  const { waited, waitedMs, answers } = report.rateLimited;
  if (waited > 0)
    lines.push(
      "",
      `rate limit: ${waited} answers were 429; the run waited ${(waitedMs / 1000).toFixed(1)} s in all as Retry-After ` +
        "asked and sent each again (a sandbox started with --no-rate-limit answers at once)",
    );
  if (answers > 0) lines.push(`rate limit: ${answers} requests were still answered 429 and tested nothing`);
  lines.push("", failed === 0 ? "0 failures" : `${failed} check failures in ${report.failures.length} distinct groups`);
  return `${lines.join("\n")}\n`;
}
