/** Person views and the reference's hydration rules (dossier, search rows, orbit rows, compact). */
import type { PersonRecord } from "../data/graph.js";
import type { CompactPerson, Match, Person } from "../data/resources.js";

/** GET /people/{slug}: every collapsed position, education, skills, languages, certifications. */
export function fullPerson(rec: PersonRecord, match: Match = {}): Person {
  return { ...rec.person, positions: rec.positions, match };
}

export interface RowHydration {
  skills?: boolean;
  languages?: boolean;
  certifications?: boolean;
}

/**
 * Search rows (and orbit, coworker, similar rows): at most two positions, education empty; skills,
 * languages and certifications only when asked (search: when their filters are used).
 */
export function rowPerson(rec: PersonRecord, match: Match, hydrate: RowHydration = {}): Person {
  const p = rec.person;
  return {
    ...p,
    positions: rec.positions.slice(0, 2),
    education: [],
    skills: hydrate.skills ? p.skills : [],
    languages: hydrate.languages ? p.languages : [],
    certifications: hydrate.certifications ? p.certifications : [],
    match,
  };
}

export function compactPerson(rec: PersonRecord, match: Match): CompactPerson {
  const p = rec.person;
  const shown = rec.positions.find((pos) => pos.is_current === true) ?? rec.positions[0];
  const out: CompactPerson = {
    slug: p.slug,
    name: p.full_name,
    headline: p.headline,
    network_url: p.network_url,
    current: shown ? { company: shown.company, title: shown.title, months: shown.tenure_months } : null,
    open_to_work: p.is_open_to_work,
    between_roles: p.is_between_roles,
    exploring: p.is_exploring,
    codehost_hireable: p.codehost?.hireable ?? null,
  };
  if (match.company || match.company_months) {
    out.match = {};
    if (match.company !== undefined) out.match.company = match.company;
    if (match.company_months !== undefined) out.match.months = match.company_months;
  }
  return out;
}
