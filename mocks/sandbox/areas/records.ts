/**
 * Records of the stateful side (what an organization owns). API shapes come from generated/schema.d.ts;
 * records carry a few internal fields the views drop.
 */
import type { components } from "../../../generated/schema.js";

type Schemas = components["schemas"];
export type TargetView = Schemas["Target"];
export type SavedQueryView = Schemas["SavedQuery"];
export type TargetJobView = Schemas["TargetJob"];
export type TargetMemberView = Schemas["TargetMember"];
export type ListView = Schemas["List"];
export type EventView = Schemas["Event"];
export type EventField = Schemas["EventField"];
export type MemberStatus = Schemas["MemberStatus"];
export type JobStatus = Schemas["JobStatus"];
export type JobPhase = NonNullable<Schemas["JobPhase"]>;
export type TargetKind = Schemas["TargetKind"];

/**
 * Profile fields of a member (from discovery; enrichment adds network_id, picture, slug, enriched_at).
 * is_current: company Targets, current at the company (true) or alumni (false); null for people Targets.
 */
export type MemberProfile = Pick<
  TargetMemberView,
  "full_name" | "headline" | "current_company" | "public_identifier" | "location" | "is_current"
>;

/** A Target member as stored: the API's member without watch_id, plus what the views drop. */
export type MemberRecord = Omit<TargetMemberView, "watch_id"> & {
  /** Normalized profile URL without the scheme (the join key). */
  key: string;
  /** Already a person of the index graph (does not use allocation). */
  in_graph: boolean;
  /** What enrichment fills in (internal; not part of the API shape). */
  enrichment: { profile: MemberProfile; slug: string | null; picture: string | null };
};

export type JobType = "track_company" | "track_people" | "refresh_watch";
/** Decided when the job is created (from --job-failure-rate) or forced by /__sandbox/jobs/advance. */
export type JobOutcome = "done" | "partial" | "failed";

/** A job as stored: the API's job summary (with an id and a phase), plus what the views drop. */
export type JobRecord = Omit<TargetJobView, "id" | "phase"> & {
  id: string;
  phase: JobPhase;
  type: JobType;
  outcome: JobOutcome;
  created_at: string;
  updated_at: string;
  /** Wall-clock ms of the next automatic step (--job-speed > 0), null when finished. */
  due: number | null;
  /** At most this many members found (a test chose it, jobs.ts planJobs); absent: all the graph gives. */
  found?: number;
};

export interface TargetRecord {
  id: string;
  /** Creation sequence (ties on created_at). */
  seq: number;
  kind: TargetKind;
  name: string;
  input: string;
  /** Company Targets: the uniqueness key (resolved company key, or the locally normalized input). */
  company_key: string | null;
  network_url: string | null;
  /** The title was set by PATCH (company resolution no longer renames the Target). */
  titled: boolean;
  auto_admit: boolean;
  result_limit: number | null;
  created_at: string;
  query: Record<string, unknown>;
  /** By normalized URL, in discovery order. */
  members: Map<string, MemberRecord>;
  /** Oldest first; the last one is the latest job. */
  jobs: JobRecord[];
  /**
   * What the profiles its discovery invents follow (its id's key: the same after a reset as in a fresh
   * sandbox). Absent in states stored before it: those Targets' profiles followed their id, and still do.
   */
  salt?: string;
}
