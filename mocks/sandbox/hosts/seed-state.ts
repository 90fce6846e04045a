/**
 * Declared starting states: one value names what an organization holds before a test starts (Lists with
 * members, saved queries, Targets whose job is in a given phase with members in given statuses,
 * preferences, plan, watch-slot quota, access), and `applyStartingState` builds it by sending the requests a
 * client would send through the core: the API's own validation checks every part, and a part the API
 * refuses is an Error naming the part and quoting the API's answer; all or nothing: the state is stored as
 * one write once built, so a failed build stores nothing (the state goes back to what was stored).
 *
 * Plan, quota and access have no write operation in the reference; they are set on the organization
 * directly, after the Targets, so a declared quota below the watching members gives an organization over
 * its quota.
 *
 * A snapshot (the MSW host's `snapshot()`: the whole state in its stored form and the clock) is a
 * starting state too: it is checked in full like a stored state and put back as it was, so the same reads
 * answer the same bytes.
 */
import type { components } from "../../../generated/schema.js";
import type { OperationId, RequestBody } from "../contract/context.js";
import { isObj as isObject } from "../../../contract-core/portable.js";
import { KEYS, ORGS } from "../contract/auth.js";
import type { SandboxCore } from "../core/core.js";
import { restoreState, StateFileError, type SandboxSnapshot } from "../areas/stored-state.js";
import { PLANS, type Plan } from "../contract/state.js";
import { reloadState, storeWrite } from "../areas/stored-state.js";

type Schemas = components["schemas"];
type Body<Op extends OperationId> = NonNullable<RequestBody<Op>>;

/** A seeded organization with a customer key. */
export type SeedOrgName = keyof typeof ORGS;
type MemberStatus = Schemas["MemberStatus"];
/** Where the Target's latest job stands: a finished status, pending (queued) or a running phase. */
export type DeclaredJob =
  Exclude<Schemas["JobStatus"], "running"> | Exclude<NonNullable<Schemas["JobPhase"]>, "queued" | "done">;

/** Members go through POST /lists/{id}/members, whose body the reference does not show: the sandbox's shape (lists.ts). */
export type DeclaredList = Body<"createList"> & {
  /** Profile URLs or graph slugs, with the stage and notes they all get. */
  members?: string[];
  stage?: string | null;
  notes?: string | null;
};

export type DeclaredTarget = Body<"createTarget"> & {
  /**
   * How many members in each status: discovery admits their sum (as result_limit), then the first
   * `watching` become watching and the next `excluded` excluded; the rest stay proposed.
   */
  members?: Partial<Record<MemberStatus, number>>;
  /** The latest job at the end (default "done"). With members, their discovery job is done and a retry is in this state. */
  job?: DeclaredJob;
};

export interface StartingState {
  /** The organization (default "acme"). */
  org?: SeedOrgName;
  plan?: Plan;
  /** The monitoring allocation (GET /me quota.watch_slots.max). */
  watchSlots?: number;
  /** false: locked after its trial (402 everywhere but GET /me). */
  access?: boolean;
  preferences?: Body<"updateNotificationPreferences">;
  savedQueries?: Body<"createSavedQuery">[];
  lists?: DeclaredList[];
  targets?: DeclaredTarget[];
}

export type { SandboxSnapshot } from "../areas/stored-state.js";

/** What initialState, seedState and --state-seed take: declared states or a snapshot. */
export type StartingPoint = StartingState | readonly StartingState[] | SandboxSnapshot;

export function isSnapshot(value: unknown): value is SandboxSnapshot {
  return isObject(value) && "snapshot" in value;
}

