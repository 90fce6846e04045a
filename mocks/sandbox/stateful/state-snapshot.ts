/**
 * The stored form of the sandbox's state, read and written through the host's StateStorage (the Node host:
 * node-state-storage.ts): a snapshot of the organizations' slices and the sandbox-wide items (events, the id
 * sequence), plus journal records, one per acknowledged write, each holding the written organization's
 * slices and the sandbox-wide items. Loading checks every field and refuses a damaged store with a message
 * naming the file, the record and what to do; it never rewrites what it refused. The store holds stored
 * webhook URLs and secrets like the service's store does (never returned by the API or logged), so keep it
 * out of source control.
 */
import type { SandboxContext, StateStorage } from "../context.js";
import {
  loadShared,
  resetShared,
  saveShared,
  type OrgState,
  type SavedOrg,
  type Slice,
  type StateSnapshot,
} from "../state.js";
import { issuedIds } from "./area-helpers.js";
import { listsSlice } from "./lists.js";
import { preferencesSlice } from "./preferences.js";
import { queriesSlice } from "./queries.js";
import { targetsSlice } from "./targets-store.js";

export const STATE_FILE_VERSION = 1;

/** Every slice of the stateful side (the snapshot and the journal save and load them). */
export const STATEFUL_SLICES: readonly Slice<unknown>[] = [
  queriesSlice,
  listsSlice,
  targetsSlice,
  preferencesSlice,
] as readonly Slice<unknown>[];

/** The sandbox-wide item without which ids would be handed out again: the snapshot must carry it. */
const ID_SEQUENCE = "ids";

interface StateFile {
  version: number;
  saved_at: string;
  state: StateSnapshot;
  shared: Record<string, unknown>;
}

/** One journal record: the organization a write changed (absent for control writes, which save `state`) and the shared items. */
interface JournalRecord {
  org?: SavedOrg;
  state?: StateSnapshot;
  shared: Record<string, unknown>;
}

/** A store the sandbox refuses to load: the message names the file, the record and what to do. */
export class StateFileError extends Error {
  constructor(location: string, where: string, problem: string) {
    super(
      `Cannot load the sandbox state from ${location}: ${where} ${problem}. The sandbox did not start and left the file as it is: ` +
        `restore it from a backup, or move it (and ${location}.journal) away to start with an empty sandbox.`,
    );
    this.name = "StateFileError";
  }
}

export function snapshotState(ctx: SandboxContext): StateFile {
  return {
    version: STATE_FILE_VERSION,
    saved_at: new Date(ctx.options.now()).toISOString(),
    state: ctx.state.snapshot(STATEFUL_SLICES),
    shared: sharedState(ctx),
  };
}

/** Back to the seed: seeded organizations, no slices, no events (the id sequence goes on). */
export function resetState(ctx: SandboxContext): void {
  ctx.state.reset();
  resetShared(ctx.state);
}

/**
 * Loads the snapshot and replays the journal, then compacts both into a new snapshot; false when nothing is
 * stored yet. Throws StateFileError (and writes nothing) when anything but a torn last record is damaged.
 */
export function loadState(ctx: SandboxContext, storage: StateStorage): boolean {
  const stored = storage.read();
  for (const warning of stored.warnings) ctx.logWarning(warning);
  if (stored.snapshot === null && stored.journal.length === 0) {
    // A first snapshot now, so the files exist (private) from the start.
    saveState(ctx, storage);
    return false;
  }
  const fail = (where: string, problem: string) => new StateFileError(storage.location, where, problem);
  if (stored.snapshot !== null) {
    const file = parseJson(stored.snapshot, () => fail("the snapshot", "is not JSON"));
    const snapshot = checkSnapshotFile(file, (problem) => fail("the snapshot", problem));
    replay(ctx, { state: snapshot.state, shared: snapshot.shared }, (problem) => fail("the snapshot", problem));
  }
  for (const entry of stored.journal) {
    const record = parseJson(entry.text, () =>
      fail(`the journal record at ${entry.where}`, "is not JSON (only the last record may be torn by a crash)"),
    );
    replay(
      ctx,
      checkRecord(record, (problem) => fail(`the journal record at ${entry.where}`, problem)),
      (problem) => fail(`the journal record at ${entry.where}`, problem),
    );
  }
  saveState(ctx, storage);
  return true;
}

