/**
 * Partial dates (YYYY, YYYY-MM, YYYY-MM-DD) as month indexes (year * 12 + month - 1).
 * A period starts at its first month and ends at its last month (YYYY ends in December).
 */

const PARTIAL_DATE = /^\d{4}(-\d\d){0,2}$/;

/**
 * The month index of a partial date (a month 01-12; the day unchecked), a YYYY at its month `yearMonth` (1 or
 * 12); null for any other text. The graph reads every position's dates at start: a test and two numbers, no match.
 */
function monthIndex(value: string | null | undefined, yearMonth: number): number | null {
  if (!value || !PARTIAL_DATE.test(value)) return null;
  const month = value.length > 4 ? +value.slice(5, 7) : yearMonth;
  return month < 1 || month > 12 ? null : +value.slice(0, 4) * 12 + month - 1;
}

/** First month of the period. */
export function periodStart(value: string | null | undefined): number | null {
  return monthIndex(value, 1);
}

/** Last month of the period. */
export function periodEnd(value: string | null | undefined): number | null {
  return monthIndex(value, 12);
}

export function monthToString(month: number): string {
  const y = Math.floor(month / 12);
  const m = (month % 12) + 1;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}`;
}

/** Whole months from `from` to `to` (both month indexes), at least 1. */
export function monthsBetween(from: number, to: number): number {
  return Math.max(1, to - from);
}
