/**
 * CORS for browser apps on any origin. Keys travel in headers, never in cookies, so no credentials are
 * allowed and the origin is `*` (a reflected origin with `allow-credentials: true` would let any site make
 * credentialed calls). Kept in the core rather than @fastify/cors because the MSW host answers the same headers.
 */
import { header, type RequestHeaders } from "../contract/auth.js";

/** Headers on every answer; a preflight (OPTIONS) adds the allowed methods and headers. */
export function corsHeaders(headers: RequestHeaders, preflight: boolean): Record<string, string> {
  const out: Record<string, string> = {
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after",
  };
  if (preflight) {
    out["access-control-allow-methods"] = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    out["access-control-allow-headers"] =
      header(headers, "access-control-request-headers") ??
      "authorization, x-api-key, content-type, prefer, x-service-org-id";
    out["access-control-max-age"] = "600";
  }
  return out;
}
