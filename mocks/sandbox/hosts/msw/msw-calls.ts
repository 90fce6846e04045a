/**
 * The MSW host's record of what the app sent: one entry per request that reached an operation, in the order
 * they were answered, typed from the spec per operation, with the answer the app received (status, headers,
 * body), so a test asserts on the request and the answer without a spy of its own:
 *
 *   sandbox.calls("createList")[0].body.name;   // string: the createList request body's type
 *   sandbox.calls().map((c) => c.operationId);  // every operation called, in order
 *   sandbox.reset();                            // the record is empty again
 */
import { operationMatcher } from "./msw-operations.js";
import type { OperationId, PathParams, QueryParams, RequestBody } from "../../contract/context.js";
import type { SpecIndex } from "../../contract/spec.js";
import type { BodyFor, DocumentedStatus } from "./msw-faults.js";

/** One request the app sent to an operation, and the answer it received. */
export type SandboxCall<Op extends OperationId = OperationId> = Op extends OperationId
  ? {
      operationId: Op;
      /** Upper-case HTTP method. */
      method: string;
      /** The path as sent, under the spec's base path (/v1/lists/...), whatever the mount. */
      path: string;
      /** The path parameters as sent (text, URL-decoded). */
      params: { [K in keyof PathParams<Op>]: string };
      /** The query as sent: text values, a repeated name as its values in order. */
      query: { [K in keyof QueryParams<Op>]?: string | string[] };
      /**
       * The JSON body as sent, parsed (the spec's type for the operation; a body the API refused may not
       * match it: check `status`), the text when it is not JSON, undefined without one.
       */
      body: RequestBody<Op>;
      /** The answer's status; 0 when the call failed at the network level (`networkError`). */
      status: number;
      /** What the app received: status, headers (lower-case names) and the parsed body, typed per status. */
      response: CallResponse<Op>;
    }
  : never;

/**
 * An answer as the app received it, one member per documented status (narrow on `status` to type `body`):
 * the JSON body parsed (the text when it is not JSON, undefined without one, as for HEAD); status 0 with no
 * headers and no body when the call failed at the network level.
 */
export type CallResponse<Op extends OperationId> =
  | {
      [S in DocumentedStatus<Op>]: { status: S; headers: Record<string, string>; body: BodyFor<Op, S> };
    }[DocumentedStatus<Op>]
  | { status: 0; headers: Record<string, never>; body: undefined };

/** The answer a call log records: the core's, or MSW's network error (a Response of type "error"). */
export type RecordedAnswer = { status: number; headers: Record<string, string>; body: string | undefined } | Response;

function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

function bodyOf(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface CallLog {
  /** Records one answered request (ignored when it names no operation). */
  record(request: { method: string; url: string; body?: string }, answer: RecordedAnswer): void;
  calls<Op extends OperationId = OperationId>(operationId?: Op): SandboxCall<Op>[];
  clear(): void;
}

export function createCallLog(spec: SpecIndex): CallLog {
  const match = operationMatcher(spec);
  let log: SandboxCall[] = [];
  return {
    record(request, answer) {
      const found = match(request.method, request.url);
      if (!found) return;
      const response =
        answer instanceof Response
          ? { status: 0, headers: {}, body: undefined }
          : { status: answer.status, headers: { ...answer.headers }, body: bodyOf(answer.body) };
      log.push({
        operationId: found.operationId,
        method: request.method.toUpperCase(),
        path: found.url.pathname,
        params: found.params,
        query: queryOf(found.url.searchParams),
        body: bodyOf(request.body),
        status: response.status,
        response,
      } as SandboxCall);
    },
    calls<Op extends OperationId = OperationId>(operationId?: Op) {
      if (operationId !== undefined && !spec.byId.has(operationId))
        throw new TypeError(`No operation ${JSON.stringify(operationId)} in the spec`);
      return log.filter((c) => operationId === undefined || c.operationId === operationId) as SandboxCall<Op>[];
    },
    clear() {
      log = [];
    },
  };
}
