/** Profile and company URL normalization (the stable join key is the normalized profile URL). */

export const NETWORK_ORIGIN = "https://network.example.com";

/** A profile URL already in the graph's own form (normalizing it only drops the scheme). */
const GRAPH_PROFILE_URL = /^https:\/\/network\.example\.com\/in\/[a-z0-9-]+$/;

/** URL text as people type it: trimmed, lower-case, without scheme, `www.`, query, fragment or trailing slash. */
export function bareUrl(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^www\./, "")
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "");
}

/** A profile URL's bare form (`bareUrl`: host + path); null when it is not a profile URL. */
export function normalizeProfileUrl(value: string): string | null {
  if (GRAPH_PROFILE_URL.test(value)) return value.slice("https://".length);
  const s = bareUrl(value);
  return /^[a-z0-9.-]+\.[a-z]{2,}\/in\/[^/\s]+$/.test(s) ? s : null;
}

export function profileUrl(slug: string): string {
  return `${NETWORK_ORIGIN}/in/${slug}`;
}

export function companyUrl(key: string): string {
  return `${NETWORK_ORIGIN}/company/${key}`;
}
