/**
 * `roles` tokens (comma-separated, not JSON): family, family:months, family@company, family:months@company,
 * t.contains.<encoded titles>.<months>, t.exact.<encoded titles>.<months> (titles in one token separated by
 * `;`, ORed). Up to 5 parsed filters; months capped at 600; invalid or duplicate tokens are skipped.
 */

export type RoleFilter =
  | { kind: "family"; family: string; months: number | null; company: string | null; token: string }
  | { kind: "title"; mode: "contains" | "exact"; titles: string[]; months: number | null; token: string };

export const MAX_ROLE_FILTERS = 5;
const MAX_FAMILY_LENGTH = 64;
const MAX_MONTHS = 600;

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

function parseToken(token: string): RoleFilter | null {
  const title = /^t\.(contains|exact)\.(.+?)(?:\.(\d+))?$/i.exec(token);
  if (title) {
    const titles = title[2]!.split(";").map(decode);
    if (titles.some((t) => t === null || t.trim() === "")) return null;
    return {
      kind: "title",
      mode: title[1]!.toLowerCase() as "contains" | "exact",
      titles: (titles as string[]).map((t) => t.trim().toLowerCase()),
      months: title[3] === undefined ? null : Math.min(MAX_MONTHS, Number(title[3])),
      token,
    };
  }
  if (/^t\./i.test(token)) return null; // a malformed title token
  const fam = /^([\p{L}\p{N}_ &/-]+?)(?::(\d+))?(?:@(.+))?$/u.exec(token);
  if (!fam) return null;
  const family = fam[1]!.trim().toLowerCase();
  const company = fam[3] === undefined ? null : decode(fam[3])?.trim().toLowerCase() || null;
  if (!family || family.length > MAX_FAMILY_LENGTH || (fam[3] !== undefined && company === null)) return null;
  return {
    kind: "family",
    family,
    months: fam[2] === undefined ? null : Math.min(MAX_MONTHS, Number(fam[2])),
    company,
    token,
  };
}

/** The title test of a title token (lower-case title): exact, or containing one of the titles. */
export function titleMatcher(r: Extract<RoleFilter, { kind: "title" }>): (title: string) => boolean {
  return r.mode === "exact" ? (title) => r.titles.includes(title) : (title) => r.titles.some((t) => title.includes(t));
}

export function parseRoleTokens(value: string): RoleFilter[] {
  const out: RoleFilter[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(",")) {
    const token = raw.trim();
    if (!token || seen.has(token.toLowerCase())) continue;
    const filter = parseToken(token);
    if (!filter) continue;
    seen.add(token.toLowerCase());
    out.push(filter);
    if (out.length === MAX_ROLE_FILTERS) break;
  }
  return out;
}
