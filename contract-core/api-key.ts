/**
 * The key a request presents, read one way by both servers: a non-empty X-Api-Key wins over
 * `Authorization: Bearer <key>` (the spec's two security schemes). The sandbox then looks the key up; the
 * mock only asks whether one is there, so both answer a keyless request 401 before judging anything else.
 */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** A header's value (the first, when a host gives several); names are lower-case. */
export function header(headers: RequestHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The key a request carries, or null. */
export function presentedKey(headers: RequestHeaders): string | null {
  const apiKey = header(headers, "x-api-key")?.trim();
  if (apiKey) return apiKey;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, "authorization") ?? "");
  return m ? m[1]! : null;
}
