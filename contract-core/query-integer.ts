/**
 * The one rule for integer query parameters on both servers: a query integer is written in decimal digits
 * (an optional `-`, then 0-9 only) and is a safe, finite integer. `Infinity`, `1e309`, `1e2`, `0x10`, ` 5`
 * and `5.0` are refused before any range check, because JavaScript's Number() would accept them.
 */

const DECIMAL_INTEGER = /^-?[0-9]+$/;

export type QueryIntegerResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * `raw` as an integer, or a message naming the parameter in the core's violation words: `limit must be
 * integer` (what Ajv says of a non-numeric value, so both servers say the same whatever the input), or
 * `limit must be <= 9007199254740991` for more digits than a safe integer. The value is never echoed.
 */
export function parseQueryInteger(name: string, raw: string): QueryIntegerResult {
  if (!DECIMAL_INTEGER.test(raw)) return { ok: false, message: `${name} must be integer` };
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) {
    const bound = raw.startsWith("-") ? `>= ${Number.MIN_SAFE_INTEGER}` : `<= ${Number.MAX_SAFE_INTEGER}`;
    return { ok: false, message: `${name} must be ${bound}` };
  }
  return { ok: true, value: value === 0 ? 0 : value };
}
