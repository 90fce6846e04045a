/** The people search's query (the saveable keys, the effective query) and the filters it compiles to. */
import type { PlaceMatcher } from "./locations.js";
import type { RoleFilter } from "./roles.js";

/** The saveable filter keys, in echo order (SavedQuery allowlist). */
export const QUERY_KEYS = [
  "nl", "company", "min_company_months", "company_active_during", "company_current", "company_left_min_months_ago",
  "role_family", "min_role_months", "roles", "q_in", "keywords", "school", "skill", "skills", "skill_match",
  "language", "languages", "language_match", "exclude_languages", "certification", "certifications", "certification_match",
  "location", "exclude_locations", "open_to_work", "between_roles", "exploring", "codehost_hireable",
] as const;

export type QueryKey = (typeof QUERY_KEYS)[number];
export type EffectiveQuery = Partial<Record<QueryKey, string | number | boolean>>;

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
}
