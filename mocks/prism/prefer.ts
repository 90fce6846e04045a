// Prism's request preferences: the `Prefer` header (`code=404`, `example=<name>`, `dynamic=true`,
// `seed=<text>`), or, when no Prefer header is sent, the query parameters `__code`, `__example`,
// `__dynamic`, `__seed` (handy in a browser address bar). Same rules as Prism's own server.

export interface MockPreferences {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
  seed?: string;
}

export type PreferenceResult = { ok: true; value: MockPreferences } | { ok: false; message: string };

const QUERY_KEYS = ["__code", "__example", "__dynamic", "__seed"] as const;

/** Parses `code=404, example="full"; dynamic=true` into its name/value pairs (names lower-cased). */
export function parsePreferHeader(header: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const token of header.split(/[,;]/)) {
    const eq = token.indexOf("=");
    if (eq < 0) continue;
    const name = token.slice(0, eq).trim().toLowerCase();
    const value = token.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    if (name && !pairs.has(name)) pairs.set(name, value);
  }
  return pairs;
}

/** Reads the preferences and removes the `__` query parameters so they are not validated as API input. */
export function readPreferences(prefer: string | undefined, query: URLSearchParams): PreferenceResult {
  const raw = new Map<string, string>();
  if (prefer !== undefined && prefer.trim() !== "") {
    for (const [k, v] of parsePreferHeader(prefer)) raw.set(k, v);
  } else {
    for (const key of QUERY_KEYS) {
      const v = query.get(key);
      if (v !== null) raw.set(key.slice(2), v);
    }
  }
  for (const key of QUERY_KEYS) query.delete(key);

  const value: MockPreferences = {};
  const code = raw.get("code");
  if (code !== undefined) {
    if (!/^\d{3}$/.test(code)) return { ok: false, message: `Prefer code must be a 3-digit HTTP status, got "${code}"` };
    value.code = Number(code);
  }
  const dynamic = raw.get("dynamic");
  if (dynamic !== undefined) {
    if (dynamic !== "true" && dynamic !== "false") {
      return { ok: false, message: `Prefer dynamic must be true or false, got "${dynamic}"` };
    }
    value.dynamic = dynamic === "true";
  }
  const example = raw.get("example");
  if (example) value.exampleKey = example;
  const seed = raw.get("seed");
  if (seed) value.seed = seed;
  return { ok: true, value };
}
