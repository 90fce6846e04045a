/**
 * The `Prefer` request header, compatible with the Prism mock: `code=<status>` answers the operation's
 * documented response for that status with its spec example (`example=<name>` picks a named one);
 * `latency=<ms>` delays the answer.
 */
import { exampleBody, resolveRef, responseFor, type OperationSpec, type SpecIndex } from "./spec.js";
import { ApiError, invalidRequest, type ErrorType } from "./errors.js";
import type { UntypedReply } from "./context.js";

export interface Preferences {
  code?: number;
  example?: string;
  latencyMs?: number;
}

export const MAX_PREFER_LATENCY_MS = 60_000;

export function parsePrefer(header: string | string[] | undefined): Preferences {
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  const out: Preferences = {};
  for (const part of text.split(/[,;]/)) {
    const m = /^\s*([a-z]+)\s*=\s*"?([^"]*)"?\s*$/i.exec(part);
    if (!m) continue;
    const [, name, value] = m as unknown as [string, string, string];
    if (name.toLowerCase() === "code") {
      if (!/^[1-5]\d\d$/.test(value)) throw invalidRequest(`Prefer code must be an HTTP status, got ${value}`);
      out.code = Number(value);
    } else if (name.toLowerCase() === "example") out.example = value;
    else if (name.toLowerCase() === "latency") {
      if (!/^\d{1,6}$/.test(value)) throw invalidRequest(`Prefer latency must be milliseconds, got ${value}`);
      out.latencyMs = Math.min(MAX_PREFER_LATENCY_MS, Number(value));
    }
  }
  return out;
}

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: "invalid_request",
  401: "unauthorized",
  402: "payment_required",
  404: "not_found",
  409: "conflict",
};

/** The documented answer for `Prefer: code=<status>`, or a 400 when the operation does not document it. */
export function preferredReply(spec: SpecIndex, op: OperationSpec, prefs: Preferences & { code: number }): UntypedReply {
  const response = responseFor(op, prefs.code);
  if (!response) throw invalidRequest(`Prefer code=${prefs.code} is not a documented response of ${op.operationId}`);
  const headers: Record<string, string> = prefs.code === 429 ? { "retry-after": "60" } : {};
  const media = response.content?.["application/json"];
  if (!media) return { status: prefs.code, headers };
  let body: unknown;
  if (prefs.example !== undefined) {
    const named = media.examples?.[prefs.example];
    if (named === undefined) throw invalidRequest(`Prefer example=${prefs.example} is not an example of the ${prefs.code} response of ${op.operationId}`);
    body = resolveRef<Record<string, unknown>>(spec.doc, named).value;
  } else body = exampleBody(spec.doc, response);
  if (body === undefined && TYPE_BY_STATUS[prefs.code]) body = new ApiError(prefs.code, TYPE_BY_STATUS[prefs.code]!, `Preferred ${prefs.code} response`).body;
  if (body === undefined) throw invalidRequest(`The ${prefs.code} response of ${op.operationId} has no example to answer with`);
  return { status: prefs.code, headers, body };
}
