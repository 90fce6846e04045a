/**
 * The answer step: a handler's reply or an error becomes a response (an ApiError in the reference's error
 * shape, anything else a logged 500), and every response leaves with the CORS headers, Preference-Applied,
 * the configured latency and no body for HEAD.
 */
import type { UntypedReply } from "../contract/context.js";
import { ApiError, serverError } from "../contract/errors.js";
import type { CoreResponse } from "./exchange.js";

export const JSON_TYPE = "application/json; charset=utf-8";

export function json(status: number, value: unknown, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { ...headers, "content-type": JSON_TYPE }, body: JSON.stringify(value) };
}

/** A handler's reply as a response: objects are serialized once. */
export function reply(result: UntypedReply): CoreResponse {
  const status = result.status ?? 200;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = v;
  if (result.body === undefined) return { status, headers, body: undefined };
  if (typeof result.body === "string")
    return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body: result.body };
  return {
    status,
    headers: { ...headers, "content-type": headers["content-type"] ?? JSON_TYPE },
    body: JSON.stringify(result.body),
  };
}

/** An error as a response: the ApiError's own, or a 500 (reported to `onUnexpected`) for anything else. */
export function errorResponse(error: unknown, onUnexpected: (e: unknown) => void): CoreResponse {
  if (error instanceof ApiError) return json(error.status, error.body, error.headers);
  onUnexpected(error);
  return json(500, serverError("The sandbox failed to answer this request").body);
}

export interface Finish {
  method: string;
  /** Headers every answer carries (CORS, rate limit); the response's own win. */
  headers: Record<string, string>;
  /** The Preference-Applied value, if any. */
  applied: string | undefined;
  delayMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function finishAnswer(response: CoreResponse, finish: Finish): Promise<CoreResponse> {
  response.headers = { ...finish.headers, ...response.headers };
  if (finish.applied) response.headers["preference-applied"] = finish.applied;
  if (finish.delayMs > 0) await sleep(finish.delayMs);
  if (finish.method === "HEAD") response.body = undefined;
  return response;
}
