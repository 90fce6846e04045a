/**
 * Targets: POST /targets (company Targets unique per organization and resolved company; people Targets
 * always new), GET /targets (reconciles auto-admission, newest first), GET/PATCH/DELETE /targets/{id},
 * POST /targets/{id}/retry. Jobs: jobs.ts; members: members.ts.
 */
import { echoInput } from "../../../contract-core/portable.js";
import type { Area, SandboxContext } from "../contract/context.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import type { OrgState } from "../contract/state.js";
import { nowIso } from "./area-helpers.js";
import { findCompany } from "../domain/companies.js";
import { bareUrl } from "../data/urls.js";
import { faultOn } from "../data/proof-faults.js";
import { mapPeopleFilters } from "./discovery.js";
import { resultLimitCap, effectiveLimit, enqueueJob, trackJobType } from "./jobs.js";
import { syncDefaultLists } from "./lists.js";
import type { TargetJobView, TargetKind, TargetRecord, TargetView } from "./records.js";
import { issueId } from "./area-helpers.js";
import { findTarget, hasActiveJob, latestJob, targetsOf, targetsSlice } from "./targets-store.js";

const CERTIFICATION_UNSUPPORTED =
  "Targets do not support certification filters: remove app_query.certification and app_query.certifications";

function targetView(ctx: SandboxContext, t: TargetRecord): TargetView & { result_limit: number | null } {
  let watching = 0,
    proposed = 0,
    excluded = 0,
    enriched = 0,
    current = 0,
    alum = 0,
    offGraph = 0;
  for (const m of t.members.values()) {
    if (m.enriched_at !== null) enriched++;
    if (m.status === "proposed") proposed++;
    else if (m.status === "excluded") excluded++;
    else {
      watching++;
      if (m.is_current === true) current++;
      if (m.is_current === false) alum++;
      if (!ctx.graph.byUrl.has(m.key)) offGraph++;
    }
  }
  const job = latestJob(t);
  const jobView: TargetJobView = job
    ? {
        id: job.id,
        status: job.status,
        phase: job.phase,
        total: job.total,
        completed: job.completed,
        failed: job.failed,
        error: job.error,
      }
    : { id: null, status: "pending", phase: null, total: 0, completed: 0, failed: 0, error: null };
  return {
    id: t.id,
    kind: t.kind,
    name: t.name,
    network_url: t.network_url,
    auto_admit: t.auto_admit,
    watching_count: watching,
    proposed_count: proposed,
    excluded_count: excluded,
    enriched_count: enriched,
    member_count: t.members.size,
    current_count: current,
    alum_count: alum,
    allocation_used: offGraph,
    in_graph_count: Math.max(0, watching - offGraph),
    result_limit: t.result_limit,
    created_at: t.created_at,
    query: t.query,
    job: jobView,
  };
}

/** Proposed members of an auto_admit Target become watching (GET /targets, PATCH). */
function promoteProposed(t: TargetRecord): void {
  if (!t.auto_admit) return;
  for (const m of t.members.values()) if (m.status === "proposed") m.status = "watching";
}

/** The Target or 404 (the member routes answer the reference's message "watch not found"). */
export function requireTarget(
  req: Answering<OperationsWith<"404", "not_found">> & { org: OrgState },
  id: string,
  message = `Target ${echoInput(id)} not found`,
): TargetRecord {
  const t = findTarget(req.org, id);
  if (!t) throw operationError(req.operationId, "404", "not_found", message);
  return t;
}

function newTarget(
  ctx: SandboxContext,
  org: OrgState,
  kind: TargetKind,
  input: string,
  fields: Partial<TargetRecord>,
): TargetRecord {
  const store = org.get(targetsSlice);
  const { id, key } = issueId(ctx.state, "target");
  const t: TargetRecord = {
    id,
    salt: key,
    seq: ++store.seq,
    kind,
    name: input,
    input,
    company_key: null,
    network_url: null,
    titled: false,
    auto_admit: false,
    result_limit: null,
    created_at: nowIso(ctx),
    query: {},
    members: new Map(),
    jobs: [],
    ...fields,
  };
  store.targets.push(t);
  return t;
}

