/**
 * The job simulation (README.md, Jobs). A Target job moves queued (pending) -> resolving -> discovering ->
 * enriching (running) -> done, or ends failed; a refresh_watch job (enqueued by accepting members) goes
 * queued -> enriching -> done. Each step does the work of the phase it leaves. A job's outcome is decided
 * when it is created (--job-failure-rate, deterministic per place since the start or the last reset; or
 * chosen by a host's test through planJobs) or forced by POST /__sandbox/jobs/advance; with --job-speed S > 0
 * a timer steps each job every PHASE_MS / S ms.
 */
import { faultOn } from "../data/proof-faults.js";
import type { SandboxContext } from "../contract/context.js";
import type { SpecIndex } from "../contract/spec.js";
import { propertyClamp } from "../contract/spec-values.js";
import type { OrgState, SandboxState } from "../contract/state.js";
import { iso } from "./area-helpers.js";
import { findCompany } from "../domain/companies.js";
import { companyCandidates, networkIdFor, peopleCandidates, type Candidate, type PeopleFilters } from "./discovery.js";
import { syncDefaultLists } from "./lists.js";
import type { JobOutcome, JobRecord, JobType, MemberRecord, TargetRecord } from "./records.js";
import { issueId, newId, unitFrom } from "./area-helpers.js";
import { everyTarget, hasActiveJob, latestJob } from "./targets-store.js";

/** One phase lasts this long at --job-speed 1. */
export const PHASE_MS = 2000;
/** The deployment cap of result_limit (TRACK_COMPANY_MAX_PEOPLE): the spec's `x-clamp` of the property. */
export const resultLimitCap = (spec: SpecIndex): number =>
  propertyClamp(spec, "CreateTargetRequest", "result_limit").maximum;
const ENRICH_INITIAL = 2000;
const ENRICH_REFRESH = 500;
/** Share of candidates a `partial` job cannot fetch (at least one). */
const PARTIAL_SHARE = 0.05;

const COMPANY_NOT_RESOLVED = "Company could not be resolved";
const DISCOVERY_FAILED = "Discovery failed: the profile provider did not answer (simulated by the sandbox)";
const ENRICHMENT_FAILED = "Enrichment failed: the profile provider did not answer (simulated by the sandbox)";

function dueAfter(ctx: SandboxContext, now: number): number | null {
  return ctx.options.jobSpeed > 0 ? now + PHASE_MS / ctx.options.jobSpeed : null;
}

function outcomeFor(ctx: SandboxContext, jobKey: string): JobOutcome {
  const rate = ctx.options.jobFailureRate;
  const u = unitFrom(`outcome:${jobKey}`);
  if (u < rate) return "failed";
  return u < Math.min(1, rate * 2) ? "partial" : "done";
}

/** How a chosen job ends, and how many members its discovery finds at most (default: all the graph gives). */
export interface JobPlan {
  outcome: "done" | "failed";
  members?: number;
}

/** The chosen ends of the next discovery jobs, per sandbox, in order (a host's test setting, not stored state). */
const plans = new WeakMap<SandboxState, { plan: JobPlan; left: number }[]>();

/**
 * The next `times` discovery jobs (createTarget, retryTarget: not the refresh job accepting members enqueues)
 * end as `plan` says, whatever --job-failure-rate draws. Throws a TypeError naming a value it cannot take.
 */
export function planJobs(state: SandboxState, plan: JobPlan, times = 1): void {
  if (plan.outcome !== "done" && plan.outcome !== "failed")
    throw new TypeError(`outcome must be "done" or "failed", got ${JSON.stringify(plan.outcome)}`);
  if (plan.members !== undefined && !(Number.isInteger(plan.members) && plan.members >= 0))
    throw new TypeError(`members must be a whole number of 0 or more, got ${String(plan.members)}`);
  if (!(times === Infinity || (Number.isInteger(times) && times >= 1)))
    throw new TypeError(`times must be a positive integer or Infinity, got ${String(times)}`);
  const queue = plans.get(state) ?? [];
  queue.push({ plan: { outcome: plan.outcome, members: plan.members }, left: times });
  plans.set(state, queue);
}

