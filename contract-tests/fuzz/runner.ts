/**
 * One fuzz run against a deployment: discover ids that exist (listing first), generate the seeded request
 * sequence, send it with bounded concurrency and time, apply the checks, and summarize. Keys are added only
 * when sending, so neither the report nor the curl commands contain one.
 */
import { performance } from "node:perf_hooks";
import { createContractValidator, DEFAULT_SPEC_PATH, parseBodyText, headersToRecord, isObj, type Exchange } from "./contract.js";
import { CHECKS, runChecks, type CheckName } from "./checks.js";
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
  /** Per-request timeout. */
  requestTimeoutMs?: number;
  spec?: string;
  /** Restrict to these operation ids. */
  operations?: string[];
  /** List resources first so that valid requests use ids that exist (default true). */
  discover?: boolean;
}

export interface FuzzFailure {
  check: CheckName;
  operationId: string;
  status: number;
  message: string;
  /** Requests that failed the same way (same check, operation, status and mutation kind). */
  count: number;
  request: { index: number; method: string; path: string; auth: FuzzRequest["auth"]; intent: FuzzRequest["intent"]; mutation?: string };
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
  checks: Record<CheckName, { failed: number }>;
  operations: Record<string, OperationSummary>;
  /** Distinct failures, most frequent first. */
  failures: FuzzFailure[];
}

const specCache = new Map<string, FuzzSpec>();

function specFor(path: string): FuzzSpec {
  let spec = specCache.get(path);
  if (!spec) specCache.set(path, (spec = loadOperations(path)));
  return spec;
}

function authHeaders(request: FuzzRequest, options: FuzzOptions): Record<string, string> {
  if (request.auth === "bearer") return { authorization: `Bearer ${options.key}` };
  if (request.auth === "x-api-key") return { "x-api-key": options.key };
  if (request.auth === "revoked" && options.revokedKey) return { authorization: `Bearer ${options.revokedKey}` };
  return {};
}

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  error?: string;
}

async function send(options: FuzzOptions, request: FuzzRequest): Promise<Sent> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}${request.path}`;
  try {
    const res = await fetch(url, {
      method: request.method,
      headers: { ...request.headers, ...authHeaders(request, options) },
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.requestTimeoutMs ?? 10_000),
    });
    const text = await res.text();
    return { status: res.status, headers: headersToRecord(res.headers), body: parseBodyText(text, res.headers.get("content-type")) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, headers: {}, body: null, error: `no answer: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
}

/** The template with every parameter filled, so that a request whose own URL does not route is judged against its operation. */
function canonicalPath(op: FuzzOperation): string {
  return op.pathTemplate.replace(/\{[^}]+\}/g, "fuzz");
}