/** Puts a snapshot back (checked in full first); a damaged or foreign one is a StartingStateError. */
function restoreSnapshot(core: SandboxCore, value: SandboxSnapshot, where: string): void {
  if (value.snapshot !== 1)
    fail(`${where}.snapshot`, `this sandbox reads format 1, got ${JSON.stringify(value.snapshot)}`);
  if (typeof value.now !== "string" || !Number.isFinite(Date.parse(value.now)))
    fail(`${where}.now`, `must be an ISO 8601 date-time, got ${JSON.stringify(value.now)}`);
  core.reset();
  try {
    restoreState(core.ctx, { orgs: value.orgs, shared: value.shared }, where);
  } catch (error) {
    core.reset();
    if (error instanceof StateFileError) fail(where, `not a snapshot this sandbox can use (${error.message})`);
    throw error;
  }
  core.setNow(value.now);
}

const FIELDS = ["org", "plan", "watchSlots", "access", "preferences", "savedQueries", "lists", "targets"];
const LIST_FIELDS = ["members", "stage", "notes"];
const TARGET_FIELDS = ["members", "job"];
const STATUSES: readonly MemberStatus[] = ["watching", "excluded", "proposed"];
const JOBS: readonly DeclaredJob[] = ["pending", "resolving", "discovering", "enriching", "done", "failed"];
/** Steps of /__sandbox/jobs/advance from queued to each running phase. */
const PHASE_STEPS: Partial<Record<DeclaredJob, number>> = { pending: 0, resolving: 1, discovering: 2, enriching: 3 };

export class StartingStateError extends Error {
  override name = "StartingStateError";
}

function fail(where: string, message: string): never {
  throw new StartingStateError(`${where}: ${message}`);
}

/** The value as an object; unless `passOn` (a request body the API checks), names outside `allowed` are refused (a typo seeds nothing). */
function own(where: string, value: unknown, allowed: readonly string[], passOn: boolean): Record<string, unknown> {
  if (!isObject(value)) fail(where, "must be an object");
  if (!passOn)
    for (const key of Object.keys(value))
      if (!allowed.includes(key)) fail(where, `unknown field "${key}" (fields: ${allowed.join(", ")})`);
  return value;
}

function arrayOf(where: string, value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(where, "must be an array");
  return value;
}

/** Checks what the API does not see (names, the organization, plan, quota, counts, job) before any write. */
export function checkStartingState(input: unknown, where = "initialState"): StartingState[] {
  if (isSnapshot(input)) return [];
  const states = Array.isArray(input) ? input : [input];
  return states.map((raw, i) => {
    const at = Array.isArray(input) ? `${where}[${i}]` : where;
    const s = own(at, raw, FIELDS, false);
    if (s.org !== undefined && !(typeof s.org === "string" && Object.hasOwn(ORGS, s.org)))
      fail(`${at}.org`, `must be one of ${Object.keys(ORGS).join(", ")}, got ${JSON.stringify(s.org)}`);
    if (s.plan !== undefined && !PLANS.includes(s.plan as Plan))
      fail(`${at}.plan`, `must be one of ${PLANS.join(", ")}, got ${JSON.stringify(s.plan)}`);
    if (s.watchSlots !== undefined && !(Number.isInteger(s.watchSlots) && (s.watchSlots as number) >= 0))
      fail(`${at}.watchSlots`, `must be a non-negative integer, got ${JSON.stringify(s.watchSlots)}`);
    if (s.access !== undefined && typeof s.access !== "boolean") fail(`${at}.access`, "must be true or false");
    if (s.preferences !== undefined) own(`${at}.preferences`, s.preferences, [], true);
    arrayOf(`${at}.savedQueries`, s.savedQueries).forEach((q, j) => own(`${at}.savedQueries[${j}]`, q, [], true));
    arrayOf(`${at}.lists`, s.lists).forEach((l, j) => own(`${at}.lists[${j}]`, l, LIST_FIELDS, true));
    arrayOf(`${at}.targets`, s.targets).forEach((t, j) => {
      const target = own(`${at}.targets[${j}]`, t, TARGET_FIELDS, true);
      if (target.job !== undefined && !JOBS.includes(target.job as DeclaredJob))
        fail(`${at}.targets[${j}].job`, `must be one of ${JOBS.join(", ")}, got ${JSON.stringify(target.job)}`);
      if (target.members === undefined) return;
      const members = own(`${at}.targets[${j}].members`, target.members, STATUSES, false);
      for (const [status, n] of Object.entries(members))
        if (!(Number.isInteger(n) && (n as number) >= 0))
          fail(`${at}.targets[${j}].members.${status}`, `must be a non-negative integer, got ${JSON.stringify(n)}`);
      if (target.result_limit !== undefined)
        fail(`${at}.targets[${j}]`, "members sets result_limit (their sum): give one or the other");
    });
    return s as StartingState;
  });
}

