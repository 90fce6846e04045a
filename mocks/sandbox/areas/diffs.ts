/**
 * Profile diffs: what changes about a person, one field at a time. Each person has a live profile (from the
 * graph, or from a Target member for people outside the graph) that successive diffs change, so the `before`
 * of a diff is the `after` of the previous one for the same field.
 */
import { ENUMS } from "../../../generated/spec-constants.js";
import type { Graph } from "../data/graph.js";
import type { Prng } from "../data/prng.js";
import { synthesizeHeadline, synthesizeProfileText } from "../data/synthesis.js";
import type { EventField, EventView, MemberProfile } from "./records.js";

/**
 * The fields a diff can change: the spec's EventField enum as generated (ENUMS), so a value added to the spec
 * reaches applyDiff's switch, where tsc asks how that field changes.
 */
export const EVENT_FIELDS: readonly EventField[] = ENUMS.EventField;

export interface LiveProfile {
  slug: string | null;
  name: string | null;
  headline: string | null;
  current_company: string | null;
  title: string | null;
  open_to_work: boolean;
  between_roles: boolean;
  exploring: boolean;
  about: string | null;
  role_description: string | null;
  network_url: string;
}

type MemberLike = Pick<MemberProfile, "full_name" | "headline" | "current_company" | "public_identifier"> & {
  network_url: string;
};

export function liveFromGraph(graph: Graph, key: string): LiveProfile | null {
  const rec = graph.byUrl.get(key);
  if (!rec) return null;
  const p = rec.person;
  const current = rec.positions.find((x) => x.is_current === true);
  return {
    slug: p.slug,
    name: p.full_name,
    headline: p.headline,
    current_company: current?.company ?? null,
    title: current?.title ?? rec.positions[0]?.title ?? null,
    open_to_work: p.is_open_to_work === true,
    between_roles: p.is_between_roles,
    exploring: p.is_exploring,
    about: null,
    role_description: null,
    network_url: p.network_url,
  };
}

export function liveFromMember(m: MemberLike): LiveProfile {
  const title = m.headline?.split(" at ")[0] ?? null;
  return {
    slug: m.public_identifier,
    name: m.full_name,
    headline: m.headline,
    current_company: m.current_company,
    title,
    open_to_work: false,
    between_roles: m.current_company === null,
    exploring: false,
    about: null,
    role_description: null,
    network_url: m.network_url,
  };
}

export type DiffBody = Pick<EventView, "field" | "before" | "after" | "severity" | "label">;

const flag = (v: boolean) => (v ? "true" : "false");

/** Applies one diff of `field` to the live profile and describes it. */
export function applyDiff(graph: Graph, live: LiveProfile, field: EventField, rng: Prng): DiffBody {
  const name = live.name ?? "Someone";
  switch (field) {
    case "open_to_work":
    case "between_roles":
    case "exploring": {
      const before = live[field];
      live[field] = !before;
      const [on, off] = {
        open_to_work: [`${name} is open to work`, `${name} is no longer open to work`] as const,
        between_roles: [`${name} is between roles`, `${name} is no longer between roles`] as const,
        exploring: [`${name} may be exploring new roles`, `${name} is no longer flagged as exploring`] as const,
      }[field];
      return {
        field,
        before: flag(before),
        after: flag(!before),
        severity: before ? "quiet" : "hot",
        label: before ? off : on,
      };
    }
    case "left_company": {
      if (live.current_company === null) return applyDiff(graph, live, "joined_company", rng);
      const company = live.current_company;
      live.current_company = null;
      live.between_roles = true;
      return { field, before: company, after: null, severity: "hot", label: `${name} left ${company}` };
    }
    case "joined_company": {
      const candidates = graph.companies.filter((c) => c.name !== live.current_company);
      const company = candidates.length > 0 ? rng.pick(candidates).name : "Stealth Startup";
      const before = live.current_company;
      live.current_company = company;
      live.between_roles = false;
      return { field, before, after: company, severity: "hot", label: `${name} joined ${company}` };
    }
    case "removed_position": {
      const removed = live.title
        ? `${live.title}${live.current_company ? ` at ${live.current_company}` : ""}`
        : "A position";
      return { field, before: removed, after: null, severity: "quiet", label: `${name} removed a position` };
    }
    case "headline": {
      const before = live.headline;
      live.headline = synthesizeHeadline(rng, before, live.title);
      return { field, before, after: live.headline, severity: "quiet", label: `${name} changed their headline` };
    }
    case "about":
    case "role_description": {
      const before = live[field];
      live[field] = synthesizeProfileText(rng, field, before);
      const label = field === "about" ? `${name} updated their about section` : `${name} updated a role description`;
      return { field, before, after: live[field], severity: "quiet", label };
    }
  }
}
