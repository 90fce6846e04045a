/**
 * The request line step: the method in upper case, one normalized path for every later decision (rate
 * limit, authentication, routing, logging: `/%761/me` is `/v1/me`), the query, and whether the path is
 * under the API base path. An absolute URL is reduced to its path and query.
 */
import { normalizeRequestPath } from "../../../contract-core/portable.js";

export interface RequestLine {
  method: string;
  /** The normalized path, or "/" when it cannot be normalized (`normalized` then says why). */
  path: string;
  normalized: ReturnType<typeof normalizeRequestPath>;
  query: URLSearchParams;
  /** Under the API base path; a path that cannot be normalized counts too, so the rate limit still sees it. */
  api: boolean;
}

export function readRequestLine(method: string, url: string, basePath: string): RequestLine {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "") || "/";
  const q = url.indexOf("?");
  const normalized = normalizeRequestPath(q === -1 ? url : url.slice(0, q));
  const path = normalized.ok ? normalized.path : "/";
  return {
    method: method.toUpperCase(),
    path,
    normalized,
    query: new URLSearchParams(q === -1 ? "" : url.slice(q + 1)),
    api: !normalized.ok || path.startsWith(`${basePath}/`),
  };
}
