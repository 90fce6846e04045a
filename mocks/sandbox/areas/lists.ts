/**
 * Lists: custom Lists, the generated default Lists and their members (README.md, Lists). The default Lists
 * (the origin List, and one List per Target whose members are its watching members) are synchronized
 * before every List read and after the Target changes that alter watching members. Membership records and
 * the member write bodies are shapes the reference does not show: the sandbox's choice.
 */
import { echoInput } from "../../../contract-core/portable.js";
import type { Area, SandboxContext } from "../contract/context.js";
import { findPerson } from "../domain/people.js";
import { normalizeProfileUrl } from "../data/urls.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { defineSlice, type OrgState } from "../contract/state.js";
import { nowIso, requiredName } from "./area-helpers.js";
import type { ListView } from "./records.js";
import { newId } from "./area-helpers.js";
import { targetsOf, targetsSlice, watchingMembers } from "./targets-store.js";

export interface Membership {
  id: string;
  network_url: string;
  stage: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

/** A List as stored: the API's List without what its view computes (is_default, member_count). */
export type ListRecord = Omit<ListView, "is_default" | "member_count" | "default_key"> & {
  default_key: "origin" | "target" | null;
  /** By normalized profile URL (no scheme). */
  members: Map<string, Membership>;
};

type SavedList = Omit<ListRecord, "members"> & { members: [string, Membership][] };

export const listsSlice = defineSlice<ListRecord[]>({
  name: "lists",
  create: () => [],
  save: (lists) => lists.map((l): SavedList => ({ ...l, members: [...l.members.entries()] })),
  load: (data) => (data as SavedList[]).map((l) => ({ ...l, members: new Map(l.members) })),
});

const ORIGIN_LIST_NAME = "Saved people";
const MAX_LIST_MEMBER_URLS = 500;
const MAX_STAGE = 80;
const MAX_NOTES = 2000;

function newList(
  ctx: SandboxContext,
  name: string,
  description: string | null,
  defaultKey: ListRecord["default_key"],
  sourceWatchId: string | null,
): ListRecord {
  const now = nowIso(ctx);
  return {
    id: newId(ctx.state, "list"),
    name,
    description,
    default_key: defaultKey,
    source_watch_id: sourceWatchId,
    created_at: now,
    updated_at: now,
    members: new Map(),
  };
}

function newMembership(ctx: SandboxContext, key: string): Membership {
  const now = nowIso(ctx);
  return {
    id: newId(ctx.state, "membership"),
    network_url: `https://${key}`,
    stage: null,
    notes: null,
    created_at: now,
    updated_at: now,
  };
}

/** Generates and refreshes the default Lists (origin + one per Target). */
export function syncDefaultLists(ctx: SandboxContext, org: OrgState): ListRecord[] {
  const lists = org.get(listsSlice);
  if (!lists.some((l) => l.default_key === "origin"))
    lists.unshift(newList(ctx, ORIGIN_LIST_NAME, null, "origin", null));
  const targets = org.has(targetsSlice) ? targetsOf(org) : [];
  const live = new Set(targets.map((t) => t.id));
  for (let i = lists.length - 1; i >= 0; i--) {
    const l = lists[i]!;
    if (l.default_key === "target" && (l.source_watch_id === null || !live.has(l.source_watch_id))) lists.splice(i, 1);
  }
  for (const target of targets) {
    let list = lists.find((l) => l.default_key === "target" && l.source_watch_id === target.id);
    if (!list)
      lists.push(
        (list = newList(ctx, target.name, `People discovered by the ${target.name} Target`, "target", target.id)),
      );
    let changed = false;
    if (list.name !== target.name) {
      list.name = target.name;
      list.description = `People discovered by the ${target.name} Target`;
      changed = true;
    }
    const watching = new Set(watchingMembers(target).map((m) => m.key));
    for (const key of list.members.keys()) {
      if (!watching.has(key)) {
        list.members.delete(key);
        changed = true;
      }
    }
    for (const key of watching) {
      if (!list.members.has(key)) {
        list.members.set(key, newMembership(ctx, key));
        changed = true;
      }
    }
    if (changed) list.updated_at = nowIso(ctx);
  }
  return lists;
}

/** Default Lists first (origin, then Target Lists), then custom Lists, each in creation order (sort is stable). */
function orderedLists(ctx: SandboxContext, org: OrgState): ListRecord[] {
  const rank = (l: ListRecord) => (l.default_key === "origin" ? 0 : l.default_key === "target" ? 1 : 2);
  return [...syncDefaultLists(ctx, org)].sort((a, b) => rank(a) - rank(b));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** By UUID, or by case-insensitive name (the first in GET /lists order when names repeat). */
export function findList(ctx: SandboxContext, org: OrgState, idOrName: string): ListRecord | undefined {
  const lists = orderedLists(ctx, org);
  const value = idOrName.trim();
  if (UUID.test(value)) {
    const byId = lists.find((l) => l.id === value.toLowerCase());
    if (byId) return byId;
  }
  return lists.find((l) => l.name.toLowerCase() === value.toLowerCase());
}

function listView(l: ListRecord): ListView {
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    is_default: l.default_key !== null,
    default_key: l.default_key,
    source_watch_id: l.source_watch_id,
    member_count: l.members.size,
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

/** Profile URLs (normalized, no scheme) of every List member of the organization. */
export function listMemberKeys(ctx: SandboxContext, org: OrgState, list?: ListRecord): Set<string> {
  if (!list && !org.has(listsSlice) && !org.has(targetsSlice)) return new Set(); // nothing created yet
  const lists = list ? [list] : syncDefaultLists(ctx, org);
  const keys = new Set<string>();
  for (const l of lists) for (const key of l.members.keys()) keys.add(key);
  return keys;
}

/** A profile URL or a graph slug, as a normalized URL; null when unusable. */
export function personKey(ctx: SandboxContext, value: string): string | null {
  const url = normalizeProfileUrl(value);
  if (url) return url;
  const rec = findPerson(ctx.graph, value);
  return rec ? normalizeProfileUrl(rec.person.network_url) : null;
}

function optionalText(
  req: Answering<OperationsWith<"400", "invalid_request">>,
  body: Record<string, unknown>,
  name: "stage" | "notes",
  max: number,
): string | null | undefined {
  const v = body[name];
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== "string")
    throw operationError(req.operationId, "400", "invalid_request", `${name} must be a string or null`);
  const t = v.trim();
  if ([...t].length > max)
    throw operationError(req.operationId, "400", "invalid_request", `${name} must be at most ${max} characters`);
  return t === "" ? null : t;
}

function applyStageNotes(
  m: Membership,
  stage: string | null | undefined,
  notes: string | null | undefined,
  now: string,
): void {
  if (stage !== undefined) m.stage = stage;
  if (notes !== undefined) m.notes = notes;
  m.updated_at = now;
}

/** The List, or a 404 (a List of another organization is not visible). */
function requireList(
  ctx: SandboxContext,
  req: Answering<OperationsWith<"404", "not_found">> & { org: OrgState },
  id: string,
): ListRecord {
  const list = findList(ctx, req.org, id);
  if (!list)
    throw operationError(req.operationId, "404", "not_found", `List ${echoInput(id)} not found in this organization`);
  return list;
}

export const listsArea = {
  name: "lists",
  handlers: {
    listLists(req, ctx) {
      const data = orderedLists(ctx, req.org).map(listView);
      return { body: { data, meta: { count: data.length } } };
    },

    createList(req, ctx) {
      const body = req.body;
      const name = requiredName(req, body.name);
      const description = typeof body.description === "string" && body.description !== "" ? body.description : null;
      const list = newList(ctx, name, description, null, null);
      req.org.get(listsSlice).push(list);
      // A new custom List: the spec pins these four fields of the 201 answer.
      return {
        status: 201,
        body: {
          data: { ...listView(list), is_default: false, default_key: null, source_watch_id: null, member_count: 0 },
        },
      };
    },

    getList(req, ctx) {
      const list = requireList(ctx, req, req.params.id);
      return { body: { data: { ...listView(list), members: [...list.members.values()] } } };
    },

    deleteList(req, ctx) {
      const list = requireList(ctx, req, req.params.id);
      const lists = req.org.get(listsSlice);
      lists.splice(lists.indexOf(list), 1);
      return { status: 204 };
    },

    addListMembers(req, ctx) {
      const list = requireList(ctx, req, req.params.id);
      const body = req.body ?? {};
      const urls = body.urls;
      if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === "string")) {
        throw operationError(
          req.operationId,
          "400",
          "invalid_request",
          "urls must be a non-empty array of profile URLs or slugs",
        );
      }
      if (urls.length > MAX_LIST_MEMBER_URLS)
        throw operationError(
          req.operationId,
          "400",
          "invalid_request",
          `urls accepts at most ${MAX_LIST_MEMBER_URLS} entries`,
        );
      const stage = optionalText(req, body, "stage", MAX_STAGE);
      const notes = optionalText(req, body, "notes", MAX_NOTES);
      const now = nowIso(ctx);
      // A Target List mirrors the Target's watching members: writes there only set stage and notes.
      const targetList = list.default_key === "target";
      let added = 0;
      let updated = 0;
      const ignored: string[] = [];
      const written: Membership[] = [];
      for (const raw of urls as string[]) {
        const key = personKey(ctx, raw);
        const existing = key ? list.members.get(key) : undefined;
        if (!key || (!existing && targetList)) {
          ignored.push(raw);
          continue;
        }
        const m = existing ?? newMembership(ctx, key);
        if (existing) updated++;
        else {
          list.members.set(key, m);
          added++;
        }
        applyStageNotes(m, stage, notes, now);
        if (!written.includes(m)) written.push(m);
      }
      if (added + updated > 0) list.updated_at = now;
      return { body: { data: { added, updated, ignored, members: written } } };
    },

    updateListMember(req, ctx) {
      const list = requireList(ctx, req, req.params.id);
      const id = req.params.membershipId.trim().toLowerCase();
      const m = [...list.members.values()].find((x) => x.id === id);
      if (!m)
        throw operationError(
          req.operationId,
          "404",
          "not_found",
          `Membership ${echoInput(id)} not found in List ${list.name}`,
        );
      const body = req.body ?? {};
      const now = nowIso(ctx);
      applyStageNotes(m, optionalText(req, body, "stage", MAX_STAGE), optionalText(req, body, "notes", MAX_NOTES), now);
      list.updated_at = now;
      return { body: { data: m } };
    },
  },
} satisfies Area;
