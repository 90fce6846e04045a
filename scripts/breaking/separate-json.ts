/**
 * Whether documents are plain JSON values (what JSON.parse gives: plain objects, arrays, strings, finite numbers,
 * booleans, null) in which no object or array sits in two places, within one document or across them. The differ
 * marks what its rules judged per node, so a node in two places would be judged in both at once (YAML aliases
 * share one); documents of this kind it compares as they are, any other it first copies through JSON.
 */
export function separateJson(...docs: unknown[]): boolean {
  const seen = new Set<object>();
  const plain = (value: unknown): boolean => {
    if (value === null || typeof value === "string" || typeof value === "boolean") return true;
    if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
    if (typeof value !== "object" || seen.has(value)) return false;
    seen.add(value);
    // Only own enumerable string keys, as JSON keeps: no symbol, hidden key or extra array key.
    const own = Reflect.ownKeys(value).length;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype || own !== value.length + 1) return false;
      for (let i = 0; i < value.length; i += 1) if (!(i in value) || !plain(value[i])) return false;
      return true;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    const keys = Object.keys(value);
    if (own !== keys.length) return false;
    for (const key of keys) if (!plain((value as Record<string, unknown>)[key])) return false;
    return true;
  };
  return docs.every(plain);
}
