/**
 * Partial dates (YYYY, YYYY-MM, YYYY-MM-DD) as month indexes (year * 12 + month - 1).
 * A period starts at its first month and ends at its last month (YYYY ends in December).
 */

const PARTIAL_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

interface PartialDate {
  year: number;
  month: number | null;
}

function parsePartialDate(value: string | null | undefined): PartialDate | null {
  const m = value ? PARTIAL_DATE.exec(value) : null;
  if (!m) return null;
  const month = m[2] === undefined ? null : Number(m[2]);
  if (month !== null && (month < 1 || month > 12)) return null;
  return { year: Number(m[1]), month };
}

/** First month of the period. */
export function periodStart(value: string | null | undefined): number | null {
  const d = parsePartialDate(value);
  return d ? d.year * 12 + (d.month ?? 1) - 1 : null;
}

/** Last month of the period. */
export function periodEnd(value: string | null | undefined): number | null {
  const d = parsePartialDate(value);
  return d ? d.year * 12 + (d.month ?? 12) - 1 : null;
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
