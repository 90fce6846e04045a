/**
 * Events: stored profile diffs (sandbox-wide: diffs are about people) and GET /events, which shows an
 * organization the diffs of the people its memberships make visible at read time (README.md, Events):
 * its Targets' watching members, its Lists' members and the shared default-orbit watches, or one List's
 * members with `list`. Diffs arrive over time (--job-speed > 0) or on demand (POST /__sandbox/events/emit);
 * seen_at is the sandbox clock at emission.
 */
import type { Area, SandboxContext } from "../contract/context.js";
import { Prng } from "../data/prng.js";
import { normalizeProfileUrl } from "../data/urls.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { echoInput } from "../../../contract-core/portable.js";
import { defineShared, shared, type OrgState, type SandboxState } from "../contract/state.js";
import { iso } from "./area-helpers.js";
import { parameterValue } from "../contract/spec-values.js";
import { EMPTY_PROFILE } from "./discovery.js";
import { applyDiff, EVENT_FIELDS, liveFromGraph, liveFromMember, type LiveProfile } from "./diffs.js";
import { findList, listMemberKeys } from "./lists.js";
import type { EventView, MemberRecord } from "./records.js";
import { newId, unitFrom } from "./area-helpers.js";
import { everyTarget, watchingKeys } from "./targets-store.js";

export const EVENT_INTERVAL_MS = 10_000;
const DEMO_EVERY = 6;
const DEMO_ORBIT_SIZE = 3;
/** Oldest diffs are dropped beyond this (the reference gives no retention guarantee). */
const MAX_EVENTS = 50_000;

export interface StoredEvent extends EventView {
  /** Normalized profile URL (no scheme) of the person. */
  key: string;
}

export interface EventsStore {
  /** Ascending by (seen_at, id). */
  events: StoredEvent[];
  live: Map<string, LiveProfile>;
  /** Emissions so far (seeds the deterministic choices). */
  emitted: number;
  ticks: number;
}

const eventsShared = defineShared<EventsStore>({
  name: "events",
  create: () => ({ events: [], live: new Map(), emitted: 0, ticks: 0 }),
  save: (s) => ({ events: s.events, live: [...s.live.entries()], emitted: s.emitted, ticks: s.ticks }),
  load: (data) => {
    const d = data as { events: StoredEvent[]; live: [string, LiveProfile][]; emitted: number; ticks: number };
    return { events: d.events, live: new Map(d.live), emitted: d.emitted, ticks: d.ticks };
  },
});

export function eventsOf(state: SandboxState): EventsStore {
  return shared(state, eventsShared);
}

const older = (a: { seen_at: string; id: string }, b: { seen_at: string; id: string }) =>
  a.seen_at < b.seen_at || (a.seen_at === b.seen_at && a.id < b.id);

// ---- visibility ----

/** The shared default-orbit watches: the last DEMO_ORBIT_SIZE unflagged people of the graph. */
export function demoOrbitKeys(ctx: SandboxContext): string[] {
  const keys: string[] = [];
  for (let i = ctx.graph.people.length - 1; i >= 0 && keys.length < DEMO_ORBIT_SIZE; i--) {
    const rec = ctx.graph.people[i]!;
    const key = normalizeProfileUrl(rec.person.network_url);
    if (!rec.flagged && key) keys.push(key);
  }
  return keys;
}

/** The people whose diffs the organization sees (own memberships only, without the default orbit). */
export function memberKeys(ctx: SandboxContext, org: OrgState): Set<string> {
  const keys = listMemberKeys(ctx, org);
  for (const key of watchingKeys(org)) keys.add(key);
  return keys;
}

// ---- emission ----

function liveProfile(ctx: SandboxContext, store: EventsStore, key: string): LiveProfile {
  let live = store.live.get(key);
  if (!live) {
    const member = findMember(ctx, key);
    live =
      liveFromGraph(ctx.graph, key) ??
      liveFromMember(
        member
          ? { ...member.enrichment.profile, network_url: member.network_url }
          : { ...EMPTY_PROFILE, network_url: `https://${key}` },
      );
    store.live.set(key, live);
  }
  return live;
}

