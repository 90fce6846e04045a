/**
 * The request pipeline as named steps, each an exported function of the sandbox's parts (`Pipeline`, built once
 * by createSandboxCore) and the request's values read once (`Exchange`), so that a reader or a tool can follow
 * a request from step to step. core.ts wires them in a few lines:
 *
 *   begin -> preflight | rateLimit | (checkPath -> route (control | operate) -> storeWrite) -> answer
 *   operate: authenticateRequest -> organizationAccess -> readBody -> preferredExample -> validate -> callHandler
 */
import { requestWording, type PreferResult, type Router } from "../../../contract-core/portable.js";
import { authenticate, requireAnyKey, requireOrganizationAccess, type RequestHeaders } from "../contract/auth.js";
import type { Handler, OperationId, SandboxContext, UntypedReply } from "../contract/context.js";
import { outsideOperations, serverError } from "../contract/errors.js";
import type { OperationSpec } from "../contract/spec.js";
import type { OrgState } from "../contract/state.js";
import { errorResponse, finishAnswer, reply } from "./answer.js";
import { hasNoBody, parseJsonBody } from "./body.js";
import { answerControl, type controlRoutesOf } from "./control.js";
import { corsHeaders, isControlPath } from "./cors.js";
import { answerFromExamples, type ChooseExample } from "./examples.js";
import type { Answered, CoreRequest, CoreResponse } from "./exchange.js";
import {
  acceptedPreferences,
  appliedPreferences,
  choosesExample,
  preferredLatency,
  preferredReply,
  readPrefer,
} from "./prefer.js";
import type { createRateLimiter } from "./ratelimit.js";
import { readRequestLine, type RequestLine } from "./request-line.js";
import type { WriteStore } from "./store.js";
import type { compileRequestValidators } from "./validation.js";

/** The sandbox's parts the steps read (built once). */
export interface Pipeline {
  ctx: SandboxContext;
  router: Router<OperationSpec>;
  control: ReturnType<typeof controlRoutesOf>;
  handlers: Map<string, Handler>;
  validators: ReturnType<typeof compileRequestValidators>;
  limiter: ReturnType<typeof createRateLimiter> | null;
  store: WriteStore;
  /** Stateless mode: operations answer with the spec's examples. */
  examples?: { choose: ChooseExample };
}

/** One request's values that several steps read. */
export interface Exchange {
  request: CoreRequest;
  line: RequestLine;
  prefer: PreferResult;
  /** Headers every answer carries (CORS, then rate limit). */
  headers: Record<string, string>;
}

/** An operation the router found, with its path parameters. */
export interface Operation {
  op: OperationSpec;
  params: Record<string, string>;
}

const labelOf = (line: RequestLine) => `${line.method} ${line.path}`;

/** Request line, CORS headers, Prefer (its query stand-ins leave the query). */
export function begin(p: Pipeline, request: CoreRequest): Exchange {
  const line = readRequestLine(request.method, request.url, p.ctx.spec.basePath);
  const headers = corsHeaders(request.headers, line.method === "OPTIONS", {
    control: isControlPath(line.path),
    origins: p.ctx.options.corsOrigins ?? null,
  });
  return { request, line, prefer: readPrefer(request.headers, line.query), headers };
}

/** A preflight (OPTIONS) is a 204, before authentication and rate limiting. */
export function preflight(x: Exchange): CoreResponse | null {
  return x.line.method === "OPTIONS" ? { status: 204, headers: {}, body: undefined } : null;
}

/** Per client address under the base path: the window's headers, a 429 over the limit. */
export function rateLimit(p: Pipeline, x: Exchange): CoreResponse | null {
  return p.limiter && x.line.api ? p.limiter(x.request.remoteAddress ?? "local", x.headers) : null;
}

/** A path that does not normalize (dot segments above the root, bad escapes) is a 400. */
export function checkPath(x: Exchange): void {
  if (!x.line.normalized.ok) throw outsideOperations.invalid(x.line.normalized.message);
}

/** The control endpoint or the operation the path names; a 404 otherwise. */
export async function route(p: Pipeline, x: Exchange): Promise<Answered> {
  const { method, path } = x.line;
  const lookupMethod = method === "HEAD" ? "GET" : method;
  const ctl = p.control.get(`${lookupMethod} ${path}`);
  if (ctl) return { response: await answerControl(ctl, x.request, method, p.ctx), org: null };
  const found = p.router.match(lookupMethod, path);
  if (found.ok) return operate(p, x, { op: found.route, params: found.params });
  const basePath = p.ctx.spec.basePath;
  throw outsideOperations.notFound(
    requestWording.notAnOperation(labelOf(x.line), path.startsWith(`${basePath}/`) ? undefined : basePath),
  );
}