/** Forgets the chosen ends not used yet. */
export function clearJobPlans(state: SandboxState): void {
  plans.delete(state);
}

function takePlan(state: SandboxState): JobPlan | undefined {
  const queue = plans.get(state);
  const first = queue?.[0];
  if (!first) return undefined;
  if (--first.left <= 0) queue!.shift();
  return first.plan;
}

/** Inserts a new pending job (phase queued) as the Target's latest job. */
export function enqueueJob(ctx: SandboxContext, target: TargetRecord, type: JobType): JobRecord {
  const now = ctx.options.now();
  // The outcome follows the key (the position since the last reset), not the id: the same after a reset.
  const { id, key } = issueId(ctx.state, "job");
  const plan = type === "refresh_watch" ? undefined : takePlan(ctx.state);
  const job: JobRecord = {
    id,
    type,
    status: "pending",
    phase: "queued",
    total: 0,
    completed: 0,
    failed: 0,
    error: null,
    outcome: plan?.outcome ?? outcomeFor(ctx, key),
    created_at: iso(now),
    updated_at: iso(now),
    due: dueAfter(ctx, now),
    ...(plan?.members === undefined ? {} : { found: plan.members }),
  };
  target.jobs.push(job);
  return job;
}

export function trackJobType(target: TargetRecord): JobType {
  return target.kind === "people" ? "track_people" : "track_company";
}

export function effectiveLimit(target: TargetRecord, spec: SpecIndex): number {
  return target.result_limit ?? resultLimitCap(spec);
}

function fail(job: JobRecord, error: string): void {
  job.status = "failed";
  job.error = error;
  job.due = null;
}

/** Resolves a company Target's input; false when the company is unknown. */
function resolve(ctx: SandboxContext, target: TargetRecord): boolean {
  if (target.kind !== "company") return true;
  const company = findCompany(ctx.graph, target.input);
  if (!company) return false;
  target.company_key = company.key;
  target.network_url = company.network_url;
  if (!target.titled) target.name = company.name;
  return true;
}

function candidatesFor(ctx: SandboxContext, target: TargetRecord): Candidate[] {
  const limit = effectiveLimit(target, ctx.spec);
  if (target.kind === "company") {
    const company = target.company_key ? ctx.graph.companyByKey.get(target.company_key) : undefined;
    return company ? companyCandidates(ctx.graph, company, target.salt ?? target.id, limit) : [];
  }
  return peopleCandidates(ctx.graph, (target.query.filters ?? {}) as PeopleFilters, target.salt ?? target.id, limit);
}

/** Admits candidates: new members proposed (watching with auto_admit); existing members keep their status. */
function admit(ctx: SandboxContext, target: TargetRecord, candidates: Candidate[], now: string): void {
  for (const c of candidates) {
    if (target.members.has(c.key)) continue;
    const member: MemberRecord = {
      id: newId(ctx.state, "member"),
      key: c.key,
      network_url: c.network_url,
      status: target.auto_admit ? "watching" : "proposed",
      ...c.stub,
      network_id: null,
      profile_picture_url: null,
      profile_slug: null,
      enriched_at: null,
      first_seen_at: now,
      in_graph: c.in_graph,
      enrichment: c.enrichment,
    };
    target.members.set(c.key, member);
  }
}

function discover(ctx: SandboxContext, target: TargetRecord, job: JobRecord, now: string): void {
  const found = candidatesFor(ctx, target).slice(0, job.found ?? Infinity);
  const lost =
    job.outcome === "partial" && found.length > 0 ? Math.max(1, Math.round(found.length * PARTIAL_SHARE)) : 0;
  admit(ctx, target, found.slice(0, found.length - lost), now);
  job.total = found.length;
  job.failed = lost;
  if (lost > 0) job.error = `${lost} profiles could not be fetched`;
}

/** Fills the profile and enrichment fields of a member. */
function enrichMember(member: MemberRecord, now: string): void {
  Object.assign(member, member.enrichment.profile);
  member.network_id = networkIdFor(member.key);
  member.profile_slug = member.enrichment.slug;
  member.profile_picture_url = member.enrichment.picture;
  member.enriched_at = now;
}