/** A Target member with this URL in any organization (people outside the graph are known only from there). */
function findMember(ctx: SandboxContext, key: string): MemberRecord | undefined {
  for (const { target } of everyTarget(ctx)) {
    const m = target.members.get(key);
    if (m) return m;
  }
  return undefined;
}

type EmitOptions = Partial<Pick<EventView, "field" | "source" | "severity">>;

/** Records one diff for the person now. */
function emitDiff(ctx: SandboxContext, key: string, opts: EmitOptions = {}): StoredEvent {
  const store = eventsOf(ctx.state);
  const n = store.emitted++;
  const rng = new Prng(Math.floor(unitFrom(`emit:${n}`) * 0x1_0000_0000));
  const live = liveProfile(ctx, store, key);
  const field = opts.field ?? rng.pick(EVENT_FIELDS);
  const diff = applyDiff(ctx.graph, live, field, rng);
  const source =
    opts.source ?? (demoOrbitKeys(ctx).includes(key) ? "demo" : rng.pick(["ingest", "snapshot_diff"] as const));
  const event: StoredEvent = {
    id: newId(ctx.state, "event"),
    ...diff,
    severity: opts.severity ?? diff.severity,
    seen_at: iso(ctx.options.now()),
    source,
    person: {
      slug: live.slug,
      name: live.name,
      headline: live.headline,
      current_company: live.current_company,
      network_url: live.network_url,
    },
    key,
  };
  let i = store.events.length;
  while (i > 0 && older(event, store.events[i - 1]!)) i--;
  store.events.splice(i, 0, event);
  if (store.events.length > MAX_EVENTS) store.events.splice(0, store.events.length - MAX_EVENTS);
  return event;
}

/** Emits `count` diffs round-robin over the people (deterministic start). */
export function emitFor(ctx: SandboxContext, keys: string[], count: number, opts: EmitOptions = {}): StoredEvent[] {
  if (keys.length === 0) return [];
  const start = eventsOf(ctx.state).emitted % keys.length;
  return Array.from({ length: count }, (_, i) => emitDiff(ctx, keys[(start + i) % keys.length]!, opts));
}

/**
 * One tick of the timer (--job-speed > 0): a diff for one person of each organization's memberships.
 * `keysOf` gives an organization's `memberKeys` in order (a caller that knows they did not change since it last
 * asked may give them again without synchronizing the default Lists).
 */
export function tickEvents(
  ctx: SandboxContext,
  keysOf: (org: OrgState) => readonly string[] = (org) => [...memberKeys(ctx, org)],
): void {
  const store = eventsOf(ctx.state);
  store.ticks++;
  for (const org of ctx.state.orgs.values()) {
    const keys = keysOf(org);
    if (keys.length > 0) emitFor(ctx, [keys[Math.floor(unitFrom(`tick:${store.ticks}:${org.id}`) * keys.length)]!], 1);
  }
  if (store.ticks % DEMO_EVERY === 0) emitFor(ctx, demoOrbitKeys(ctx), 1);
}

// ---- GET /events ----

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** A relative `since` reaches back at most about 100 years, so `now - since` stays a real calendar date. */
const MAX_RELATIVE_SINCE_WEEKS = 5218;
const MAX_RELATIVE_SINCE_MS = MAX_RELATIVE_SINCE_WEEKS * UNIT_MS.w!;

/** An ISO-8601 calendar date-time, extended or basic format; reduced precision (`2026`, `2026-11`) is filled below. */
const ISO_DATE_TIME =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO-8601 calendar date or date-time as epoch milliseconds (without an offset it is UTC; a reduced
 * precision date is the start of its year or month; `24:00` is the end of its day), or undefined when the
 * value is not one or names an impossible date or time.
 */