function created(ctx: SandboxContext, org: OrgState, t: TargetRecord) {
  enqueueJob(ctx, t, trackJobType(t));
  syncDefaultLists(ctx, org);
  return { status: 202 as const, body: { data: targetView(ctx, t) } };
}

export const targetsArea = {
  name: "targets",
  handlers: {
    createTarget(req, ctx) {
      const body = req.body;
      const input = typeof body.input === "string" ? body.input.trim() : "";
      if (!input) throw operationError(req.operationId, "400", "invalid_request", "input must not be blank");
      const app = body.app_query ?? {};
      if ("certification" in app || "certifications" in app) {
        throw operationError(req.operationId, "400", "certification_target_unsupported", CERTIFICATION_UNSUPPORTED);
      }
      const kind: TargetKind = body.kind === "people" ? "people" : "company";
      const auto_admit = body.auto_admit === true;
      const result_limit =
        typeof body.result_limit === "number" ? Math.min(body.result_limit, resultLimitCap(ctx.spec)) : null;

      if (kind === "company") {
        const company_key = findCompany(ctx.graph, input)?.key ?? `input:${bareUrl(input)}`;
        const existing = targetsOf(req.org).find((t) => t.kind === "company" && t.company_key === company_key);
        if (existing) {
          const job = latestJob(existing);
          if (job && job.status !== "failed") return { status: 200, body: { data: targetView(ctx, existing) } };
          return created(ctx, req.org, existing);
        }
        return created(
          ctx,
          req.org,
          newTarget(ctx, req.org, "company", input, { company_key, auto_admit, result_limit }),
        );
      }

      const t = newTarget(ctx, req.org, "people", input, { auto_admit, result_limit });
      t.query = {
        input,
        filters: mapPeopleFilters(input, app, body.query),
        app,
        result_limit: effectiveLimit(t, ctx.spec),
      };
      return created(ctx, req.org, t);
    },

    listTargets(req, ctx) {
      const targets = [...targetsOf(req.org)];
      for (const t of targets) promoteProposed(t);
      syncDefaultLists(ctx, req.org);
      targets.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.seq - a.seq);
      return { body: { data: targets.map((t) => targetView(ctx, t)), meta: { count: targets.length } } };
    },

    getTarget(req, ctx) {
      const found = requireTarget(req, req.params.id);
      const answered = faultOn("target-read-wrong-target")
        ? (targetsOf(req.org).find((t) => t.id !== found.id) ?? found)
        : found;
      return { body: { data: targetView(ctx, answered) } };
    },

    updateTarget(req, ctx) {
      const t = requireTarget(req, req.params.id);
      const body = req.body;
      if (typeof body.auto_admit === "boolean") t.auto_admit = body.auto_admit;
      if (typeof body.title === "string" && body.title.trim() !== "") {
        t.name = body.title.trim();
        t.titled = true;
      }
      // auto_admit true (given now or already set) promotes proposed members; false never demotes.
      promoteProposed(t);
      syncDefaultLists(ctx, req.org);
      return { body: { data: targetView(ctx, t) } };
    },

    deleteTarget(req, ctx) {
      const t = requireTarget(req, req.params.id);
      const targets = targetsOf(req.org);
      targets.splice(targets.indexOf(t), 1);
      syncDefaultLists(ctx, req.org);
      return { status: 204 };
    },

    retryTarget(req, ctx) {
      const t = requireTarget(req, req.params.id);
      if (!hasActiveJob(t)) enqueueJob(ctx, t, trackJobType(t));
      return { status: 202 as const, body: { data: targetView(ctx, t) } };
    },
  },
} satisfies Area;