export function needsEnrichment(target: TargetRecord): MemberRecord[] {
  return [...target.members.values()].filter((m) => m.status === "watching" && m.enriched_at === null);
}

/**
 * The members one enrichment run enriches: up to 2000 initially unenriched watching members, or up to 500 on a
 * refresh (the reference's limits table), in member order. The rest wait for the next run; `enriched_count`
 * shows how far it got.
 */
export function enrichmentBatch(target: TargetRecord, type: JobRecord["type"]): MemberRecord[] {
  const waiting = needsEnrichment(target);
  if (faultOn("enrichment-run-unbounded")) return waiting;
  return waiting.slice(0, type === "refresh_watch" ? ENRICH_REFRESH : ENRICH_INITIAL);
}

function enrich(target: TargetRecord, job: JobRecord, now: string): void {
  const batch = enrichmentBatch(target, job.type);
  for (const m of batch) enrichMember(m, now);
  if (job.type === "refresh_watch") {
    job.total = batch.length;
    job.completed = batch.length;
  } else {
    job.completed = job.total - job.failed;
  }
}

/** Moves the Target's latest job one phase; false when it is not pending or running. */
function stepJob(ctx: SandboxContext, org: OrgState, target: TargetRecord): boolean {
  const job = latestJob(target);
  if (!job || !hasActiveJob(target)) return false;
  const nowMs = ctx.options.now();
  const now = iso(nowMs);
  job.updated_at = now;
  job.due = dueAfter(ctx, nowMs);
  switch (job.phase) {
    case "queued":
      job.status = "running";
      job.phase = job.type === "refresh_watch" ? "enriching" : "resolving";
      break;
    case "resolving":
      if (!resolve(ctx, target)) fail(job, COMPANY_NOT_RESOLVED);
      else job.phase = "discovering";
      break;
    case "discovering":
      if (job.outcome === "failed") fail(job, DISCOVERY_FAILED);
      else {
        discover(ctx, target, job, now);
        job.phase = "enriching";
      }
      break;
    case "enriching":
      if (job.type === "refresh_watch" && job.outcome === "failed") fail(job, ENRICHMENT_FAILED);
      else {
        enrich(target, job, now);
        job.status = "done";
        job.phase = "done";
        job.due = null;
      }
      break;
    default:
      return false;
  }
  syncDefaultLists(ctx, org);
  return true;
}

export interface AdvanceOptions {
  /** Only this Target's job. */
  targetId?: string;
  /** Phases to step (default 1). */
  steps?: number;
  /** Step until the job is done or failed. */
  untilFinished?: boolean;
  /** Force the outcome of the jobs stepped. */
  outcome?: JobOutcome;
}

/** A Target's latest job as the control endpoints answer it (null: no job yet). */
export function jobSummary(org: OrgState, target: TargetRecord) {
  const job = latestJob(target);
  if (!job) return null;
  const { id, type, status, phase, total, completed, failed, error } = job;
  return { org_id: org.id, target_id: target.id, job: { id, type, status, phase, total, completed, failed, error } };
}

/** The deterministic stepper behind POST /__sandbox/jobs/advance. */
export function advanceJobs(ctx: SandboxContext, opts: AdvanceOptions = {}) {
  const out: NonNullable<ReturnType<typeof jobSummary>>[] = [];
  for (const { org, target } of everyTarget(ctx)) {
    if (opts.targetId !== undefined && target.id !== opts.targetId.toLowerCase()) continue;
    if (!hasActiveJob(target)) continue;
    if (opts.outcome) latestJob(target)!.outcome = opts.outcome;
    const steps = opts.untilFinished ? 10 : (opts.steps ?? 1);
    for (let i = 0; i < steps && stepJob(ctx, org, target); i++);
    out.push(jobSummary(org, target)!);
  }
  return out;
}

/** One tick of the timer (--job-speed > 0): steps every job whose time has come. */
export function tickJobs(ctx: SandboxContext): void {
  const now = ctx.options.now();
  for (const { org, target } of everyTarget(ctx)) {
    const job = latestJob(target);
    if (job && job.due !== null && job.due <= now) stepJob(ctx, org, target);
  }
}
