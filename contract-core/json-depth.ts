/**
 * The bound on nesting in a JSON request body, checked on the text before it is parsed, with no `node:`
 * import: both servers (through http-limits.ts, the place for request limits) and the sandbox core under
 * MSW use it.
 */

/**
 * Deepest nesting of arrays and objects in a JSON body. The reference states no bound and the spec's request
 * bodies nest a few levels; a value thousands of levels deep overflows the stack of every recursive reader
 * (validation, serialization) after it was accepted.
 */
export const MAX_JSON_DEPTH = 32;

export function bodyTooDeepMessage(limit: number = MAX_JSON_DEPTH): string {
  return `request body nests arrays and objects deeper than ${limit} levels`;
}

/** True when JSON text nests arrays and objects deeper than `limit`: one pass, no recursion, strings skipped. */
export function jsonTooDeep(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, past escapes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
