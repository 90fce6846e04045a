/**
 * --state-file <path>: the organizations' slices and the sandbox-wide state (events, id sequence) saved as
 * JSON on shutdown and loaded on start, so a team can keep a sandbox across restarts. The file is the
 * sandbox's database: it holds stored webhook URLs and secrets like the service's store does (they are never
 * returned by the API or logged), so keep it out of source control.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { SandboxContext } from "../context.js";
import type { Slice, StateSnapshot } from "../state.js";
import { listsSlice } from "./lists.js";
import { preferencesSlice } from "./preferences.js";
import { queriesSlice } from "./queries.js";
import { loadShared, resetShared, saveShared } from "./shared.js";
import { targetsSlice } from "./store.js";

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

/** Loads the state file when it exists; false when there is none yet. Throws on an unreadable file. */
export function loadStateFile(ctx: SandboxContext, path: string): boolean {
  if (!existsSync(path)) return false;
  let file: StateFile;
  try {
    file = JSON.parse(readFileSync(path, "utf8")) as StateFile;
  } catch (e) {
    throw new Error(`Cannot read the state file ${path}: ${(e as Error).message}`);
  }
  restoreState(ctx, file);
  return true;
}

/** Writes the state file atomically (temporary file, then rename). */
export function saveStateFile(ctx: SandboxContext, path: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshotState(ctx)));
  renameSync(tmp, path);
}
