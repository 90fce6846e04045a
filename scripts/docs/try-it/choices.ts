/**
 * The values that exist in the in-page sandbox for one organization, for the panel's pickers: its Lists (by id,
 * and the default "Saved people" List, which every organization has by name before it is first listed), their
 * memberships, its Targets (those whose job has finished first: a retry needs one), their members, and its saved
 * queries. Read from the sandbox's state without a request: no rate limit is spent, no fault is taken, nothing is
 * created. Browser-safe (bundled for the page).
 */
import type { SandboxContext } from "../../../mocks/sandbox/contract/context.js";
import type { OrgState } from "../../../mocks/sandbox/contract/state.js";
import { listsSlice } from "../../../mocks/sandbox/areas/lists.js";
import { queriesSlice } from "../../../mocks/sandbox/areas/queries.js";
import { hasActiveJob, targetsOf, targetsSlice } from "../../../mocks/sandbox/areas/targets-store.js";

export interface Choice {
  value: string;
  label: string;
}

export interface ListChoice extends Choice {
  memberships: Choice[];
  /** The API refuses to delete a default List. */
  isDefault: boolean;
  /** A Target's default List (its members come from the Target: none can be added). */
  targetList: boolean;
}

export interface TargetChoice extends Choice {
  members: Choice[];
  finished: boolean;
}

export interface SandboxChoices {
  lists: ListChoice[];
  targets: TargetChoice[];
  queries: Choice[];
}

/** The name GET /lists gives the default List every organization has (lists.ts). */
export const SAVED_PEOPLE = "Saved people";

export function choicesOf(ctx: SandboxContext, orgId: string | undefined): SandboxChoices {
  const org: OrgState | undefined = orgId ? ctx.state.org(orgId) : undefined;
  const none: SandboxChoices = { lists: [], targets: [], queries: [] };
  if (!org) return none;
  const lists: ListChoice[] = (org.has(listsSlice) ? org.get(listsSlice) : []).map((l) => ({
    value: l.id,
    label: `${l.name} (${l.members.size} members)`,
    memberships: [...l.members.values()].map((m) => ({ value: m.id, label: m.network_url })),
    isDefault: l.default_key !== null,
    targetList: l.default_key === "target",
  }));
  if (!lists.some((l) => l.isDefault && l.label.startsWith(`${SAVED_PEOPLE} `)))
    lists.unshift({
      value: SAVED_PEOPLE,
      label: `${SAVED_PEOPLE} (by name)`,
      memberships: [],
      isDefault: true,
      targetList: false,
    });
  const targets: TargetChoice[] = (org.has(targetsSlice) ? targetsOf(org) : []).map((t) => {
    const job = t.jobs.at(-1);
    return {
      value: t.id,
      label: `${t.name} (${job ? `job ${job.phase ?? job.status}` : "no job"}, ${t.members.size} members)`,
      members: [...t.members.values()].map((m) => ({ value: m.network_url, label: `${m.network_url} (${m.status})` })),
      finished: !hasActiveJob(t),
    };
  });
  const queries = (org.has(queriesSlice) ? org.get(queriesSlice) : []).map((q) => ({ value: q.id, label: q.name }));
  return { lists, targets, queries };
}
