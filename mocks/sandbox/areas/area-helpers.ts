/**
 * Helpers of the stateful areas: ids (unique per instance, or sequential on request) and deterministic
 * "randomness" (derived from SHA-256, so a scripted session gives the same outcomes), the sandbox clock as ISO
 * text and input rules the spec cannot express.
 */
import type { SandboxContext } from "../contract/context.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { sha256Hex } from "../data/sha256.js";
import { defineShared, shared, type SandboxState } from "../contract/state.js";

export const iso = (ms: number): string => new Date(ms).toISOString();

export function nowIso(ctx: SandboxContext): string {
  return iso(ctx.options.now());
}

/** Trimmed string, or null when absent or blank. */
export function trimmed(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const t = value.trim();
  return t === "" ? null : t;
}

/**
 * A required name, trimmed (saved queries, Lists). Its length after trimming is the spec's: the request schema's
 * pattern bounds it and the validator checks it before any handler runs, so only a blank name is refused here.
 */
export function requiredName(req: Answering<OperationsWith<"400", "invalid_request">>, value: unknown): string {
  const name = trimmed(value);
  if (name === null) throw operationError(req.operationId, "400", "invalid_request", "name must not be blank");
  return name;
}

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

/**
 * The position since the last reset (POST /__sandbox/reset, `reset()`): counts with the id sequence but starts
 * again at 0 on reset, so what follows it (job outcomes, the profiles a discovery invents) is the same after a
 * reset as in a fresh sandbox, while the ids themselves go on.
 */
const drawSequence = defineShared<{ seq: number }>({
  name: "draws",
  create: () => ({ seq: 0 }),
  save: (v) => v.seq,
  load: (data) => ({ seq: data as number }),
});

/** How many ids were handed out since the last reset (the draw sequence). */
export function drawnIds(state: SandboxState): number {
  return shared(state, drawSequence).seq;
}

/** A stored state written before the draw sequence: its draws went with the id sequence, so they go on from it. */
export function drawsFollowIds(state: SandboxState): void {
  shared(state, drawSequence).seq = issuedIds(state);
}

/**
 * How created ids are made: "random" (the default) mixes a random per-instance segment into every id, so an
 * id from an earlier sandbox (another instance, a page load without persistence) names nothing here and is
 * a 404; "sequential" gives the same ids for the same steps (snapshot tests).
 */
export type IdMode = "random" | "sequential";

/** The per-instance segment of each state ("" in sequential mode); a state without one gets a random one. */
const namespaces = new WeakMap<SandboxState, string>();

function randomSegment(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Chooses how this state's created ids are made (the core calls it once, before any id is issued). */
export function useIdMode(state: SandboxState, mode: IdMode): void {
  if (mode !== "random" && mode !== "sequential")
    throw new TypeError(`ids must be "random" or "sequential", got ${JSON.stringify(mode)}`);
  namespaces.set(state, mode === "sequential" ? "" : randomSegment());
}

/** How many ids the sandbox has handed out (the id sequence). */
export function issuedIds(state: SandboxState): number {
  return shared(state, idSequence).seq;
}

/**
 * A new id and its key: the key follows the position since the last reset (the draw sequence), never the
 * instance's random segment, and seeds the "randomness" of what the id names (job outcomes, invented
 * profiles), so the same steps after a reset draw what a fresh sandbox draws. Before any reset the key is
 * the id sequential mode gives.
 */
export function issueId(state: SandboxState, kind: string): { id: string; key: string } {
  const ids = shared(state, idSequence);
  const draws = shared(state, drawSequence);
  ids.seq++;
  draws.seq++;
  let ns = namespaces.get(state);
  if (ns === undefined) namespaces.set(state, (ns = randomSegment()));
  const key = uuidFrom(`talent-graph-sandbox:${kind}:${draws.seq}`);
  return { id: uuidFrom(`talent-graph-sandbox:${ns === "" ? "" : `${ns}:`}${kind}:${ids.seq}`), key };
}

/** The next id of a kind (target, job, member, list, membership, query, event). */
export function newId(state: SandboxState, kind: string): string {
  return issueId(state, kind).id;
}
