/** The people search's effective query and the filters it compiles to (what search and discovery read alike). */
import type { components } from "../../../generated/schema.js";
import type { PlaceMatcher } from "./locations.js";
import type { RoleFilter } from "./roles.js";

/** The effective, saveable query: the spec's filter keys with values of their types (nl phrases included). */
export type EffectiveQuery = components["schemas"]["PeopleSearchFilters"];

export type MatchMode = "any" | "all";

export interface SearchFilters {
  company: string | null;
  minCompanyMonths: number | null;
  companyCurrent: boolean;
  leftMinMonthsAgo: number | null;
  activeDuring: number | null;
  roleFamily: string | null;
  minRoleMonths: number | null;
  roles: RoleFilter[];
  keywords: string[];
  qIn: "people" | "name" | "headline";
  school: string | null;
  skills: { terms: string[]; mode: MatchMode } | null;
  languages: { terms: string[]; mode: MatchMode } | null;
  excludeLanguages: string[];
  certifications: { terms: string[]; mode: MatchMode } | null;
  locations: PlaceMatcher | null;
  excludeLocations: PlaceMatcher | null;
  openToWork: boolean | null;
  betweenRoles: boolean | null;
  exploring: boolean | null;
  codehostHireable: boolean | null;
  includeFlagged: boolean;
  /** How the shared rules read; absent: search's rules (SEARCH_RULES). */
  rules?: MatchRules;
  /** Each group: some current position's title contains one of its terms (Target discovery's titles, seniorities). */
  currentTitles?: string[][];
  /** Some past position's title contains one of these terms. */
  pastTitles?: string[];
  /** Some current position's role family is one of these (lower case); unlike `roleFamily`, no months and no match keys. */
  currentRoleFamilies?: string[];
  /** A stint started or ended within this many months of the graph's today. */
  changedWithinMonths?: number;
  /**
   * Hits whose current position is in this role family (lower case) rank first, before the keyword score:
   * the role noun of an `nl` search ("staff engineers") ranks people who hold such a title now above people
   * who held one in the past.
   */
  rankFamily?: string;
  /** A current (`current: true`) or past stint at a company whose key is one of `ids` or whose text contains one. */
  employers?: { ids: string[]; current: boolean }[];
}

/**
 * Where search (GET /people) and Target discovery read the same filter differently, the one people matcher
 * (`matchPerson`) takes the difference as a rule.
 */
export interface MatchRules {
  /**
   * `name-headline`: every keyword is a word prefix in the name or headline, scored (name 2, headline 1);
   * `profile`: every keyword is a word prefix in the current profile (name, headline, current titles and
   * employers, location), unscored.
   */
  keywords: "name-headline" | "profile";
  /** `phrase`: a term is a phrase in the skills, employers or headline; `exact`: a term equals one skill. */
  skills: "phrase" | "exact";
}

export const SEARCH_RULES: MatchRules = { keywords: "name-headline", skills: "phrase" };
