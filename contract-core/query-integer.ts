/**
 * The one rule for integer query parameters on both servers: a query integer is written in decimal digits
 * (an optional `-`, then 0-9 only) and is a safe, finite integer. `Infinity`, `1e309`, `1e2`, `0x10`, ` 5`
 * and `5.0` are refused before any range check, because JavaScript's Number() would accept them.
 */

const DECIMAL_INTEGER = /^-?[0-9]+$/;
/** How much of a refused value a message repeats (messages never echo input without bound). */
const SHOWN_CHARACTERS = 40;

export type QueryIntegerResult = { ok: true; value: number } | { ok: false; message: string };

/** `raw` as an integer, or a message naming the parameter: `limit must be an integer in decimal digits, got "1e2"`. */
export function parseQueryInteger(name: string, raw: string): QueryIntegerResult {
  if (DECIMAL_INTEGER.test(raw)) {
    const value = Number(raw);
    if (Number.isSafeInteger(value)) return { ok: true, value: value === 0 ? 0 : value };
    return {
      ok: false,
      message: `${name} is out of range (at most ${Number.MAX_SAFE_INTEGER} in absolute value), got ${shown(raw)}`,
    };
  }
  return { ok: false, message: `${name} must be an integer in decimal digits, got ${shown(raw)}` };
}

function shown(raw: string): string {
  return JSON.stringify(raw.length > SHOWN_CHARACTERS ? `${raw.slice(0, SHOWN_CHARACTERS)}...` : raw);
}