export function parseIsoDateTime(value: string): number | undefined {
  const text = value.trim();
  const full = /^\d{4}$/.test(text) ? `${text}-01-01` : /^\d{4}-\d{2}$/.test(text) ? `${text}-01` : text;
  const m = ISO_DATE_TIME.exec(full);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? "0")) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [frac = "", zone = "Z"] = [m[7], m[8]];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  const endOfDay = h === 24 && mi === 0 && s === 0 && !/[1-9]/.test(frac);
  if ((h > 23 && !endOfDay) || mi > 59 || s > 59) return undefined;
  const zoneMinutes = Number(zone.slice(1, 3)) * 60 + Number(zone.replace(":", "").slice(3, 5) || "0");
  if (zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || zoneMinutes % 60 > 59)) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s, Math.floor(Number(`0.${frac || "0"}`) * 1000));
  return ms - (zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * zoneMinutes * 60_000);
}

/** ISO-8601 date/time (a date-time without offset is UTC), or digits plus m, h, d or w before now. */
function parseSince(req: Answering<OperationsWith<"400", "invalid_request">>, value: string, now: number): string {
  const rel = /^(\d+)([mhdw])$/.exec(value);
  if (rel) {
    const ms = Number(rel[1]) * UNIT_MS[rel[2]!]!;
    if (!(ms <= MAX_RELATIVE_SINCE_MS)) {
      throw operationError(
        req.operationId,
        "400",
        "invalid_request",
        `since reaches back at most ${MAX_RELATIVE_SINCE_WEEKS}w (about 100 years), got ${echoInput(value)}`,
      );
    }
    return iso(now - ms);
  }
  const at = parseIsoDateTime(value);
  if (at === undefined)
    throw operationError(
      req.operationId,
      "400",
      "invalid_request",
      "since must be an ISO-8601 date/time or a number followed by m, h, d or w (e.g. 24h)",
    );
  return iso(at);
}

// base64url through btoa/atob (no Buffer), so the cursor works in a browser host too.
const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (b64: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)));

function encodeCursor(e: { seen_at: string; id: string }): string {
  return toBase64Url(JSON.stringify({ s: e.seen_at, i: e.id }));
}

function decodeCursor(
  req: Answering<OperationsWith<"400", "invalid_request">>,
  cursor: string,
): { seen_at: string; id: string } {
  try {
    const v = JSON.parse(fromBase64Url(cursor)) as { s?: unknown; i?: unknown };
    if (typeof v.s === "string" && typeof v.i === "string" && !Number.isNaN(Date.parse(v.s)))
      return { seen_at: iso(Date.parse(v.s)), id: v.i };
  } catch {
    // fall through
  }
  throw operationError(
    req.operationId,
    "400",
    "invalid_request",
    "cursor is invalid: copy it from meta.next of the previous page",
  );
}

export function view(e: StoredEvent): EventView {
  const { key: _key, ...rest } = e;
  return rest;
}

export const eventsArea = {
  name: "events",
  handlers: {
    listEvents(req, ctx) {
      const q = req.query;
      const since = typeof q.since === "string" ? parseSince(req, q.since, ctx.options.now()) : null;
      const cursor = typeof q.cursor === "string" ? decodeCursor(req, q.cursor) : null;
      const limit = parameterValue(ctx.spec, "listEvents", "limit", q);
      let visible: Set<string>;
      if (typeof q.list === "string") {
        const list = findList(ctx, req.org, q.list);
        if (!list) throw operationError(req.operationId, "404", "not_found", `List ${echoInput(q.list)} not found`);
        visible = listMemberKeys(ctx, req.org, list);
      } else {
        visible = memberKeys(ctx, req.org);
        for (const key of demoOrbitKeys(ctx)) visible.add(key);
      }
      const events = eventsOf(ctx.state).events;
      const rows: StoredEvent[] = [];
      for (let i = events.length - 1; i >= 0 && rows.length <= limit; i--) {
        const e = events[i]!;
        if (since !== null && e.seen_at < since) break;
        if (cursor !== null && !older(e, cursor)) continue;
        if (!visible.has(e.key) || (q.type !== undefined && e.field !== q.type)) continue;
        rows.push(e);
      }
      const hasMore = rows.length > limit;
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        body: {
          data: page.map(view),
          meta: {
            count: page.length,
            limit,
            has_more: hasMore,
            next: hasMore && last ? encodeCursor(last) : null,
            since,
          },
        },
      };
    },
  },
} satisfies Area;
