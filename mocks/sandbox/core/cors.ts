/**
 * CORS. The API (under the base path) answers browser apps on any origin by default: it is a development tool
 * whose keys are published test keys, and keys travel in headers, never in cookies, so no credentials are
 * allowed and the origin is `*` (a reflected origin with `allow-credentials: true` would let any site make
 * credentialed calls). `--cors-origin` (`corsOrigins`) limits it to the listed origins. The control endpoints
 * (`/__sandbox/*`: state, jobs, time, reset) answer no other origin at all, reads included: no
 * allow-origin header for a foreign page (its fetch cannot read the answer, its preflight fails), and the
 * control step refuses a foreign Origin with a 403 (control.ts). Kept in the core rather than @fastify/cors
 * because the MSW host answers the same headers.
 */
import { header, type RequestHeaders } from "../contract/auth.js";

const CONTROL_HEADER = "x-sandbox-control";

/** True when the request's Origin names the host it is sent to (a page the sandbox itself serves). */
export function fromOwnOrigin(headers: RequestHeaders): boolean {
  const origin = header(headers, "origin");
  const host = header(headers, "host");
  if (origin === undefined || host === undefined) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Whether a request path is a control endpoint's (`/__sandbox` and below). */
export const isControlPath = (path: string): boolean => path === "/__sandbox" || path.startsWith("/__sandbox/");

/** The allow-origin value for this request, or undefined when its origin gets none. */
function allowedOrigin(
  headers: RequestHeaders,
  control: boolean,
  origins: readonly string[] | null,
): string | undefined {
  const origin = header(headers, "origin");
  if (control) return origin !== undefined && fromOwnOrigin(headers) ? origin : undefined;
  if (origins === null) return "*";
  return origin !== undefined && origins.includes(origin) ? origin : undefined;
}

/**
 * Headers on every answer; a preflight (OPTIONS) adds the allowed methods and headers. `control`: the path
 * is a control endpoint's; `origins`: the API's allowed origins (null: any).
 */
export function corsHeaders(
  headers: RequestHeaders,
  preflight: boolean,
  { control = false, origins = null }: { control?: boolean; origins?: readonly string[] | null } = {},
): Record<string, string> {
  const allow = allowedOrigin(headers, control, origins);
  // An answer that depends on Origin says so, so no cache hands one origin's answer to another.
  if (allow === undefined) return control || origins !== null ? { vary: "origin" } : {};
  const out: Record<string, string> = {
    "access-control-allow-origin": allow,
    "access-control-expose-headers": "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after",
  };
  if (allow !== "*") out.vary = "origin";
  if (preflight) {
    out["access-control-allow-methods"] = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    const requested = header(headers, "access-control-request-headers");
    out["access-control-allow-headers"] =
      requested === undefined
        ? "authorization, x-api-key, content-type, prefer, x-service-org-id"
        : fromOwnOrigin(headers)
          ? requested
          : requested
              .split(",")
              .map((h) => h.trim())
              .filter((h) => h !== "" && h.toLowerCase() !== CONTROL_HEADER)
              .join(", ");
    out["access-control-max-age"] = "600";
  }
  return out;
}
