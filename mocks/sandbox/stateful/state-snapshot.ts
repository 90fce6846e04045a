/**
 * The state file: the organizations' slices and the sandbox-wide state (events, id sequence) saved as
 * JSON (through the host's StateStorage) on close and loaded on start, so a team can keep a sandbox across restarts. The file is the
 * sandbox's database: it holds stored webhook URLs and secrets like the service's store does (they are never
 * returned by the API or logged), so keep it out of source control.
 */
import type { SandboxContext, StateStorage } from "../context.js";
import { loadShared, resetShared, saveShared, type Slice, type StateSnapshot } from "../state.js";
import { listsSlice } from "./lists.js";
import { preferencesSlice } from "./preferences.js";
import { queriesSlice } from "./queries.js";
import { targetsSlice } from "./targets-store.js";

export const STATE_FILE_VERSION = 1;

/** Every slice of the stateful side (the state file saves and loads them). */
export const STATEFUL_SLICES: readonly Slice<unknown>[] = [queriesSlice, listsSlice, targetsSlice, preferencesSlice] as readonly Slice<unknown>[];

interface StateFile {
  version: number;
  saved_at: string;
  state: StateSnapshot;
  shared: Record<string, unknown>;
}

export function snapshotState(ctx: SandboxContext): StateFile {
  return { version: STATE_FILE_VERSION, saved_at: new Date(ctx.options.now()).toISOString(), state: ctx.state.snapshot(STATEFUL_SLICES), shared: saveShared(ctx.state) };
}

export function restoreState(ctx: SandboxContext, file: StateFile): void {
  if (file.version !== STATE_FILE_VERSION || typeof file.state !== "object" || file.state === null) {
    throw new Error(`unsupported state file version ${String(file.version)} (expected ${STATE_FILE_VERSION})`);
  }
  ctx.state.restore(file.state, STATEFUL_SLICES);
  loadShared(ctx.state, file.shared ?? {});
}

/** Back to the seed: seeded organizations, no slices, no events (the id sequence goes on). */
export function resetState(ctx: SandboxContext): void {
  ctx.state.reset();
  resetShared(ctx.state);
}

/** Loads the stored state when there is one; false when nothing is stored yet. Throws on unreadable text. */
export function loadState(ctx: SandboxContext, storage: StateStorage): boolean {
  const text = storage.read();
  if (text === null) return false;
  let file: StateFile;
  try {
    file = JSON.parse(text) as StateFile;
  } catch (e) {
    throw new Error(`Cannot read the state file ${storage.location}: ${(e as Error).message}`);
  }
  restoreState(ctx, file);
  return true;
}

export function saveState(ctx: SandboxContext, storage: StateStorage): void {
  storage.write(JSON.stringify(snapshotState(ctx)));
}
