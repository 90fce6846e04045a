/** The organization's Targets (with their members and jobs): the `targets` slice and its lookups. */
import type { SandboxContext } from "../contract/context.js";
import { defineSlice, type OrgState } from "../contract/state.js";
import type { JobRecord, MemberRecord, TargetRecord } from "./records.js";

export interface TargetsStore {
  /** Creation order (oldest first). */
  targets: TargetRecord[];
  seq: number;
}

type SavedTarget = Omit<TargetRecord, "members"> & { members: MemberRecord[] };

export const targetsSlice = defineSlice<TargetsStore>({
  name: "targets",
  create: () => ({ targets: [], seq: 0 }),
  save: (store) => ({
    seq: store.seq,
    targets: store.targets.map((t): SavedTarget => ({ ...t, members: [...t.members.values()] })),
  }),
  load: (data) => {
    const saved = data as { seq: number; targets: SavedTarget[] };
    return {
      seq: saved.seq,
      targets: saved.targets.map((t) => ({ ...t, members: new Map(t.members.map((m) => [m.key, m])) })),
    };
  },
});

export function targetsOf(org: OrgState): TargetRecord[] {
  return org.get(targetsSlice).targets;
}

/** Every Target of every organization, with its organization (no slice is created on the way). */
export function* everyTarget(ctx: SandboxContext): Generator<{ org: OrgState; target: TargetRecord }> {
  for (const org of ctx.state.orgs.values())
    if (org.has(targetsSlice)) for (const target of targetsOf(org)) yield { org, target };
}

export function findTarget(org: OrgState, id: string): TargetRecord | undefined {
  const key = id.toLowerCase();
  return targetsOf(org).find((t) => t.id === key);
}

export function latestJob(target: TargetRecord): JobRecord | undefined {
  return target.jobs[target.jobs.length - 1];
}

export function hasActiveJob(target: TargetRecord): boolean {
  const job = latestJob(target);
  return job !== undefined && (job.status === "pending" || job.status === "running");
}

export function watchingMembers(target: TargetRecord): MemberRecord[] {
  return [...target.members.values()].filter((m) => m.status === "watching");
}

/** Profile URLs (normalized, no scheme) of the organization's watching Target members, in Target order. */
export function watchingKeys(org: OrgState): string[] {
  return org.has(targetsSlice) ? targetsOf(org).flatMap((t) => watchingMembers(t).map((m) => m.key)) : [];
}
