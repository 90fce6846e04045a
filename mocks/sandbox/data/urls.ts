/** Profile and company URL normalization (the stable join key is the normalized profile URL). */

export const NETWORK_ORIGIN = "https://network.example.com";

/** A profile URL already in the graph's own form (normalizing it only drops the scheme). */
const GRAPH_PROFILE_URL = /^https:\/\/network\.example\.com\/in\/[a-z0-9-]+$/;

/** Lower-cased host + path without scheme, `www.`, query, fragment or trailing slash; null when not URL-like. */
export function normalizeProfileUrl(value: string): string | null {
  if (GRAPH_PROFILE_URL.test(value)) return value.slice("https://".length);
  let s = value.trim().toLowerCase();
  if (!s) return null;
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^www\./, "");
  s = s.replace(/[?#].*$/, "").replace(/\/+$/, "");
  if (!/^[a-z0-9.-]+\.[a-z]{2,}\/in\/[^/\s]+$/.test(s)) return null;
  return s;
}

export function profileUrl(slug: string): string {
  return `${NETWORK_ORIGIN}/in/${slug}`;
}

export function companyUrl(key: string): string {
  return `${NETWORK_ORIGIN}/company/${key}`;
}
