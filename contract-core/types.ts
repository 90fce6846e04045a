/** Public types of the contract validator (stable API, re-exported by index.ts). */

export type HeaderMap = Record<string, string | string[] | undefined>;

export interface RecordedRequest {
  method: string;
  /** Path and query under the API host (e.g. `/v1/people?limit=2`) or an absolute URL. */
  url: string;
  headers?: HeaderMap;
  /** A JSON value; `null`/absent means no body. */
  body?: unknown;
}

export interface RecordedResponse {
  status: number;
  headers?: HeaderMap;
  /** A JSON value; `null`/absent means no body. */
  body?: unknown;
}

export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

export interface ContractError {
  side: "request" | "response";
  /** JSON pointer into that side of the exchange: `/body/data/0/slug`, `/query/limit`, `/headers/retry-after`, `/path/slug`, `/status`, `/url`. */
  pointer: string;
  /** Location in the OpenAPI document, e.g. `#/components/schemas/Person/required`. */
  schemaPath: string;
  message: string;
}

export interface ExchangeResult {
  method: string;
  url: string;
  operationId: string | null;
  status: number;
  valid: boolean;
  errors: ContractError[];
}

export interface RouteMatch {
  operationId: string;
  pathTemplate: string;
  params: Record<string, string>;
}

export interface ContractValidator {
  /** Checks both sides: route, request (path, query, headers, credentials, body) and response (status, content type, body, headers). */
  validate(exchange: Exchange): ExchangeResult;
  /** Response side only (plus route and status), for servers answering deliberately bad requests. */
  validateResponse(exchange: Exchange): ExchangeResult;
  matchRoute(method: string, url: string): RouteMatch | null;
}
