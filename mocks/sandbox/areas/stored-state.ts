/**
 * The sandbox's state as a host stores it (StateStorage: the Node host's SQLite file, the MSW host's
 * localStorage or the caller's own store): every organization's slices and the sandbox-wide items (events,
 * the id sequence). Each acknowledged write is handed to the storage as one change before it is answered; a
 * write the storage could not keep puts the memory back to what is stored, so an answer that is not 2xx
 * changes nothing. Stored state is checked in full before use, as data: its keys against the kinds and fields
 * this sandbox writes (own keys only, so `__proto__` or `toString` is refused by name), every value against
 * the spec's schema for its kind (a `created_at` must be a date-time), nesting and the id sequence; a failure
 * names the store, the organization and the item, and what to do, never repaired and never served as 500s. The store holds
 * stored webhook URLs and secrets like the service's store does (never returned by the API or logged).
 */
import { createSpecChecker, isObj as isObject, type SchemaCheck } from "../../../contract-core/portable.js";
import type { SandboxContext, StateChange, StateStorage, StoredState } from "../contract/context.js";
import { loadShared, PLANS, resetShared, saveShared, type OrgState, type Slice } from "../contract/state.js";
import { drawnIds, drawsFollowIds, issuedIds } from "./area-helpers.js";
import { listsSlice } from "./lists.js";
import { preferencesSlice } from "./preferences.js";
import { queriesSlice } from "./queries.js";
import { targetsSlice } from "./targets-store.js";

/** Every slice of the stateful side (stored per organization). */
const STATEFUL_SLICES: readonly Slice<unknown>[] = [
  queriesSlice,
  listsSlice,
  targetsSlice,
  preferencesSlice,
] as readonly Slice<unknown>[];

/** The sandbox-wide item without which ids would be handed out again: every stored state must carry it. */
export const ID_SEQUENCE = "ids";
/** The position since the last reset (area-helpers.ts); states stored before it have none. */
const DRAW_SEQUENCE = "draws";

/**
 * Deepest nesting accepted in a stored value: request bodies are bounded at MAX_JSON_DEPTH (32), and the
 * stored forms wrap them in a few more levels.
 */
const MAX_STORED_DEPTH = 64;

const DEFAULT_ADVICE = "restore it from a backup, or move it away to start with an empty sandbox";

/** A store the sandbox refuses: the message names it, the problem and what to do. */
export class StateFileError extends Error {
  constructor(location: string, problem: string, advice: string = DEFAULT_ADVICE) {
    super(
      `Cannot use the sandbox state in ${location}: ${problem}. The sandbox did not start and left it as it is: ${advice}.`,
    );
    this.name = "StateFileError";
  }
}

/** Back to the seed: seeded organizations, no slices, no events (the id sequence goes on). */
export function resetState(ctx: SandboxContext): void {
  ctx.state.reset();
  resetShared(ctx.state);
}

/** The whole state as one change (reset, control writes, a first store). */
function wholeState(ctx: SandboxContext): StateChange {
  return {
    orgs: [...ctx.state.orgs.values()].map((org) => ctx.state.snapshotOrg(org, STATEFUL_SLICES)),
    all: true,
    shared: sharedState(ctx),
  };
}

/** The id sequence as last stored, per sandbox. */
const storedIds = new WeakMap<SandboxContext, number>();

/** Hands one acknowledged write to the storage: `org` is the organization it changed, null for a sandbox-wide change. */
export async function storeWrite(ctx: SandboxContext, storage: StateStorage, org: OrgState | null): Promise<void> {
  const change: StateChange = org
    ? { orgs: [ctx.state.snapshotOrg(org, STATEFUL_SLICES)], all: false, shared: sharedState(ctx) }
    : wholeState(ctx);
  await storage.write(change);
  storedIds.set(ctx, change.shared[ID_SEQUENCE] as number);
}

/** True when ids were handed out since the state was last stored (or loaded). */
export function holdsUnstoredIds(ctx: SandboxContext): boolean {
  return issuedIds(ctx.state) !== storedIds.get(ctx);
}

/**
 * Makes a write durable before the core acknowledges it (`org`: the organization it changed, null for a
 * sandbox-wide change). A read (`write` false) is stored only when it handed out ids (it created state, such
 * as a default List): an id must never be handed out twice.
 */
export async function persistWrite(ctx: SandboxContext, org: OrgState | null, write: boolean): Promise<void> {
  if (ctx.storage && (write || holdsUnstoredIds(ctx))) await storeWrite(ctx, ctx.storage, org);
}

/**
 * Loads the stored state, if any, after checking all of it, then lets the storage take the store for writes
 * (the Node host locks its file only then). Throws StateFileError, and the storage has written nothing, when
 * any of it is damaged or in a form this sandbox does not write.
 */
export function loadState(ctx: SandboxContext, storage: StateStorage): void {
  const stored = storage.load();
  if (stored) applyStored(ctx, checkStored(ctx, stored, storage.location), storage.location);
  for (const warning of storage.open?.() ?? []) ctx.logWarning(warning);
  storedIds.set(ctx, issuedIds(ctx.state));
}

