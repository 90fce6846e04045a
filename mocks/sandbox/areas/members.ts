/**
 * Target members: GET /targets/{id}/members (every filter of the reference, clamps, the documented order) and
 * POST /targets/{id}/members (status changes in selected and filter modes with the skip rules, enrichment
 * enqueueing, `updated` counts).
 */
import type { Area } from "../contract/context.js";
import { parameterClamp, parameterDefault, type Clamp } from "../contract/spec-values.js";
import { countriesOf } from "../data/geo.js";
import { FAMILIES } from "../data/vocab.js";
import { parseRoleTokens, type RoleFilter } from "../domain/roles.js";
import { distinctTerms } from "../domain/terms.js";
import { normalizeProfileUrl } from "../data/urls.js";
import { faultOn } from "../data/proof-faults.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { parseIsoDateTime } from "./events.js";
import { enqueueJob, needsEnrichment } from "./jobs.js";
import { syncDefaultLists } from "./lists.js";
import type { MemberRecord, MemberStatus, TargetMemberView, TargetRecord } from "./records.js";
import { hasActiveJob } from "./targets-store.js";
import { requireTarget } from "./targets.js";

const WATCH_NOT_FOUND = "watch not found";

const RECRUITER = /recruit|talent[\s-]*acquisition|sourcer|sourcing|staffing|talent[\s-]*partner/i;
const STATUS_RANK: Record<MemberStatus, number> = { proposed: 0, watching: 1, excluded: 2 };

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * `first_seen_after` as epoch milliseconds. The spec declares no format (the member list's query string is
 * not framework-validated); a value that is no ISO-8601 timestamp is the documented 400 here ("An invalid
 * timestamp ... can surface as a non-typed database or framework error").
 */
function firstSeenAfter(req: Answering<OperationsWith<"400", "invalid_request">>, value: string): number {
  const at = parseIsoDateTime(value);
  if (at === undefined)
    throw operationError(req.operationId, "400", "invalid_request", "first_seen_after must be an ISO-8601 timestamp");
  return at;
}

/**
 * The member filters from validated query parameters (GET, and the URL of filter mode). The spec lists the
 * documented values of `status`, `stint` and `depth` but does not reject others (the query string is not
 * framework-validated). The sandbox's reading, which the reference does not state: a `status` no member has
 * selects no row; another `stint` or `depth` applies no filter, as `all` does.
 */
function memberFilters(req: Answering<OperationsWith<"400", "invalid_request">>, query: Record<string, unknown>) {
  const status = str(query.status);
  const stint = str(query.stint);
  const left = Number(str(query.company_left_min_months_ago) ?? "0");
  const depth = str(query.depth);
  const location = str(query.location);
  const exclude = str(query.exclude_locations);
  const after = str(query.first_seen_after);
  return {
    status: status === null || status === "all" ? null : status,
    q: (str(query.q) ?? str(query.keywords))?.toLowerCase() ?? null,
    // An explicit stint wins; else company_left_min_months_ago > 0 means alum, company_current=true current.
    stint:
      stint === "current" || stint === "alum"
        ? stint
        : stint === "all"
          ? null
          : left > 0
            ? "alum"
            : query.company_current === "true"
              ? "current"
              : null,
    locations: location ? memberPlaces(location) : [],
    excludeLocations: exclude ? memberPlaces(exclude) : [],
    company: str(query.company)?.toLowerCase() ?? null,
    roles: str(query.roles) ? parseRoleTokens(str(query.roles)!) : [],
    excludeRecruiters: query.exclude_recruiters === "true",
    depth: depth === "stub" || depth === "enriched" ? depth : null,
    firstSeenAfter: after ? firstSeenAfter(req, after) : null,
  };
}

/**
 * The member list's location parser: 20 places of 120 characters, as the reference's member list table says
 * (the spec states it in MemberLocation's description only: a longer value is cut, not refused, so it is no
 * schema bound).
 */
const MEMBER_PLACES = { maxTerms: 20, maxTermLength: 120 } as const;

/**
 * The member list's location parser: the query string is not framework-validated (spec/DECISIONS.md 20), so a
 * longer list is not refused; its first 20 distinct places, each cut to 120 characters, are used (lower case).
 */
function memberPlaces(value: string): string[] {
  const { maxTerms, maxTermLength } = MEMBER_PLACES;
  const places = value.split(";").map((p) => [...p.trim()].slice(0, maxTermLength).join(""));
  return distinctTerms(places)
    .slice(0, maxTerms)
    .map((p) => p.toLowerCase());
}

/** "Berlin" or "Berlin, Germany" against "Berlin, Germany": every part of the place is a part of the location (continents expand). */
function placeMatches(location: string | null, place: string): boolean {
  if (!location) return false;
  const parts = location
    .toLowerCase()
    .split(",")
    .map((s) => s.trim());
  const country = parts[parts.length - 1] ?? "";
  return place
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .every((p) => parts.includes(p) || (countriesOf(p)?.includes(country) ?? false));
}

/** Role tokens on the headline only: family tokens by family name or its titles; months and @company ignored. */
function roleMatches(headline: string, role: RoleFilter): boolean {
  if (role.kind === "title")
    return role.titles.some((t) => (role.mode === "exact" ? headline === t : headline.includes(t)));
  const titles = FAMILIES[role.family]?.titles ?? [];
  return headline.includes(role.family.replace(/_/g, " ")) || titles.some((t) => headline.includes(t.toLowerCase()));
}

type MemberFilters = ReturnType<typeof memberFilters>;

function memberMatches(m: MemberRecord, f: MemberFilters): boolean {
  const headline = (m.headline ?? "").toLowerCase();
  if (f.status !== null && m.status !== f.status) return false;
  if (f.q !== null && ![m.full_name, m.headline, m.current_company].some((v) => v?.toLowerCase().includes(f.q!)))
    return false;
  if (f.stint === "current" && m.is_current !== true) return false;
  if (f.stint === "alum" && m.is_current !== false) return false;
  if (f.locations.length > 0 && !f.locations.some((p) => placeMatches(m.location, p))) return false;
  if (f.excludeLocations.some((p) => placeMatches(m.location, p))) return false;
  if (f.company !== null && !(m.current_company?.toLowerCase().includes(f.company) ?? false)) return false;
  if (!f.roles.every((r) => roleMatches(headline, r))) return false;
  if (f.excludeRecruiters && RECRUITER.test(headline)) return false;
  if (f.depth === "stub" && m.enriched_at !== null) return false;
  if (f.depth === "enriched" && m.enriched_at === null) return false;
  if (f.firstSeenAfter !== null && Date.parse(m.first_seen_at) < f.firstSeenAfter) return false;
  return true;
}

/**
 * Proposed, then watching, then excluded; then full_name with nulls last (the reference's order); then first
 * seen, then discovery order (the sort is stable over the members in the order found): never the id, which
 * differs between sandboxes that took the same steps.
 */
function compareMembers(a: MemberRecord, b: MemberRecord): number {
  const byStatus = STATUS_RANK[a.status] - STATUS_RANK[b.status];
  if (byStatus !== 0) return byStatus;
  if (a.full_name === null || b.full_name === null) {
    if (a.full_name !== b.full_name) return a.full_name === null ? 1 : -1;
  } else {
    const byName = a.full_name.localeCompare(b.full_name, "en", { sensitivity: "base" });
    if (byName !== 0) return byName;
  }
  return a.first_seen_at.localeCompare(b.first_seen_at);
}

function memberView(m: MemberRecord, watchId: string): TargetMemberView {
  return {
    id: m.id,
    watch_id: watchId,
    network_url: m.network_url,
    status: m.status,
    full_name: m.full_name,
    headline: m.headline,
    current_company: m.current_company,
    public_identifier: m.public_identifier,
    network_id: m.network_id,
    location: m.location,
    profile_picture_url: m.profile_picture_url,
    profile_slug: m.profile_slug,
    is_current: m.is_current,
    enriched_at: m.enriched_at,
    first_seen_at: m.first_seen_at,
  };
}

function filterMembers(t: TargetRecord, f: MemberFilters): MemberRecord[] {
  return [...t.members.values()].filter((m) => memberMatches(m, f)).sort(compareMembers);
}

const clamp = (v: unknown, dflt: number, { minimum, maximum }: Clamp) =>
  Math.min(maximum, Math.max(minimum, typeof v === "number" ? Math.trunc(v) : dflt));

/** Selected mode: the rows of the normalized, de-duplicated URLs (unusable values ignored). */
function selectedRows(t: TargetRecord, urls: unknown): MemberRecord[] {
  if (!Array.isArray(urls)) return [];
  const keys = new Set(
    urls.map((u) => (typeof u === "string" ? normalizeProfileUrl(u) : null)).filter((k): k is string => k !== null),
  );
  return [...keys].map((k) => t.members.get(k)).filter((m): m is MemberRecord => m !== undefined);
}

export const membersArea = {
  name: "members",
  handlers: {
    listTargetMembers(req, { spec }) {
      const t = requireTarget(req, req.params.id, WATCH_NOT_FOUND);
      const rows = filterMembers(t, memberFilters(req, req.query));
      const pageSize = parameterClamp(spec, "listTargetMembers", "limit");
      const limit = clamp(req.query.limit, parameterDefault(spec, "listTargetMembers", "limit"), pageSize);
      const offset = clamp(
        req.query.offset,
        parameterDefault(spec, "listTargetMembers", "offset"),
        parameterClamp(spec, "listTargetMembers", "offset"),
      );
      return {
        body: {
          data: rows.slice(offset, offset + limit).map((m) => memberView(m, t.id)),
          meta: { count: rows.length },
        },
      };
    },

    setTargetMemberStatus(req, ctx) {
      const t = requireTarget(req, req.params.id, WATCH_NOT_FOUND);
      const body = req.body;
      const status = body.status as MemberStatus;
      let rows: MemberRecord[];
      if (body.apply === "filter") {
        // Filters from the URL; limit and offset do not apply. watching/proposed skip existing excluded rows.
        rows = filterMembers(t, memberFilters(req, req.query));
        if (status !== "excluded") rows = rows.filter((m) => m.status !== "excluded");
      } else {
        rows = selectedRows(t, body.urls);
      }
      const unchanged = rows.filter((m) => m.status === status).length;
      for (const m of rows) m.status = status;
      if (status === "watching" && rows.length > 0 && needsEnrichment(t).length > 0 && !hasActiveJob(t)) {
        enqueueJob(ctx, t, "refresh_watch");
      }
      syncDefaultLists(ctx, req.org);
      const updated = faultOn("member-update-counts-changed-only") ? rows.length - unchanged : rows.length;
      return { body: { data: { updated } } };
    },
  },
} satisfies Area;
