/**
 * CORS for browser apps on any origin. Keys travel in headers, never in cookies, so no credentials are
 * allowed and the origin is `*` (a reflected origin with `allow-credentials: true` would let any site make
 * credentialed calls). The preflight allows the X-Sandbox-Control header only to the sandbox's own origin
 * (control.ts). Kept in the core rather than @fastify/cors because the MSW host answers the same headers.
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

/** Headers on every answer; a preflight (OPTIONS) adds the allowed methods and headers. */
export function corsHeaders(headers: RequestHeaders, preflight: boolean): Record<string, string> {
  const out: Record<string, string> = {
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after",
  };
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