/** The key's organization: a 401 without a valid key (400: a platform key naming no organization). */
export function authenticateRequest(p: Pipeline, headers: RequestHeaders): ReturnType<typeof authenticate> {
  return authenticate(headers, p.ctx.state);
}

/** A locked organization is a 402, except for getAccount. */
export function organizationAccess(org: OrgState, operation: Operation): void {
  // The router matches only the spec's operations, whose ids generated/ types (drift-checked).
  requireOrganizationAccess(org, operation.op.operationId as OperationId);
}

/** The body, read only now (streamed, 1 MiB, JSON nested at most 32 levels); a read has none. */
export async function readBody(x: Exchange): Promise<unknown> {
  // No await for a read: no turn of the event loop for nothing.
  return hasNoBody(x.line.method) ? undefined : parseJsonBody(x.line.method, x.request.headers, x.request.body);
}

/** `Prefer: code=` or `example=` answers with the spec's example; a refused header is a 400. */
export function preferredExample(p: Pipeline, x: Exchange, operation: Operation): CoreResponse | null {
  const prefs = acceptedPreferences(x.prefer);
  return choosesExample(prefs) ? reply(preferredReply(p.ctx.spec, operation.op, labelOf(x.line), prefs)) : null;
}

/** Path, query and body against the spec: the handler's typed input, or a 400. */
export function validate(p: Pipeline, x: Exchange, operation: Operation, body: unknown) {
  return p.validators.get(operation.op.operationId)!(operation.params, x.line.query, body);
}

/** The area's handler with the validated input (a plain reply is not awaited). */
export async function callHandler(
  p: Pipeline,
  x: Exchange,
  operation: Operation,
  input: ReturnType<typeof validate>,
  org: OrgState,
): Promise<CoreResponse> {
  const { operationId } = operation.op;
  const handler = p.handlers.get(operationId);
  if (!handler) throw serverError(`${operationId} is not implemented in the sandbox yet`);
  const req = { ...input, operationId, rawQuery: x.line.query, org };
  const answered = handler(req as never, p.ctx) as UntypedReply | Promise<UntypedReply>;
  return reply(answered instanceof Promise ? await answered : answered);
}

/** Stateless mode: any presented key, then the example the request names (else the default 2xx example). */
async function answerExample(p: Pipeline, x: Exchange, operation: Operation, choose: ChooseExample) {
  requireAnyKey(x.request.headers);
  const body = await parseJsonBody(x.line.method, x.request.headers, x.request.body);
  const input = { params: operation.params, rawQuery: x.line.query, body, label: labelOf(x.line) };
  const validator = p.validators.get(operation.op.operationId)!;
  return answerFromExamples(p.ctx.spec, operation.op, validator, input, acceptedPreferences(x.prefer), choose);
}

/** An operation: authenticate -> organization -> body -> Prefer -> validate -> handle. */
export async function operate(p: Pipeline, x: Exchange, operation: Operation): Promise<Answered> {
  if (p.examples) return { response: await answerExample(p, x, operation, p.examples.choose), org: null };
  const { org } = authenticateRequest(p, x.request.headers);
  organizationAccess(org, operation);
  const body = await readBody(x);
  const example = preferredExample(p, x, operation);
  if (example) return { response: example, org: null };
  const input = validate(p, x, operation, body);
  return { response: await callHandler(p, x, operation, input, org), org };
}

/** A write stored before it is acknowledged; one that fails or throws leaves the state as it was. */
export async function storeWrite(p: Pipeline, x: Exchange, answer: () => Promise<Answered>): Promise<CoreResponse> {
  let answered: Answered;
  try {
    answered = await answer();
  } catch (error) {
    p.store.failed(error, x.line.method);
    throw error;
  }
  return p.store.acknowledge(answered, x.line.method);
}

/** The response as it leaves: an error in the reference's shape (else a logged 500), headers, latency, HEAD. */
export function answer(p: Pipeline, x: Exchange, outcome: CoreResponse | { error: unknown }): Promise<CoreResponse> {
  const response =
    "error" in outcome ? errorResponse(outcome.error, (e) => p.ctx.logError("sandbox handler failed", e)) : outcome;
  return finishAnswer(response, {
    method: x.line.method,
    headers: x.headers,
    applied: appliedPreferences(x.prefer, x.line.api, response.status),
    delayMs: p.ctx.options.latencyMs + preferredLatency(x.prefer, x.line.api),
  });
}
