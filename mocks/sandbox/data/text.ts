/** Small text helpers shared by the filters. */

const WORD_CHAR = /[\p{L}\p{N}]/u;
const WORD_RUN = /[\p{L}\p{N}]+/gu;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Letter or digit; an ASCII fast path before the Unicode test. */
function isWordChar(ch: string): boolean {
  if (ch === "") return false;
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(ch);
}

/** True when `needle` occurs in `haystack` (both lower-case) starting and ending at word boundaries. */
export function containsPhrase(haystack: string, needle: string): boolean {
  if (!needle) return false;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = at === 0 ? "" : haystack[at - 1]!;
    const after = haystack[at + needle.length] ?? "";
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = at + 1;
  }
}

/** True when some word of `haystack` starts with `prefix` (both lower-case). */
export function hasWordPrefix(haystack: string, prefix: string): boolean {
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(prefix, from);
    if (at < 0) return false;
    if (at === 0 || !isWordChar(haystack[at - 1]!)) return true;
    from = at + 1;
  }
}

/**
 * Maximal runs of letter/digit code units (the same test as the phrase and prefix matchers), so that every
 * word run inside a phrase match, and the leading run of a prefix match, is a whole run of the haystack.
 */
export function wordRuns(text: string): string[] {
  // Without surrogates, code units are code points: the Unicode regex finds the same runs, natively.
  if (!SURROGATE.test(text)) return text.match(WORD_RUN) ?? [];
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const word = i < text.length && isWordChar(text[i]!);
    if (word && start < 0) start = i;
    if (!word && start >= 0) {
      out.push(text.slice(start, i));
      start = -1;
    }
  }
  return out;
}

/** The letter/digit run that `text` starts with ("" when it starts with another character). */
export function leadingRun(text: string): string {
  let end = 0;
  while (end < text.length && isWordChar(text[end]!)) end++;
  return text.slice(0, end);
}

/** Lower-case word tokens of free text. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter(Boolean);
}

/**
 * `make` of a key, made once per key and kept (the value is never null or undefined): what a graph build holds
 * once per distinct text (`memo(String)` returns the same string for equal texts), and a lookup where making the
 * value again would cost more (a text that repeats).
 */
export function memo<K, V extends NonNullable<unknown>>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => made.get(key) ?? made.set(key, make(key)).get(key)!;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