/** One organization's client: requests through the core with its customer key; non-2xx is an Error. */
function clientFor(core: SandboxCore, org: SeedOrgName) {
  const key = KEYS.find((k) => k.kind === "customer" && k.orgId === ORGS[org].id)!.key;
  const base = core.ctx.spec.basePath;
  return async <T = unknown>(where: string, method: string, path: string, body?: unknown): Promise<{ data: T }> => {
    const control = path.startsWith("/__sandbox/");
    const res = await core.handle({
      method,
      url: control ? path : base + path,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed = res.body ? JSON.parse(res.body) : undefined;
    if (res.status >= 300) {
      const error = parsed?.error;
      const said = error ? `${error.type}: ${error.message}` : (res.body ?? "");
      fail(where, `${method} ${control ? path : base + path} answered ${res.status} (${said})`);
    }
    return parsed;
  };
}

function without(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !names.includes(k)));
}

/** Creates the Target, then checks its latest job stands where it was declared (a company that does not resolve fails). */
async function seedTarget(call: ReturnType<typeof clientFor>, at: string, declared: DeclaredTarget): Promise<void> {
  const id = await buildTarget(call, at, declared);
  const job = (await call<Schemas["Target"]>(at, "GET", `/targets/${id}`)).data.job;
  const want = declared.job ?? "done";
  const got = PHASE_STEPS[want] === undefined ? job.status : job.status === "pending" ? "pending" : job.phase;
  if (got !== want)
    fail(
      `${at}.job`,
      `asks for ${want}; the job is ${job.status}${job.phase ? ` (${job.phase})` : ""}${job.error ? `: ${job.error}` : ""}`,
    );
}

async function buildTarget(call: ReturnType<typeof clientFor>, at: string, declared: DeclaredTarget): Promise<string> {
  const counts = declared.members ?? {};
  const total = (counts.watching ?? 0) + (counts.excluded ?? 0) + (counts.proposed ?? 0);
  const job = declared.job ?? "done";
  const body = without(declared as Record<string, unknown>, TARGET_FIELDS);
  if (total > 0) body.result_limit = total;
  const target = (await call<Schemas["Target"]>(at, "POST", "/targets", body)).data;
  const advance = (extra: Record<string, unknown>) =>
    call(at, "POST", "/__sandbox/jobs/advance", { target_id: target.id, ...extra });
  const steps = PHASE_STEPS[job];
  if (total === 0 && steps !== undefined) {
    if (steps > 0) await advance({ steps, outcome: "done" });
    return target.id;
  }
  await advance({ until: "finished", outcome: total === 0 && job === "failed" ? "failed" : "done" });
  if (total === 0) return target.id;

  const listed = await call<Schemas["TargetMember"][]>(at, "GET", `/targets/${target.id}/members?status=all&limit=500`);
  const urls = listed.data.map((m) => m.network_url);
  if (urls.length < total)
    fail(
      `${at}.members`,
      `asks for ${total} members; discovery found ${urls.length} for this Target's input and filters`,
    );
  const watching = urls.slice(0, counts.watching ?? 0);
  const excluded = urls.slice(watching.length, watching.length + (counts.excluded ?? 0));
  if (watching.length > 0)
    await call(at, "POST", `/targets/${target.id}/members`, { status: "watching", urls: watching });
  if (excluded.length > 0)
    await call(at, "POST", `/targets/${target.id}/members`, { status: "excluded", urls: excluded });
  await advance({ until: "finished", outcome: "done" }); // the enrichment accepting members enqueued
  const seen: Record<string, unknown> = (await call<Schemas["Target"]>(at, "GET", `/targets/${target.id}`)).data;
  for (const status of STATUSES) {
    const want = counts[status] ?? 0;
    if (seen[`${status}_count`] !== want)
      fail(
        `${at}.members.${status}`,
        `asks for ${want}, the Target has ${seen[`${status}_count`]} (auto_admit admits every member as watching)`,
      );
  }
  if (job === "done") return target.id;
  await call(at, "POST", `/targets/${target.id}/retry`);
  if (job === "failed") await advance({ until: "finished", outcome: "failed" });
  else if (steps) await advance({ steps, outcome: "done" });
  return target.id;
}

