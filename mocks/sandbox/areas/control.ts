/**
 * Control endpoints outside /v1 (not in the spec, not authenticated, not rate-limited), the background
 * work (--job-speed; the core's timer or `advance(ms)` runs it), which stores the ids it hands out.
 *
 *   POST /__sandbox/reset            back to the seed (the core also puts the clock back at its start)
 *   POST /__sandbox/jobs/advance     { target_id?, steps?, until?: "finished", outcome?: "done"|"partial"|"failed" }
 *   GET  /__sandbox/jobs             latest job of every Target
 *   POST /__sandbox/events/emit      { org?, target_id?, list?, person?, count?, field?, source?, severity? }
 *   GET  /__sandbox/state            counts per organization
 *   POST /__sandbox/state/save       store the whole state now (needs a storage: --state-file)
 *
 * The core refuses a write here from another site (core/control.ts): each changes many organizations.
 */
import { isObj, mustBeOneOf } from "../../../contract-core/portable.js";
import { ORGS } from "../contract/auth.js";
import type { AdvanceRun, Area, ControlRoute, SandboxContext } from "../contract/context.js";
import { outsideOperations } from "../contract/errors.js";
import type { OrgState } from "../contract/state.js";
import { EVENT_FIELDS } from "./diffs.js";
import { demoOrbitKeys, EVENT_INTERVAL_MS, emitFor, eventsOf, memberKeys, tickEvents, view } from "./events.js";
import { advanceJobs, jobSummary, PHASE_MS, tickJobs } from "./jobs.js";
import { findList, listMemberKeys, listsSlice, personKey } from "./lists.js";
import type { EventView, JobOutcome, TargetRecord } from "./records.js";
import { resetState } from "./stored-state.js";
import { queriesSlice } from "./queries.js";
import { everyTarget, latestJob, targetsOf, targetsSlice, watchingMembers } from "./targets-store.js";

/** The control endpoints are outside the spec: no operation documents their 400 and 404. */
const { invalid: invalidRequest, notFound } = outsideOperations;

const MAX_EMIT = 1000;
const OUTCOMES: readonly JobOutcome[] = ["done", "partial", "failed"];

function body(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (!isObj(raw)) throw invalidRequest("The body must be a JSON object");
  return raw;
}

function optionalString(b: Record<string, unknown>, name: string): string | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw invalidRequest(`${name} must be a non-empty string`);
  return v.trim();
}

function optionalInt(b: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    throw invalidRequest(`${name} must be an integer between ${min} and ${max}`);
  return v;
}

function optionalEnum<T extends string>(b: Record<string, unknown>, name: string, values: readonly T[]): T | undefined {
  const v = optionalString(b, name);
  if (v !== undefined && !values.includes(v as T)) throw invalidRequest(`${name} ${mustBeOneOf(values)}`);
  return v as T | undefined;
}

/** An organization by UUID or seed name (acme, globex, initech). */
function orgByName(ctx: SandboxContext, value: string): OrgState {
  const seeded = (ORGS as Record<string, { id: string }>)[value.toLowerCase()];
  const org = ctx.state.org(seeded?.id ?? value);
  if (!org) throw notFound(`No organization ${value} in the sandbox`);
  return org;
}

function targetById(ctx: SandboxContext, id: string): { org: OrgState; target: TargetRecord } {
  for (const found of everyTarget(ctx)) if (found.target.id === id.toLowerCase()) return found;
  throw notFound(`No Target ${id} in the sandbox`);
}

/** The people an emit request is about (see the module comment). */
function emitKeys(ctx: SandboxContext, b: Record<string, unknown>): string[] {
  const person = optionalString(b, "person");
  if (person !== undefined) {
    const key = personKey(ctx, person);
    if (!key) throw invalidRequest("person must be a profile URL or a graph slug");
    return [key];
  }
  const targetId = optionalString(b, "target_id");
  if (targetId !== undefined) return watchingMembers(targetById(ctx, targetId).target).map((m) => m.key);
  const orgName = optionalString(b, "org");
  const listName = optionalString(b, "list");
  if (listName !== undefined) {
    if (orgName === undefined) throw invalidRequest("list needs org");
    const org = orgByName(ctx, orgName);
    const list = findList(ctx, org, listName);
    if (!list) throw notFound(`No List ${listName} in ${org.info.name}`);
    return [...listMemberKeys(ctx, org, list)];
  }
  const orgs = orgName !== undefined ? [orgByName(ctx, orgName)] : [...ctx.state.orgs.values()];
  const keys = new Set<string>();
  for (const org of orgs) for (const key of memberKeys(ctx, org)) keys.add(key);
  return keys.size > 0 ? [...keys] : demoOrbitKeys(ctx);
}

function allJobs(ctx: SandboxContext) {
  return [...everyTarget(ctx)].map(({ org, target }) => jobSummary(org, target)).filter((s) => s !== null);
}

