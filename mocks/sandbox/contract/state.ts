/**
 * Per-organization state. The graph is shared and read-only; everything an organization owns (saved
 * queries, Lists, Targets, members, events, preferences) lives in *slices* hung on its OrgState.
 *
 * A slice is declared once, in the module that owns it:
 *
 *   export const listsSlice = defineSlice({ name: "lists", create: () => new ListsStore(), save, load });
 *   const lists = req.org.get(listsSlice);          // created lazily per organization
 *
 * `SandboxState.reset()` drops every slice (back to the seed); `snapshotOrg()` / `restoreOrg()` give an
 * organization's slices that define save/load in their stored form (areas/stored-state.ts).
 */
import type { Graph } from "../data/graph.js";
import { invalidRequest } from "./errors.js";

export const PLANS = ["free", "index", "unlimited"] as const;
export type Plan = (typeof PLANS)[number];

export interface OrgInfo {
  /** Organization UUID (X-Service-Org-Id for platform keys). */
  id: string;
  name: string;
  plan: Plan;
  /** false when locked after its trial: 402 everywhere except GET /me. */
  accessAllowed: boolean;
  /** Configured monitoring allocation (quota.watch_slots.max); the reference's fallback is 1000. */
  watchSlotsMax: number;
  /** Created on demand for a platform key's X-Service-Org-Id. */
  ephemeral?: boolean;
}

export interface Slice<T> {
  name: string;
  create(org: OrgState, state: SandboxState): T;
  /** JSON-serializable form for the stored state. */
  save?(value: T): unknown;
  load?(data: unknown, org: OrgState, state: SandboxState): T;
}

export function defineSlice<T>(slice: Slice<T>): Slice<T> {
  return slice;
}

export class OrgState {
  private readonly slices = new Map<string, unknown>();
  declare readonly info: OrgInfo;
  declare readonly sandbox: SandboxState;

  constructor(info: OrgInfo, sandbox: SandboxState) {
    this.info = info;
    this.sandbox = sandbox;
  }

  get id(): string {
    return this.info.id;
  }

  /** The organization's instance of a slice, created on first use. */
  get<T>(slice: Slice<T>): T {
    if (!this.slices.has(slice.name)) this.slices.set(slice.name, slice.create(this, this.sandbox));
    return this.slices.get(slice.name) as T;
  }

  has(slice: Slice<unknown>): boolean {
    return this.slices.has(slice.name);
  }

  set<T>(slice: Slice<T>, value: T): void {
    this.slices.set(slice.name, value);
  }

  clear(): void {
    this.slices.clear();
  }

  /** True when no slice was ever created: evicting the organization loses nothing. */
  isEmpty(): boolean {
    return this.slices.size === 0;
  }
}

export interface SavedOrg {
  info: OrgInfo;
  slices: Record<string, unknown>;
}

export class SandboxState {
  readonly orgs = new Map<string, OrgState>();
  /** The sandbox-wide items by name (defineShared, below). */
  readonly shared = new Map<string, unknown>();
  declare readonly graph: Graph;
  declare private readonly seedOrgs: readonly OrgInfo[];
  /** How many organizations the platform key may create (orgForService). */
  declare private readonly maxPlatformOrgs: number;

  constructor(graph: Graph, seedOrgs: readonly OrgInfo[], maxPlatformOrgs = Number.POSITIVE_INFINITY) {
    this.graph = graph;
    this.seedOrgs = seedOrgs;
    this.maxPlatformOrgs = maxPlatformOrgs;
    this.reset();
  }

  /** Back to the seed: the seeded organizations with empty slices. */
  reset(): void {
    this.orgs.clear();
    for (const info of this.seedOrgs) this.orgs.set(info.id, new OrgState({ ...info }, this));
  }

  org(id: string): OrgState | undefined {
    return this.orgs.get(id.toLowerCase());
  }

  /**
   * The organization a platform key acts for; unknown UUIDs get a fresh, empty organization. At the cap
   * (maxPlatformOrgs) the oldest created organization that holds no state is evicted (nothing is lost);
   * when every one holds state the new one is refused with a 400.
   */
  orgForService(id: string): OrgState {
    const key = id.toLowerCase();
    let org = this.orgs.get(key);
    if (!org) {
      const created = [...this.orgs.values()].filter((o) => o.info.ephemeral);
      if (created.length >= this.maxPlatformOrgs) {
        const untouched = created.find((o) => o.isEmpty());
        if (!untouched) {
          throw invalidRequest(
            `The sandbox holds its maximum of ${this.maxPlatformOrgs} platform organizations, all with state (--max-platform-orgs; POST /__sandbox/reset clears them)`,
          );
        }
        this.orgs.delete(untouched.id);
      }
      org = new OrgState(
        {
          id: key,
          name: `Service organization ${key.slice(0, 8)}`,
          plan: "free",
          accessAllowed: true,
          watchSlotsMax: 1000,
          ephemeral: true,
        },
        this,
      );
      this.orgs.set(key, org);
    }
    return org;
  }

  /** One organization's saved form: its info and the slices that define save. */
  snapshotOrg(org: OrgState, slices: readonly Slice<unknown>[]): SavedOrg {
    return {
      info: org.info,
      slices: Object.fromEntries(slices.filter((s) => s.save && org.has(s)).map((s) => [s.name, s.save!(org.get(s))])),
    };
  }

  /** Replaces one organization (created when missing, outside the platform cap) with its saved form. */
  restoreOrg(saved: SavedOrg, slices: readonly Slice<unknown>[]): void {
    const id = saved.info.id.toLowerCase();
    let org = this.orgs.get(id);
    if (!org) this.orgs.set(id, (org = new OrgState({ ...saved.info, id }, this)));
    else Object.assign(org.info, saved.info, { id });
    org.clear();
    for (const slice of slices) {
      if (slice.load && saved.slices[slice.name] !== undefined)
        org.set(slice, slice.load(saved.slices[slice.name], org, this));
    }
  }
}

// Sandbox-wide items: state not owned by one organization (the id sequence, the stored profile diffs),
// kept beside the SandboxState; reset and the stored state handle them like the slices.

export interface SharedItem<T> {
  name: string;
  create(state: SandboxState): T;
  save(value: T): unknown;
  load(data: unknown, state: SandboxState): T;
  /** Survives POST /__sandbox/reset (the id sequence: ids are never reused within a process). */
  keepOnReset?: boolean;
}

const items: SharedItem<unknown>[] = [];

export function defineShared<T>(item: SharedItem<T>): SharedItem<T> {
  items.push(item as SharedItem<unknown>);
  return item;
}

export function shared<T>(state: SandboxState, item: SharedItem<T>): T {
  const map = state.shared;
  if (!map.has(item.name)) map.set(item.name, item.create(state));
  return map.get(item.name) as T;
}

export function resetShared(state: SandboxState): void {
  for (const item of items) if (!item.keepOnReset) state.shared.delete(item.name);
}

export function saveShared(state: SandboxState): Record<string, unknown> {
  const map = state.shared;
  return Object.fromEntries(items.filter((i) => map.has(i.name)).map((i) => [i.name, i.save(map.get(i.name))]));
}

export function loadShared(state: SandboxState, data: Record<string, unknown>): void {
  const map = state.shared;
  for (const item of items) {
    if (data[item.name] !== undefined) map.set(item.name, item.load(data[item.name], state));
    else if (!item.keepOnReset) map.delete(item.name);
  }
}