/**
 * After a write that was not acknowledged: the memory back to what the storage holds. The id sequence stays
 * ahead when nothing stored holds it (ids are never handed out twice), and counts as stored: every id handed
 * out since went with the change that was dropped, so reads go on without a write (storage that refuses
 * writes still answers reads).
 */
export function reloadState(ctx: SandboxContext, storage: StateStorage): void {
  const stored = storage.load();
  resetState(ctx);
  if (stored) applyStored(ctx, checkStored(ctx, stored, storage.location), storage.location);
  storedIds.set(ctx, issuedIds(ctx.state));
}

/** The sandbox-wide items, always with the id and draw sequences (even before the first id was handed out). */
function sharedState(ctx: SandboxContext): Record<string, unknown> {
  issuedIds(ctx.state);
  drawnIds(ctx.state);
  return saveShared(ctx.state);
}

function applyStored(ctx: SandboxContext, stored: StoredState, location: string): void {
  try {
    ctx.state.reset();
    for (const org of stored.orgs) ctx.state.restoreOrg(org, STATEFUL_SLICES);
    loadShared(ctx.state, stored.shared);
    if (!Object.hasOwn(stored.shared, DRAW_SEQUENCE)) drawsFollowIds(ctx.state);
  } catch {
    resetState(ctx);
    throw new StateFileError(location, "it holds state in a form this sandbox does not write");
  }
}

/** True when arrays and objects in `value` nest deeper than `limit` (no recursion: a hostile value cannot overflow the stack). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: "string" } as const;
const nullableStr = { type: ["string", "null"] } as const;
const int = { type: "integer", minimum: 0 } as const;
/** A stored timestamp: the API answers it as an RFC 3339 date-time. */
const time = { type: "string", format: "date-time" } as const;
const obj = { type: "object" } as const;
const pairOf = (value: object) => ({
  type: "array",
  prefixItems: [str, value],
  items: false,
  minItems: 2,
  maxItems: 2,
});

/** The stored form of each slice of an organization: what the handlers rely on, nothing more. */
const SLICE_SCHEMAS = new Map<string, object>(
  Object.entries({
    queries: { type: "array", items: ref("SavedQuery") },
    lists: {
      type: "array",
      items: {
        type: "object",
        required: [
          "id",
          "name",
          "description",
          "default_key",
          "source_watch_id",
          "created_at",
          "updated_at",
          "members",
        ],
        properties: {
          id: str,
          name: str,
          description: nullableStr,
          default_key: { enum: ["origin", "target", null] },
          source_watch_id: nullableStr,
          created_at: time,
          updated_at: time,
          members: {
            type: "array",
            items: pairOf({
              type: "object",
              required: ["id", "network_url", "stage", "notes", "created_at", "updated_at"],
              properties: {
                id: str,
                network_url: str,
                stage: nullableStr,
                notes: nullableStr,
                created_at: time,
                updated_at: time,
              },
            }),
          },
        },
      },
    },
    targets: {
      type: "object",
      required: ["seq", "targets"],
      properties: {
        seq: int,
        targets: {
          type: "array",
          items: {
            type: "object",
            required: ["id", "seq", "kind", "name", "input", "created_at", "query", "members", "jobs"],
            properties: {
              id: str,
              seq: int,
              kind: ref("TargetKind"),
              name: str,
              input: str,
              company_key: nullableStr,
              network_url: nullableStr,
              result_limit: { type: ["integer", "null"] },
              created_at: time,
              query: obj,
              salt: str,
              members: {
                type: "array",
                items: {
                  type: "object",
                  required: ["id", "key", "network_url", "status", "first_seen_at", "in_graph", "enrichment"],
                  properties: {
                    id: str,
                    key: str,
                    network_url: str,
                    status: ref("MemberStatus"),
                    first_seen_at: time,
                    in_graph: { type: "boolean" },
                    enrichment: { type: "object", required: ["profile"], properties: { profile: obj } },
                  },
                },
              },
              jobs: {
                type: "array",
                items: {
                  type: "object",
                  allOf: [ref("TargetJob")],
                  required: ["id", "type", "outcome"],
                  properties: {
                    id: str,
                    type: { enum: ["track_company", "track_people", "refresh_watch"] },
                    outcome: { enum: ["done", "partial", "failed"] },
                    due: { type: ["number", "null"] },
                    found: int,
                  },
                },
              },
            },
          },
        },
      },
    },
    preferences: {
      type: "object",
      required: ["saved", "webhook_url", "webhook_secret"],
      properties: {
        saved: {
          type: ["object", "null"],
          required: ["fields", "email_enabled", "emails", "slack_enabled", "slack_channel_id", "slack_channel_name"],
          properties: {
            fields: { type: "array", items: ref("EventField") },
            email_enabled: { type: "boolean" },
            emails: { type: "array", items: str },
            slack_enabled: { type: "boolean" },
            slack_channel_id: nullableStr,
            slack_channel_name: nullableStr,
          },
        },
        webhook_url: nullableStr,
        webhook_secret: nullableStr,
      },
    },
  }),
);