const controlRoutes: ControlRoute[] = [
  {
    method: "POST",
    path: "/__sandbox/reset",
    handle(_body, ctx) {
      resetState(ctx);
      // The core put the clock back first: diffs fall due from the starting clock again, as in a fresh sandbox.
      scheduleEvents(ctx);
      return { data: { reset: true } };
    },
  },
  {
    method: "POST",
    path: "/__sandbox/jobs/advance",
    handle(raw, ctx) {
      const b = body(raw);
      const targetId = optionalString(b, "target_id");
      if (targetId !== undefined) targetById(ctx, targetId);
      const until = optionalEnum(b, "until", ["finished"] as const);
      const jobs = advanceJobs(ctx, {
        targetId,
        steps: optionalInt(b, "steps", 1, 100),
        untilFinished: until === "finished",
        outcome: optionalEnum(b, "outcome", OUTCOMES),
      });
      return { data: jobs };
    },
  },
  { method: "GET", path: "/__sandbox/jobs", handle: (_body, ctx) => ({ data: allJobs(ctx) }) },
  {
    method: "POST",
    path: "/__sandbox/events/emit",
    handle(raw, ctx) {
      const b = body(raw);
      const count = optionalInt(b, "count", 1, MAX_EMIT) ?? 1;
      const field = optionalEnum(b, "field", EVENT_FIELDS);
      const source = optionalEnum<EventView["source"]>(b, "source", ["ingest", "snapshot_diff", "demo"]);
      const severity = optionalEnum<EventView["severity"]>(b, "severity", ["hot", "quiet"]);
      const events = emitFor(ctx, emitKeys(ctx, b), count, { field, source, severity });
      return { data: events.map(view) };
    },
  },
  {
    method: "GET",
    path: "/__sandbox/state",
    handle: (_body, ctx) => ({
      data: {
        events: eventsOf(ctx.state).events.length,
        organizations: [...ctx.state.orgs.values()].map((org) => ({
          id: org.id,
          name: org.info.name,
          saved_queries: org.has(queriesSlice) ? org.get(queriesSlice).length : 0,
          lists: org.has(listsSlice) ? org.get(listsSlice).length : 0,
          targets: org.has(targetsSlice) ? targetsOf(org).length : 0,
        })),
      },
    }),
  },
  {
    method: "POST",
    path: "/__sandbox/state/save",
    handle(_body, ctx) {
      if (!ctx.storage) throw invalidRequest("Start the sandbox with --state-file <path> to save its state");
      // Every acknowledged write is stored already; the core stores the whole state again before this answer.
      return { data: { saved: ctx.storage.location } };
    },
  },
];

/** When the background work next emits diffs, per sandbox. */
const nextEvents = new WeakMap<SandboxContext, number>();

/** The first emission one interval after the clock now (at start and after a reset). */
function scheduleEvents(ctx: SandboxContext): void {
  if (ctx.options.jobSpeed > 0) nextEvents.set(ctx, ctx.options.now() + EVENT_INTERVAL_MS / ctx.options.jobSpeed);
}

/** True when some job steps at this tick (tickJobs' condition). */
function jobsDue(ctx: SandboxContext): boolean {
  const now = ctx.options.now();
  for (const { target } of everyTarget(ctx)) {
    const job = latestJob(target);
    if (job && job.due !== null && job.due <= now) return true;
  }
  return false;
}

/**
 * Each organization's member keys within one advance(ms), by organization id. Between its ticks only a job step
 * changes who an organization's memberships hold (a diff changes a profile, not a membership; no request comes
 * in between), so they are asked once and again after a job step, not at each of a day's 8,640 emissions.
 * Asking again would give the same keys in the same order: synchronizing unchanged default Lists changes nothing.
 */
const runKeys = new WeakMap<AdvanceRun, Map<string, readonly string[]>>();

function keysDuring(ctx: SandboxContext, run: AdvanceRun): (org: OrgState) => readonly string[] {
  let byOrg = runKeys.get(run);
  if (!byOrg) runKeys.set(run, (byOrg = new Map()));
  const known = byOrg;
  return (org) => {
    let keys = known.get(org.id);
    if (!keys) known.set(org.id, (keys = [...memberKeys(ctx, org)]));
    return keys;
  };
}

export const controlArea = {
  name: "control",
  handlers: {},
  control: controlRoutes,
  setup: scheduleEvents,
  /** Steps due jobs and emits diffs (--job-speed > 0). */
  tick(ctx, run) {
    const speed = ctx.options.jobSpeed;
    if (speed <= 0) return;
    if (run && jobsDue(ctx)) runKeys.delete(run);
    tickJobs(ctx);
    if (ctx.options.now() >= (nextEvents.get(ctx) ?? Infinity)) {
      tickEvents(ctx, run ? keysDuring(ctx, run) : undefined);
      nextEvents.set(ctx, ctx.options.now() + EVENT_INTERVAL_MS / speed);
    }
    // Ids this work hands out are stored by the core after the timer's tick and after advance(ms).
  },
  /** The next job step or diff emission due (the work `tick` would do), null when none ever is. */
  nextDueAt(ctx) {
    if (ctx.options.jobSpeed <= 0) return null;
    let due = nextEvents.get(ctx) ?? Infinity;
    for (const { target } of everyTarget(ctx)) {
      const job = latestJob(target);
      if (job && job.due !== null && job.due < due) due = job.due;
    }
    return Number.isFinite(due) ? due : null;
  },
  tickEveryMs: (ctx) =>
    ctx.options.jobSpeed > 0 ? Math.max(10, Math.min(250, PHASE_MS / ctx.options.jobSpeed / 2)) : null,
} satisfies Area;
