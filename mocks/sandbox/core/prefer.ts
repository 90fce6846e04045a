/**
 * What the sandbox does with the `Prefer` header (grammar and rules: contract-core/prefer.ts; the table of
 * both servers: mocks/prism/README.md). Supported: `code=<status>` answers the operation's documented
 * response for that status with its spec example, `example=<name>` picks a named example (of the `code`
 * status, else of the default 2xx), `latency=<ms>` delays the answer. `dynamic` and `seed` are not
 * supported here (answers come from the seeded graph): ignored and not listed in Preference-Applied.
 */
import {
  errorBody,
  errorTypeForStatus,
  honouredPreferences,
  parsePrefer,
  preferenceAppliedHeader,
  requestWording,
  withAnsweredStatus,
  type PreferenceName,
  type Preferences,
  type PreferResult,
} from "../../../contract-core/portable.js";
import type { RequestHeaders } from "../contract/auth.js";
import type { UntypedReply } from "../contract/context.js";
import { invalidRequest } from "../contract/errors.js";
import { exampleBody, resolveRef, responseFor, type OperationSpec, type SpecIndex } from "../contract/spec.js";

const SANDBOX_PREFERENCES: readonly PreferenceName[] = ["code", "example", "latency"];

/** The Prefer step: the header read once per request; its `__code`-style stand-ins leave the query. */
export const readPrefer = (headers: RequestHeaders, query: URLSearchParams): PreferResult =>
  parsePrefer(headers.prefer, SANDBOX_PREFERENCES, query);

/** The preferences of an operation's request, or a 400 for a header the grammar refuses (checked after the body). */
export function acceptedPreferences(prefer: PreferResult): Preferences {
  if (!prefer.ok) throw invalidRequest(prefer.message);
  return prefer.preferences;
}

/**
 * Preference-Applied of an answer with `status` under the API base path: what it honoured (honouredPreferences);
 * undefined when none was, or the header was refused.
 */
export const appliedPreferences = (prefer: PreferResult, api: boolean, status: number): string | undefined =>
  api && prefer.ok ? preferenceAppliedHeader(honouredPreferences(prefer, status)) : undefined;

/** The `latency=<ms>` a request asked for (0 outside the API base path or with a refused header). */
export const preferredLatency = (prefer: PreferResult, api: boolean): number =>
  api && prefer.ok ? (prefer.preferences.latencyMs ?? 0) : 0;

/** True when the preferences choose a documented answer instead of the handler's. */
export const choosesExample = (prefs: Preferences): boolean => prefs.code !== undefined || prefs.example !== undefined;

function defaultSuccess(op: OperationSpec): number {
  const status = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s));
  return status ? Number(status) : 200;
}

/**
 * The documented answer for `Prefer: code=<status>` and/or `example=<name>`, or a 400 naming what the
 * operation does not document (in the mock's words; `label` is `GET /v1/people`).
 */
export function preferredReply(spec: SpecIndex, op: OperationSpec, label: string, prefs: Preferences): UntypedReply {
  const code = prefs.code ?? defaultSuccess(op);
  const response = responseFor(op, code);
  if (!response) throw invalidRequest(requestWording.noDocumentedResponse(label, code));
  const headers: Record<string, string> = code === 429 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : {};
  const media = response.content?.["application/json"];
  let body: unknown;
  if (prefs.example !== undefined) {
    const named = media?.examples?.[prefs.example];
    if (named === undefined) {
      throw invalidRequest(requestWording.noNamedExample(label, prefs.example, prefs.code));
    }
    body = resolveRef<Record<string, unknown>>(spec.doc, named).value;
  } else if (media) body = exampleBody(spec.doc, response);
  else return { status: code, headers };
  const type = errorTypeForStatus(code);
  if (body === undefined && type) body = errorBody(type, `Preferred ${code} response`);
  if (body === undefined) throw invalidRequest(`The ${code} response of ${label} has no example to answer with`);
  return { status: code, headers, body: withAnsweredStatus(body, code) };
}

/** The seconds the spec's 429 example names ("retry in 30 seconds"), so header and body agree. */
const RETRY_AFTER_SECONDS = 30;