/**
 * The highest id sequence accepted from a store: far beyond any real use, and far enough below
 * Number.MAX_SAFE_INTEGER that every id handed out after it is still exact.
 */
export const MAX_ID_SEQUENCE = 2 ** 52;

/** The stored form of each sandbox-wide item. */
const SHARED_SCHEMAS = new Map<string, object>(
  Object.entries({
    events: {
      type: "object",
      required: ["events", "live", "emitted", "ticks"],
      properties: {
        events: {
          type: "array",
          items: { allOf: [ref("Event"), { type: "object", required: ["key"], properties: { key: str } }] },
        },
        live: { type: "array", items: pairOf(obj) },
        emitted: int,
        ticks: int,
      },
    },
    [ID_SEQUENCE]: { type: "integer", minimum: 0, maximum: MAX_ID_SEQUENCE },
    [DRAW_SEQUENCE]: { type: "integer", minimum: 0, maximum: MAX_ID_SEQUENCE },
  }),
);

/** An organization's info: exactly the fields this sandbox writes. */
const INFO_SCHEMA = {
  type: "object",
  required: ["id", "name", "plan", "accessAllowed", "watchSlotsMax"],
  properties: {
    id: { type: "string", pattern: "^[0-9a-f-]{36}$" },
    name: str,
    plan: { enum: PLANS },
    accessAllowed: { type: "boolean" },
    watchSlotsMax: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    ephemeral: { type: "boolean" },
  },
  additionalProperties: false,
};

/** Checks every part of a stored state; throws StateFileError naming the first problem. */
function checkStored(ctx: SandboxContext, stored: unknown, location: string): StoredState {
  const fail = (problem: string) => new StateFileError(location, problem);
  if (!isObject(stored) || !Array.isArray(stored.orgs) || !isObject(stored.shared))
    throw fail('it has no list of organizations ("orgs") and sandbox-wide state ("shared")');
  if (nestedDeeperThan(stored, MAX_STORED_DEPTH + 2))
    throw fail(`it holds a value nested deeper than ${MAX_STORED_DEPTH} levels, which this sandbox never stores`);
  const checker = createSpecChecker(ctx.spec.doc);
  const checks = new Map<object, SchemaCheck>();
  /** One stored value against its schema; `kinds` are the names this sandbox writes there (own keys only). */
  const check = (kinds: Map<string, object> | null, name: string, value: unknown, where: string) => {
    const schema = kinds ? kinds.get(name) : INFO_SCHEMA;
    if (!schema) throw fail(`${where} holds ${JSON.stringify(name)}, which this sandbox does not write`);
    let checkValue = checks.get(schema);
    if (!checkValue) checks.set(schema, (checkValue = checker.compile(schema)));
    const error = checkValue(value);
    if (error) {
      const at = error.instancePath || "/";
      const extra = error.params.additionalProperty;
      throw fail(
        `${where} holds ${JSON.stringify(name)} in a form this sandbox does not write (${at} ${error.message}${
          extra === undefined ? "" : `: ${JSON.stringify(extra)}`
        })`,
      );
    }
  };
  if (!Object.hasOwn(stored.shared, ID_SEQUENCE))
    throw fail(`it has no id sequence ("${ID_SEQUENCE}"): without it, new resources would take existing ids`);
  for (const [name, value] of Object.entries(stored.shared))
    check(SHARED_SCHEMAS, name, value, "the sandbox-wide state");
  const seen = new Set<string>();
  for (const [i, org] of stored.orgs.entries()) {
    const where = `organization ${i + 1}`;
    if (!isObject(org) || !isObject(org.slices)) throw fail(`${where} has no "info" and "slices"`);
    check(null, "info", org.info, where);
    const id = (org.info as { id: string }).id;
    if (seen.has(id)) throw fail(`organization ${id} is stored twice`);
    seen.add(id);
    for (const [name, value] of Object.entries(org.slices)) check(SLICE_SCHEMAS, name, value, `organization ${id}`);
  }
  return stored as unknown as StoredState;
}

/** The whole state as it is (organizations, sandbox-wide items) and the clock: a starting point of its own. */
export interface SandboxSnapshot {
  /** Format of the value (this sandbox writes 1). */
  snapshot: 1;
  /** The sandbox clock when it was taken (ISO 8601); a sandbox started from it sets its clock there. */
  now: string;
  orgs: StoredState["orgs"];
  shared: StoredState["shared"];
}

/** The whole state now as a plain value of its own (later writes do not change it; JSON keeps all of it). */
export function snapshotOfState(ctx: SandboxContext): SandboxSnapshot {
  const { orgs, shared } = wholeState(ctx);
  const copy = JSON.parse(JSON.stringify({ orgs, shared })) as Pick<SandboxSnapshot, "orgs" | "shared">;
  return { snapshot: 1, now: new Date(ctx.options.now()).toISOString(), ...copy };
}

/** Replaces the whole state with a stored form after checking all of it (StateFileError naming `location`). */
export function restoreState(ctx: SandboxContext, stored: StoredState, location: string): void {
  applyStored(ctx, checkStored(ctx, stored, location), location);
}