/** GETs every listing (no path parameters) and then the resources found, collecting the ids each path parameter can take. */
async function discover(spec: FuzzSpec, options: FuzzOptions): Promise<SeedValues> {
  const found = new Map<string, Set<string>>();
  const collect = (prefix: string, body: unknown): void => {
    const data = isObj(body) ? body.data : undefined;
    const items: unknown[] = Array.isArray(data) ? data : isObj(data) ? Object.values(data).flatMap((v) => (Array.isArray(v) ? v : [])) : [];
    for (const item of items) {
      if (!isObj(item)) continue;
      for (const [key, value] of Object.entries(item)) {
        if (typeof value !== "string" || value.length > 200) continue;
        const bucket = `${prefix}#${key}`;
        if (!found.has(bucket)) found.set(bucket, new Set());
        const set = found.get(bucket)!;
        if (set.size < 10) set.add(value);
      }
    }
  };
  const get = async (path: string, template: string): Promise<void> => {
    const sent = await send(options, { index: -1, operationId: "discover", method: "GET", path, headers: {}, auth: "bearer", intent: "valid" });
    if (sent.status === 200) collect(template, sent.body);
  };
  const gets = spec.operations.filter((op) => op.method === "GET" && !op.params.some((p) => p.required && p.in === "query"));
  await Promise.all(gets.filter((op) => !op.pathTemplate.includes("{")).map((op) => get(op.pathTemplate, op.pathTemplate)));
  const seeds: SeedValues = {};
  const candidates = (template: string, param: string): string[] => {
    const at = template.indexOf(`{${param}}`);
    const prefix = template.slice(0, at).replace(/\/$/, "");
    const snake = param.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    // The listing at the prefix (`/lists` for `/lists/{id}`), else the resource that holds it (`/lists/{id}` for `/lists/{id}/members/{membershipId}`).
    const owners = [prefix, prefix.replace(/(\/[^/{}]+)+$/, "")];
    for (const owner of owners) {
      for (const key of [param, snake, "id"]) {
        const values = found.get(`${owner}#${key}`);
        if (values && values.size > 0) return [...values];
      }
    }
    return [];
  };
  // Second level: one GET of each resource found, for nested ids (the members of a List, ...).
  const second: Promise<void>[] = [];
  for (const op of gets.filter((o) => (o.pathTemplate.match(/\{/g) ?? []).length === 1 && /\}$/.test(o.pathTemplate))) {
    const param = /\{([^}]+)\}$/.exec(op.pathTemplate)![1]!;
    const value = candidates(op.pathTemplate, param)[0];
    if (value) second.push(get(op.pathTemplate.replace(`{${param}}`, encodeURIComponent(value)), op.pathTemplate));
  }
  await Promise.all(second);
  for (const op of spec.operations) {
    for (const param of op.params.filter((p) => p.in === "path")) {
      const values = candidates(op.pathTemplate, param.name);
      if (values.length > 0) (seeds[op.operationId] ??= {})[param.name] = values;
    }
  }
  return seeds;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const spec = specFor(options.spec ?? DEFAULT_SPEC_PATH);
  const contract = createContractValidator(options.spec ?? DEFAULT_SPEC_PATH);
  const started = performance.now();
  const seeds = options.discover === false ? {} : await discover(spec, options);
  const requests = new RequestGenerator(spec).generate({ seed: options.seed, count: options.requests, seeds, revokedKey: options.revokedKey !== undefined, operations: options.operations });
  const byId = new Map(spec.operations.map((op) => [op.operationId, op]));

  const operations: Record<string, OperationSummary> = {};
  const checks = Object.fromEntries(CHECKS.map((name) => [name, { failed: 0 }])) as FuzzReport["checks"];
  const distinct = new Map<string, FuzzFailure>();
  let sent = 0;
  let stoppedBy: FuzzReport["stoppedBy"] = "done";
  let next = 0;

  const record = (request: FuzzRequest, answer: Sent): void => {
    const op = byId.get(request.operationId)!;
    const summary = (operations[op.operationId] ??= { requests: 0, valid: 0, invalid: 0, statuses: {}, failures: 0 });
    summary.requests++;
    summary.statuses[answer.status] = (summary.statuses[answer.status] ?? 0) + 1;
    const requestBody = request.body === undefined ? null : parseBodyText(request.body);
    const exchange: Exchange = {
      request: { method: request.method, url: spec.basePath + request.path, headers: { ...request.headers, ...authHeaders(request, { ...options, key: "redacted-key" }) }, body: requestBody },
      response: { status: answer.status, headers: answer.headers, body: answer.body },
    };
    const outcome = answer.error
      ? { invalid: request.intent === "invalid", failures: [{ check: "not_a_server_error" as const, message: answer.error }] }
      : runChecks(contract, request, exchange, spec.basePath + canonicalPath(op));
    if (outcome.invalid) summary.invalid++;
    else summary.valid++;
    for (const failure of outcome.failures) {
      checks[failure.check].failed++;
      summary.failures++;
      const kind = request.mutation?.split(/[ =]/).slice(0, 3).join(" ") ?? request.auth;
      const key = `${failure.check}|${op.operationId}|${answer.status}|${request.intent}|${kind}`;
      const existing = distinct.get(key);
      if (existing) existing.count++;
      else {
        distinct.set(key, {
          check: failure.check,
          operationId: op.operationId,
          status: answer.status,
          message: failure.message,
          count: 1,
          request: { index: request.index, method: request.method, path: request.path, auth: request.auth, intent: request.intent, ...(request.mutation ? { mutation: request.mutation } : {}) },
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
      const answer = await send(options, request);
      sent++;
      record(request, answer);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));

  const failures = [...distinct.values()].sort((a, b) => b.count - a.count || a.request.index - b.request.index);
  return { baseUrl: options.baseUrl, seed: options.seed, requested: requests.length, sent, durationMs: Math.round(performance.now() - started), stoppedBy, checks, operations, failures };
}

/** The human summary printed by the CLI: totals, failures per check and operation, and one curl per distinct failure. */
export function formatReport(report: FuzzReport): string {
  const lines: string[] = [];
  const failed = Object.values(report.checks).reduce((n, c) => n + c.failed, 0);
  lines.push(`fuzz ${report.baseUrl}  seed ${report.seed}  ${report.sent}/${report.requested} requests in ${(report.durationMs / 1000).toFixed(1)} s${report.stoppedBy === "time limit" ? " (stopped by the time limit)" : ""}`);
  lines.push("", "checks:");
  for (const [name, { failed: n }] of Object.entries(report.checks)) lines.push(`  ${n === 0 ? "ok  " : "FAIL"} ${name.padEnd(28)} ${n} failed`);
  lines.push("", "operations:                      requests  valid invalid failures  statuses");
  for (const [id, s] of Object.entries(report.operations).sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = Object.entries(s.statuses).map(([code, n]) => `${code}×${n}`).join(" ");
    lines.push(`  ${id.padEnd(31)} ${String(s.requests).padStart(8)} ${String(s.valid).padStart(6)} ${String(s.invalid).padStart(7)} ${String(s.failures).padStart(8)}  ${statuses}`);
  }
  if (report.failures.length > 0) {
    lines.push("", `${report.failures.length} distinct failures (reproduce with TALENT_GRAPH_API_KEY set to your key):`);
    for (const f of report.failures) {
      lines.push("", `✘ ${f.check}  ${f.operationId} → ${f.status}  (${f.count}×)${f.request.mutation ? `  [${f.request.mutation}]` : ""}`, `    ${f.message}`, `    ${f.curl}`);
    }
  }
  lines.push("", failed === 0 ? "0 failures" : `${failed} check failures in ${report.failures.length} distinct groups`);
  return `${lines.join("\n")}\n`;
}
