/**
 * The match of a search row: one class, so that every search match has its keys in one order (the order of
 * its JSON) and two can be compared by value in a few nanoseconds instead of serializing both: a search
 * page's row bytes are cached with the match they were last written with (views.ts).
 */
import type { Match, MatchRole } from "../data/resources.js";

/** A role key of a match (one literal for every producer, so its keys are always in this order). */
export function matchRole(
  family: string,
  months: number,
  scope: MatchRole["scope"],
  company: string | null,
): MatchRole {
  return { family, months, scope, company };
}

/**
 * Search match keys: the company, the roles and the keyword score; a key left undefined is absent from the
 * JSON, as the reference shows it. Read-only (to the type checker: freezing each match would cost more than
 * comparing it), since a match kept with a row's bytes must not change under them.
 */
export class SearchMatch implements Match {
  readonly company: string | null | undefined;
  readonly company_months: number | undefined;
  readonly role_months: number | undefined;
  readonly roles: MatchRole[] | undefined;
  readonly score: number | undefined;

  constructor(
    company: Pick<Match, "company" | "company_months">,
    role: Pick<Match, "role_months" | "roles">,
    score: number | undefined,
  ) {
    this.company = company.company;
    this.company_months = company.company_months;
    this.role_months = role.role_months;
    this.roles = role.roles;
    this.score = score;
  }
}

function sameRoles(a: MatchRole[] | undefined, b: MatchRole[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.family !== y.family || x.months !== y.months || x.scope !== y.scope || x.company !== y.company) return false;
  }
  return true;
}

/** Whether two search matches serialize to the same JSON (their keys are in one order: only values differ). */
export function sameSearchMatch(a: SearchMatch, b: SearchMatch): boolean {
  return (
    a.company === b.company &&
    a.company_months === b.company_months &&
    a.role_months === b.role_months &&
    a.score === b.score &&
    sameRoles(a.roles, b.roles)
  );
}
