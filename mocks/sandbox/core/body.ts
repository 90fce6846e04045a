/**
 * The body step: the raw body (a string, bytes or a host's streamed reader, read only now) as JSON.
 * Bounded at BODY_LIMIT bytes; an empty body is "no body" (POST /targets/{id}/retry); a wrong content type,
 * a body that is not UTF-8 or starts with a byte order mark (contract-core's jsonTextOf, as the mock reads it),
 * a value nested beyond the bound or unparsable JSON is a 400.
 */
import { bodyTooDeepMessage, jsonTextOf, jsonTooDeep, requestWording } from "../../../contract-core/portable.js";
import { header, type RequestHeaders } from "../contract/auth.js";
import { invalidRequest } from "../contract/errors.js";
import type { CoreRequest } from "./exchange.js";

/** Largest accepted request body, in bytes (contract-core's MAX_BODY_BYTES; the core stays free of Node imports). */
export const BODY_LIMIT = 1_048_576;

/** JSON media types (`application/json`, `application/problem+json`, ...). */
export const JSON_MEDIA = /^application\/([a-z.+-]*\+)?json$/i;

/** True for the methods that carry no body (a read answers without waiting on one). */
export const hasNoBody = (method: string): boolean => method === "GET" || method === "HEAD";

/** The body, read (when streamed) only now; a 400 over BODY_LIMIT bytes. Bytes are decoded once the type is JSON. */
async function read(raw: CoreRequest["body"]): Promise<string | Uint8Array> {
  const body = typeof raw === "function" ? await raw() : raw;
  if (body === undefined) return "";
  const tooLarge = invalidRequest(`request body exceeds ${BODY_LIMIT} bytes`);
  if (body === null) throw tooLarge;
  if (typeof body !== "string") {
    if (body.length > BODY_LIMIT) throw tooLarge;
    return body;
  }
  if (body.length > BODY_LIMIT || new TextEncoder().encode(body).length > BODY_LIMIT) throw tooLarge;
  return body;
}

export async function parseJsonBody(
  method: string,
  headers: RequestHeaders,
  raw: CoreRequest["body"],
): Promise<unknown> {
  if (hasNoBody(method)) return undefined;
  const bytes = await read(raw);
  const contentType = header(headers, "content-type");
  if (contentType === undefined && bytes.length === 0) return undefined;
  const media = (contentType ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA.test(media)) throw invalidRequest("Content-Type must be application/json");
  const decoded = jsonTextOf(bytes);
  if (!decoded.ok) throw invalidRequest(decoded.message);
  const body = decoded.text;
  if (body.trim() === "") return undefined;
  // Before parsing: a value thousands of levels deep parses, then overflows every recursive reader after it.
  if (jsonTooDeep(body)) throw invalidRequest(bodyTooDeepMessage());
  try {
    return JSON.parse(body);
  } catch (error) {
    throw invalidRequest(requestWording.invalidJsonBody((error as Error).message));
  }
}
