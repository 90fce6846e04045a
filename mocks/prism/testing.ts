// Test helpers: one HTTP call to a running mock, returned with its contract-validator exchange.
import { exchangeFromFetch, isErrorBody, type Exchange } from "../../contract-core/index.js";

export interface CallOptions {
  method?: string;
  /** Path under the base URL, with query, e.g. `/people?limit=2`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json) or raw text. */
  body?: unknown;
  /** Send `Authorization: Bearer test` (default true). */
  auth?: boolean;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: unknown;
  exchange: Exchange;
}

export async function call(baseUrl: string, options: CallOptions): Promise<CallResult> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { ...(options.auth === false ? {} : { authorization: "Bearer test" }) };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, options.headers);
  const url = `${baseUrl}${options.path}`;
  const res = await fetch(url, { method, headers, body: payload });
  const exchange = await exchangeFromFetch({ method, url, headers, body: payload }, res);
  return { status: res.status, headers: res.headers, body: exchange.response.body, exchange };
}

/** `{ error: { type, message } }` with that type; returns the message. */
export function errorMessage(body: unknown, type: string): string {
  if (!isErrorBody(body, type))
    throw new Error(`expected { error: { type: "${type}", message } }, got ${JSON.stringify(body)}`);
  return body.error.message;
}

/** Asserts the status and the `{ error: { type, message } }` body; returns the message. */
export function failure(result: CallResult, status: number, type: string): string {
  if (result.status !== status)
    throw new Error(`expected status ${status}, got ${result.status}: ${JSON.stringify(result.body)}`);
  return errorMessage(result.body, type);
}
