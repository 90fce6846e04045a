/**
 * Whether documents are plain JSON values (what JSON.parse or a YAML parser gives: plain objects, arrays without
 * holes, strings, finite numbers, booleans, null) in which no object or array sits in two places, within one
 * document or across them. The differ marks what its rules judged per node, so a node in two places would be
 * judged in both at once (YAML aliases share one); documents of this kind it compares as they are, any other it
 * first copies through JSON. Keys only a program can add and JSON would drop (a symbol, a non-enumerable
 * property) are not looked for: no parser makes them.
 */
export function separateJson(...docs: unknown[]): boolean {
  const seen = new Set<object>();
  const plain = (value: unknown): boolean => {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        return Number.isFinite(value) && (value !== 0 || 1 / value > 0); // JSON has no -0
      case "object":
        break;
      default:
        return false;
    }
    if (value === null) return true;
    if (seen.has(value)) return false;
    seen.add(value);
    if (Array.isArray(value)) {
      // No hole and no named key (JSON keeps neither): `for in` visits exactly the indices.
      if (Object.getPrototypeOf(value) !== Array.prototype) return false;
      let keys = 0;
      for (const _ in value) keys += 1;
      if (keys !== value.length) return false;
      for (let i = 0; i < value.length; i += 1) if (!(i in value) || !plain(value[i])) return false;
      return true;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return false;
    for (const key in value) if (!plain((value as Record<string, unknown>)[key])) return false;
    return true;
  };
  return docs.every(plain);
}
