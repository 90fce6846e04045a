/**
 * Sandbox-wide state of the stateful side (not owned by one organization): the id sequence and the stored
 * profile diffs (events are about people, and each organization sees the ones its memberships make visible).
 * Kept beside the SandboxState in a WeakMap; `resetShared` and the state file handle it like the slices.
 */
import { sha256Hex } from "../data/sha256.js";
import type { SandboxState } from "../state.js";

export interface SharedItem<T> {
  name: string;
  create(state: SandboxState): T;
  save(value: T): unknown;
  load(data: unknown, state: SandboxState): T;
  /** Survives POST /__sandbox/reset (the id sequence: ids are never reused within a process). */
  keepOnReset?: boolean;
}

const items: SharedItem<unknown>[] = [];
const values = new WeakMap<SandboxState, Map<string, unknown>>();

export function defineShared<T>(item: SharedItem<T>): SharedItem<T> {
  items.push(item as SharedItem<unknown>);
  return item;
}

function bag(state: SandboxState): Map<string, unknown> {
  let map = values.get(state);
  if (!map) values.set(state, (map = new Map()));
  return map;
}

export function shared<T>(state: SandboxState, item: SharedItem<T>): T {
  const map = bag(state);
  if (!map.has(item.name)) map.set(item.name, item.create(state));
  return map.get(item.name) as T;
}

export function resetShared(state: SandboxState): void {
  const map = bag(state);
  for (const item of items) if (!item.keepOnReset) map.delete(item.name);
}

export function saveShared(state: SandboxState): Record<string, unknown> {
  const map = bag(state);
  return Object.fromEntries(items.filter((i) => map.has(i.name)).map((i) => [i.name, i.save(map.get(i.name))]));
}

export function loadShared(state: SandboxState, data: Record<string, unknown>): void {
  const map = bag(state);
  for (const item of items) {
    if (data[item.name] !== undefined) map.set(item.name, item.load(data[item.name], state));
    else if (!item.keepOnReset) map.delete(item.name);
  }
}

// ---- ids ----

/** A UUID (version 4 layout) derived from text: deterministic, so a scripted session gives the same ids. */
export function uuidFrom(text: string): string {
  const h = sha256Hex(text);
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A number in [0, 1) derived from text (deterministic "randomness": job outcomes, synthetic profiles). */
export function unitFrom(text: string): number {
  return parseInt(sha256Hex(text).slice(0, 8), 16) / 0x1_0000_0000;
}

const idSequence = defineShared<{ seq: number }>({
  name: "ids",
  create: () => ({ seq: 0 }),
  save: (v) => v.seq,
  load: (data) => ({ seq: typeof data === "number" ? data : 0 }),
  keepOnReset: true,
});

/** The next id of a kind (target, job, member, list, membership, query, event). */
export function newId(state: SandboxState, kind: string): string {
  const ids = shared(state, idSequence);
  ids.seq++;
  return uuidFrom(`talent-graph-sandbox:${kind}:${ids.seq}`);
}
