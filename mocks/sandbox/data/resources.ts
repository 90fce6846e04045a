/**
 * Resource shapes of the graph, as the reference describes them (Person full shape and its parts).
 * Stricter than the spec's types (the sandbox always fills every key); `resources.test-d.ts` checks that they
 * are assignable to generated/schema.d.ts.
 */
import type { components } from "../../../generated/schema.js";

export interface PersonLocation {
  city?: string | null;
  region?: string | null;
  country?: string | null;
}

export interface Position {
  company: string | null;
  company_url: string | null;
  title: string | null;
  started_at: string | null;
  ended_at: string | null;
  tenure_months: number | null;
  is_current: boolean | null;
  role_family: string | null;
}

export interface Education {
  school: string | null;
  degree: string | null;
  field: string | null;
  started_at: string | null;
  ended_at: string | null;
  school_url: string | null;
}

export interface Certification {
  name: string;
  authority: string | null;
  issued_at: string | null;
}

export interface Codehost {
  login: string | null;
  candidate_login: string | null;
  url: string | null;
  confidence: string | null;
  score: number | null;
  signals: string[] | null;
  hireable: boolean | null;
  blog: string | null;
  twitter: string | null;
  reconciled_at: string | null;
}

export interface Social {
  handle: string | null;
  candidate_handle: string | null;
  url: string | null;
  confidence: string | null;
  reconciled_at: string | null;
}

export type ExploringField = "headline" | "about" | "role_description";

export interface ExploringReason {
  field: ExploringField;
  label: string;
  before: string | null;
  after: string | null;
  seen_at: string;
}

export interface ExploringEvidence extends ExploringReason {
  quote: string;
  side: "before" | "after";
  source?: "snapshot";
}

export interface ExploringInterpretation {
  model: string;
  version: string;
  segments: { text: string; evidence_indices: number[] }[];
  evidence: ExploringEvidence[];
}

/** Match metadata: the spec's own types (every key optional). */
export type Match = components["schemas"]["Match"];
export type MatchRole = components["schemas"]["MatchRole"];

export interface Person {
  slug: string | null;
  full_name: string | null;
  headline: string | null;
  network_url: string;
  profile_picture_url: string | null;
  location: PersonLocation;
  is_open_to_work: boolean | null;
  is_between_roles: boolean;
  between_roles_since: string | null;
  is_exploring: boolean;
  exploring_since: string | null;
  exploring_reasons: ExploringReason[];
  exploring_interpretation: ExploringInterpretation | null;
  connections_count: number | null;
  followers_count: number | null;
  last_enriched_at: string | null;
  dq_flags: string[];
  codehost: Codehost | null;
  social: Social | null;
  positions: Position[];
  education: Education[];
  skills: string[];
  languages: string[];
  certifications: Certification[];
  match: Match;
}

export interface CompactPerson {
  slug: string | null;
  name: string | null;
  headline: string | null;
  network_url: string;
  current: { company: string | null; title: string | null; months: number | null } | null;
  match?: { company?: string | null; months?: number };
  open_to_work: boolean | null;
  between_roles: boolean;
  exploring: boolean;
  codehost_hireable: boolean | null;
}

export interface Company {
  key: string;
  name: string;
  network_url: string | null;
  domain: string | null;
}
