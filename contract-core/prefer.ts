/**
 * The `Prefer` request header grammar (RFC 7240) shared by the mock and the sandbox: preferences are
 * `name[=value]` separated by `,` or `;` (Prism accepts both), names are case-insensitive, values may be
 * quoted. A server passes the preferences it supports; an unsupported one is ignored and not listed in
 * `Preference-Applied`; a supported one with an invalid value is a 400 invalid_request naming it.
 * Without a Prefer header, the query parameters `__code`, `__example`, `__dynamic`, `__seed`, `__latency`
 * stand in for it (handy in a browser address bar); they are removed from the query either way.
 */

const PREFERENCE_NAMES = ["code", "example", "dynamic", "seed", "latency"] as const;
export type PreferenceName = (typeof PREFERENCE_NAMES)[number];

export interface Preferences {
  /** Answer the operation's documented response with this status. */
  code?: number;
  /** Answer with this named example of the chosen response. */
  example?: string;
  /** Generate the body from the schema instead of using an example. */
  dynamic?: boolean;
  /** Seed for dynamic generation. */
  seed?: string;
  /** Delay the answer by this many milliseconds (capped at MAX_PREFER_LATENCY_MS). */
  latencyMs?: number;
}

export const MAX_PREFER_LATENCY_MS = 60_000;

export type PreferResult =
  | {
      ok: true;
      preferences: Preferences;
      /** `name=value` pairs to echo in Preference-Applied. */ applied: string[];
      ignored: string[];
    }
  | { ok: false; name: PreferenceName; message: string };

/** The raw `name -> value` pairs of a Prefer header (first occurrence wins; a bare token has value ""). */
export function preferencePairs(header: string | readonly string[] | undefined): Map<string, string> {
  const text = Array.isArray(header) ? header.join(",") : ((header as string | undefined) ?? "");
  const pairs = new Map<string, string>();
  for (const token of text.split(/[,;]/)) {
    const eq = token.indexOf("=");
    const name = (eq < 0 ? token : token.slice(0, eq)).trim().toLowerCase();
    const value =
      eq < 0
        ? ""
        : token
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1");
    if (name && !pairs.has(name)) pairs.set(name, value);
  }
  return pairs;
}

const QUERY_PREFIX = "__";

/** Checks one supported preference's value; returns the parsed value or an error message naming it. */
function parseValue(name: PreferenceName, value: string): { value: unknown } | { message: string } {
  switch (name) {
    case "code":
      return /^[1-5]\d\d$/.test(value)
        ? { value: Number(value) }
        : { message: `Prefer code must be a 3-digit HTTP status (100-599), got "${value}"` };
    case "dynamic":
      return value === "true" || value === "false"
        ? { value: value === "true" }
        : { message: `Prefer dynamic must be true or false, got "${value}"` };
    case "latency":
      return /^\d{1,9}$/.test(value)
        ? { value: Math.min(MAX_PREFER_LATENCY_MS, Number(value)) }
        : {
            message: `Prefer latency must be a whole number of milliseconds (at most ${MAX_PREFER_LATENCY_MS}), got "${value}"`,
          };
    case "example":
    case "seed":
      return value !== "" ? { value } : { message: `Prefer ${name} needs a value, e.g. ${name}=full` };
  }
}

/**
 * Parses the Prefer header (or, when it is absent or blank, the `__<name>` query parameters) against the
 * preferences a server supports. Removes the `__` query parameters from `query` so they are not validated as API input.
 */
export function parsePrefer(
  header: string | readonly string[] | undefined,
  supported: readonly PreferenceName[] = PREFERENCE_NAMES,
  query?: URLSearchParams,
): PreferResult {
  let pairs = preferencePairs(header);
  if (pairs.size === 0 && query) {
    pairs = new Map();
    for (const name of PREFERENCE_NAMES) {
      const v = query.get(QUERY_PREFIX + name);
      if (v !== null) pairs.set(name, v);
    }
  }
  if (query) for (const name of PREFERENCE_NAMES) query.delete(QUERY_PREFIX + name);

  const preferences: Preferences = {};
  const applied: string[] = [];
  const ignored: string[] = [];
  for (const [name, raw] of pairs) {
    if (!(supported as readonly string[]).includes(name)) {
      ignored.push(name);
      continue;
    }
    const key = name as PreferenceName;
    const parsed = parseValue(key, raw);
    if ("message" in parsed) return { ok: false, name: key, message: parsed.message };
    (preferences as Record<string, unknown>)[key === "latency" ? "latencyMs" : key] = parsed.value;
    applied.push(`${key}=${raw}`);
  }
  return { ok: true, preferences, applied, ignored };
}

/**
 * The preferences an answer with `status` honoured (RFC 7240: Preference-Applied names only what was applied):
 * `code` when the answer has that status; `example` and `dynamic` when the answer is the one they choose (the
 * `code` status, or a 2xx without one); `seed` only beside an honoured `dynamic`; `latency` always (the delay
 * happens whatever the answer). An answer refused before the preferences were read (a 401, a 400, an unknown
 * path) so names none of `code`, `example`, `dynamic` and `seed`.
 */
export function honouredPreferences(
  result: { applied: readonly string[]; preferences: Preferences },
  status: number,
): string[] {
  const { code } = result.preferences;
  const chosen = code === undefined ? status >= 200 && status < 300 : status === code;
  const honoured = new Set<string>(["latency"]);
  if (code !== undefined && status === code) honoured.add("code");
  if (chosen) honoured.add("example").add("dynamic");
  if (chosen && result.preferences.dynamic) honoured.add("seed");
  return result.applied.filter((pair) => honoured.has(pair.split("=")[0]!));
}

/** The `Preference-Applied` header value for the applied preferences, or undefined when none was applied. */
export function preferenceAppliedHeader(applied: readonly string[]): string | undefined {
  return applied.length > 0 ? applied.join(", ") : undefined;
}