/** Builds one organization's declared state (see the file comment). */
async function seedOrg(core: SandboxCore, s: StartingState, at: string): Promise<void> {
  const name = s.org ?? "acme";
  const call = clientFor(core, name);
  if (s.preferences) await call(`${at}.preferences`, "PUT", "/signals/preferences", s.preferences);
  for (const [i, q] of (s.savedQueries ?? []).entries()) await call(`${at}.savedQueries[${i}]`, "POST", "/queries", q);
  for (const [i, l] of (s.lists ?? []).entries()) {
    const where = `${at}.lists[${i}]`;
    const list = (await call<Schemas["CreatedList"]>(where, "POST", "/lists", without(l, LIST_FIELDS))).data;
    if (!l.members?.length) continue;
    const added = (
      await call<{ ignored: string[] }>(where, "POST", `/lists/${list.id}/members`, {
        urls: l.members,
        ...(l.stage === undefined ? {} : { stage: l.stage }),
        ...(l.notes === undefined ? {} : { notes: l.notes }),
      })
    ).data;
    if (added.ignored.length > 0)
      fail(`${where}.members`, `not a profile URL or a slug of the graph: ${added.ignored.join(", ")}`);
  }
  for (const [i, t] of (s.targets ?? []).entries()) await seedTarget(call, `${at}.targets[${i}]`, t);
  const info = core.ctx.state.org(ORGS[name].id)!.info;
  if (s.plan !== undefined) info.plan = s.plan;
  if (s.watchSlots !== undefined) info.watchSlotsMax = s.watchSlots;
  if (s.access !== undefined) info.accessAllowed = s.access;
}

/** True while no organization holds state: a start with a declared state builds it only then (not over a stored state). */
export function holdsNoState(core: SandboxCore): boolean {
  return [...core.ctx.state.orgs.values()].every((org) => org.isEmpty());
}

/**
 * Back to the seed, then builds the declared state(s), all or nothing: the state is built in memory and
 * handed to the storage (if any) as one write at the end, so a build that fails stores nothing. On an Error
 * (StartingStateError naming the part) the sandbox is back at what its storage holds (or the seed).
 */
export async function applyStartingState(
  core: SandboxCore,
  input: StartingPoint,
  where = "initialState",
): Promise<void> {
  if (isSnapshot(input)) return restoreSnapshot(core, input, where);
  const states = checkStartingState(input, where);
  const { ctx } = core;
  const storage = ctx.storage;
  ctx.storage = null;
  try {
    core.reset();
    for (const [i, s] of states.entries()) {
      // A locked organization answers 402 to every write: it is locked after its own state is built.
      const info = ctx.state.org(ORGS[s.org ?? "acme"].id)!.info;
      const access = s.access ?? info.accessAllowed;
      info.accessAllowed = true;
      await seedOrg(core, { ...s, access }, Array.isArray(input) ? `${where}[${i}]` : where);
    }
    ctx.storage = storage;
    if (storage) await storeWrite(ctx, storage, null);
  } catch (error) {
    ctx.storage = storage;
    if (storage) reloadState(ctx, storage);
    else core.reset();
    throw error;
  }
}
