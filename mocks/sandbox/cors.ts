/** Permissive CORS (as the Prism mock does), so browser apps on another origin can call the sandbox. */
import type { RequestHeaders } from "./context.js";

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Headers on every answer; a preflight (OPTIONS) adds the allowed methods and headers. */
export function corsHeaders(headers: RequestHeaders, preflight: boolean): Record<string, string> {
  const out: Record<string, string> = {
    "access-control-allow-origin": first(headers.origin) ?? "*",
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": "x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after",
  };
  if (preflight) {
    out["access-control-allow-methods"] = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
    out["access-control-allow-headers"] = first(headers["access-control-request-headers"]) ?? "authorization, x-api-key, content-type, prefer, x-service-org-id";
    out["access-control-max-age"] = "600";
  }
  return out;
}