/** Compacts: the whole state as the new snapshot, an empty journal. */
export function saveState(ctx: SandboxContext, storage: StateStorage): void {
  storage.compact(JSON.stringify(snapshotState(ctx)));
}

/** Journals a write before it is acknowledged: `org` is the organization it changed, null for a sandbox-wide change. */
export function journalWrite(ctx: SandboxContext, storage: StateStorage, org: OrgState | null): Promise<void> {
  const record: JournalRecord = org
    ? { org: ctx.state.snapshotOrg(org, STATEFUL_SLICES), shared: sharedState(ctx) }
    : { state: ctx.state.snapshot(STATEFUL_SLICES), shared: sharedState(ctx) };
  return storage.append(JSON.stringify(record));
}

/** The sandbox-wide items, always with the id sequence (even before the first id was handed out). */
function sharedState(ctx: SandboxContext): Record<string, unknown> {
  issuedIds(ctx.state);
  return saveShared(ctx.state);
}

function parseJson(text: string, error: () => Error): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw error();
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function checkSnapshotFile(file: unknown, fail: (problem: string) => Error): StateFile {
  if (!isObject(file)) throw fail("is not a JSON object");
  if (file.version !== STATE_FILE_VERSION) {
    throw fail(
      typeof file.version === "number"
        ? `is in format version ${file.version}, and this sandbox reads format version ${STATE_FILE_VERSION} only`
        : `has no format version (field "version": ${STATE_FILE_VERSION} expected)`,
    );
  }
  checkStateSnapshot(file.state, 'field "state"', fail);
  checkShared(file.shared, fail);
  return file as unknown as StateFile;
}

function checkShared(shared: unknown, fail: (problem: string) => Error): void {
  if (!isObject(shared)) throw fail('has no field "shared" (the sandbox-wide state)');
  const ids = shared[ID_SEQUENCE];
  if (typeof ids !== "number" || !Number.isSafeInteger(ids) || ids < 0) {
    throw fail(
      `has no id sequence (field "shared.${ID_SEQUENCE}", a non-negative integer): without it, new resources would take existing ids`,
    );
  }
}

function checkStateSnapshot(state: unknown, name: string, fail: (problem: string) => Error): void {
  if (!isObject(state) || !Array.isArray(state.orgs))
    throw fail(`has no ${name} with a list of organizations ("orgs")`);
  state.orgs.forEach((org, i) => checkSavedOrg(org, `organization ${i + 1} of ${name}`, fail));
}

const PLANS: readonly string[] = ["free", "index", "unlimited"];

function checkSavedOrg(org: unknown, name: string, fail: (problem: string) => Error): void {
  if (!isObject(org) || !isObject(org.info) || !isObject(org.slices))
    throw fail(`has ${name} without its "info" and "slices"`);
  const info = org.info;
  const problems = [
    typeof info.id === "string" && info.id !== "" ? null : "id",
    typeof info.name === "string" ? null : "name",
    typeof info.plan === "string" && PLANS.includes(info.plan) ? null : "plan",
    typeof info.accessAllowed === "boolean" ? null : "accessAllowed",
    typeof info.watchSlotsMax === "number" ? null : "watchSlotsMax",
  ].filter((p) => p !== null);
  if (problems.length > 0) throw fail(`has ${name} with a missing or invalid ${problems.join(", ")}`);
}

function checkRecord(record: unknown, fail: (problem: string) => Error): JournalRecord {
  if (!isObject(record)) throw fail("is not a JSON object");
  if (record.org === undefined && record.state === undefined) throw fail('has neither "org" nor "state"');
  if (record.org !== undefined) checkSavedOrg(record.org, "its organization", fail);
  if (record.state !== undefined) checkStateSnapshot(record.state, 'field "state"', fail);
  checkShared(record.shared, fail);
  return record as unknown as JournalRecord;
}

function replay(ctx: SandboxContext, record: JournalRecord, fail: (problem: string) => Error): void {
  try {
    if (record.state) ctx.state.restore(record.state, STATEFUL_SLICES);
    if (record.org) ctx.state.restoreOrg(record.org, STATEFUL_SLICES);
    loadShared(ctx.state, record.shared);
  } catch {
    throw fail("holds state in a form this sandbox does not write");
  }
}
