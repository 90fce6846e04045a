/** GET /me: access, webhook status and quota (watch slots from the stateful side's watching members). */
import type { Area, SandboxContext } from "../contract/context.js";
import { normalizeProfileUrl } from "../data/urls.js";
import type { OrgState } from "../contract/state.js";

/** Distinct watching URLs across the organization's Targets that are not already people in the graph. */
function watchSlotsUsed(ctx: SandboxContext, org: OrgState): number {
  const urls = new Set<string>();
  for (const raw of ctx.hooks.watchingUrls(org)) {
    const url = normalizeProfileUrl(raw) ?? raw.trim().toLowerCase();
    if (!ctx.graph.byUrl.has(url)) urls.add(url);
  }
  return urls.size;
}

export function account(ctx: SandboxContext, org: OrgState) {
  const { plan, watchSlotsMax, accessAllowed } = org.info;
  const unlimited = plan === "unlimited";
  const used = watchSlotsUsed(ctx, org);
  return {
    access: { allowed: accessAllowed },
    webhook: { configured: ctx.hooks.webhookConfigured(org) },
    quota: {
      watch_slots: {
        used,
        included: unlimited ? 1000 : 0,
        max: watchSlotsMax,
        remaining: Math.max(0, watchSlotsMax - used),
      },
      daily_uniques: { limit: unlimited ? null : 100, remaining: null, enforced: false },
    },
  };
}

export const accountArea = {
  name: "account",
  handlers: {
    getAccount: (req, ctx) => ({ body: { data: account(ctx, req.org) } }),
  },
} satisfies Area;
