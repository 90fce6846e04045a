/**
 * The one normalized form of a request path, so that every decision about a request (rate limit,
 * authentication, routing, logging) sees the same path: `/%761/me` and `/v%31/me` are `/v1/me`.
 * Percent-escapes of unreserved characters (RFC 3986 section 6.2.2.2) are decoded, every other escape is kept
 * with upper-case hex (so `%2F` stays inside its segment), and a malformed escape (`%ZZ`, a lone `%`, bytes
 * that are not UTF-8) is refused: the caller answers 400 instead of failing later in a decoder.
 */

export type NormalizedPath = { ok: true; path: string } | { ok: false; message: string };

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** `pathname` as the URL parser gives it (no query, dot segments resolved). */
export function normalizeRequestPath(pathname: string): NormalizedPath {
  // Without an escape there is nothing to decode, keep or refuse (the common case, on every request).
  if (!pathname.includes("%")) return { ok: true, path: pathname };
  if (/%(?![0-9A-Fa-f]{2})/.test(pathname)) return malformed();
  const path = pathname.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  for (const segment of path.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return malformed();
    }
  }
  return { ok: true, path };
}

function malformed(): NormalizedPath {
  return {
    ok: false,
    message:
      "the request path has a malformed percent-encoding (each % must start a UTF-8 byte written as two hex digits)",
  };
}
