import { systemClock, type Clock } from "./clock.js";
import { unwrap } from "./errors.js";
import type { GetClient } from "./pagination.js";
import type { EventsPage, EventsQuery, TalentGraphEvent } from "./schema.js";

/** The overlap the reference suggests between passes: five minutes. */
export const DEFAULT_OVERLAP_MS = 5 * 60_000;
export const DEFAULT_SEEN_CAPACITY = 10_000;

/** A bounded memory of event ids: when full, the id remembered longest ago is forgotten first. */
export class SeenIds {
  readonly #ids = new Set<string>();
  readonly capacity: number;

  constructor(capacity = DEFAULT_SEEN_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new TypeError(`SeenIds capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string): void {
    this.#ids.delete(id); // re-adding makes it the newest
    this.#ids.add(id);
    if (this.#ids.size > this.capacity) this.#ids.delete(this.#ids.values().next().value!);
  }
}

/** What the polling helpers need of a client: its typed GET and, when it has one, its clock. */
export type PollClient = GetClient & { readonly clock?: Clock };

export interface EventPageInfo {
  /** 1-based page number within the pass. */
  page: number;
  /** The page's `meta` as the service sent it. */
  meta: EventsPage["meta"];
}

export interface PollEventsOnceOptions {
  /**
   * Pass start time returned by the previous pass (ISO string or Date). The pass reads events
   * with `seen_at >= checkpoint - overlapMs`. Null or absent: no `since`, every event the
   * service still holds.
   */
  checkpoint?: string | Date | null | undefined;
  type?: EventsQuery["type"];
  /** List UUID or name; only events of that List's members. */
  list?: string;
  /** Page size, 1-100 (service default 25). */
  limit?: number;
  /** Subtracted from the checkpoint; default 5 minutes. */
  overlapMs?: number;
  /** Ids already handed to the consumer; pass the same instance to every pass to de-duplicate across passes. */
  seen?: SeenIds;
  signal?: AbortSignal;
  /**
   * Receives each page's new events (never an empty array), in the service's order (newest
   * first). When it throws, the pass fails and no checkpoint is returned.
   */
  onEvents: (events: TalentGraphEvent[], info: EventPageInfo) => void | Promise<void>;
}

export interface PollPassResult {
  /** The pass start time (ISO): store it and pass it as `checkpoint` next time. */
  checkpoint: string;
  /** The absolute lower bound used for every page of the pass, or null when none was sent. */
  since: string | null;
  pages: number;
  /** Events handed to the consumer. */
  delivered: number;
  /** Events skipped because their id was seen before (in this pass or an earlier one). */
  duplicates: number;
}

function sinceFor(checkpoint: string | Date | null | undefined, overlapMs: number): string | null {
  if (checkpoint === null || checkpoint === undefined) return null;
  const time = checkpoint instanceof Date ? checkpoint.getTime() : Date.parse(checkpoint);
  if (Number.isNaN(time)) throw new TypeError(`checkpoint must be an ISO-8601 date-time, got ${String(checkpoint)}`);
  return new Date(time - overlapMs).toISOString();
}

/**
 * One pass of the reference's polling contract: one absolute `since` for the whole pass (last
 * checkpoint minus the overlap), `meta.next` followed until `has_more` is false (the cursor lives
 * only inside the pass), events de-duplicated by id, and the pass start time returned as the new
 * checkpoint only after every page and the consumer succeeded. Errors reject the promise.
 */
export async function pollEventsOnce(client: PollClient, options: PollEventsOnceOptions): Promise<PollPassResult> {
  const clock = client.clock ?? systemClock;
  const overlapMs = options.overlapMs ?? DEFAULT_OVERLAP_MS;
  if (!Number.isFinite(overlapMs) || overlapMs < 0) {
    throw new TypeError(`overlapMs must be a non-negative number, got ${overlapMs}`);
  }
  const passStart = clock.now();
  const since = sinceFor(options.checkpoint, overlapMs);
  const { type, list, limit } = options;
  // openapi-fetch leaves undefined parameters out of the query string.
  const query: EventsQuery = { since: since ?? undefined, type, list, limit };

  const inPass = new Set<string>();
  const result: PollPassResult = { checkpoint: "", since, pages: 0, delivered: 0, duplicates: 0 };
  let cursor: string | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const params = { query: cursor === undefined ? query : { ...query, cursor } };
    const page = unwrap(await client.GET("/events", { params, signal: options.signal }));
    result.pages++;
    const fresh: TalentGraphEvent[] = [];
    for (const event of page.data) {
      if (inPass.has(event.id) || options.seen?.has(event.id)) result.duplicates++;
      else fresh.push(event);
      inPass.add(event.id);
    }
    if (fresh.length > 0) {
      await options.onEvents(fresh, { page: result.pages, meta: page.meta });
      for (const event of fresh) options.seen?.add(event.id);
      result.delivered += fresh.length;
    }
    if (!page.meta.has_more) break;
    if (!page.meta.next || page.meta.next === cursor) {
      throw new Error("GET /events returned has_more=true without a new meta.next; the pass is not checkpointed");
    }
    cursor = page.meta.next;
  }
  result.checkpoint = new Date(passStart).toISOString();
  return result;
}

export interface PollEventsOptions extends Omit<PollEventsOnceOptions, "signal"> {
  /** Wait between the end of one pass and the start of the next. */
  intervalMs: number;
  /** Ends the loop: the request in flight is aborted and `pollEvents` resolves. */
  signal: AbortSignal;
  /**
   * Called with each new checkpoint before it is used; persist it here. When it throws, the
   * checkpoint is not advanced.
   */
  onCheckpoint?: (checkpoint: string, pass: PollPassResult) => void | Promise<void>;
  /**
   * Called when a pass fails; the loop then goes on from the last checkpoint. Without it, the
   * first failure rejects `pollEvents`.
   */
  onError?: (error: unknown) => void | Promise<void>;
}

/**
 * Runs `pollEventsOnce` every `intervalMs` until `signal` aborts, carrying the checkpoint and one
 * bounded `SeenIds` (or the one given) from pass to pass. Resolves with the last checkpoint.
 */
export async function pollEvents(client: PollClient, options: PollEventsOptions): Promise<string | null> {
  const clock = client.clock ?? systemClock;
  const { intervalMs, signal, onCheckpoint, onError, ...pass } = options;
  if (!Number.isFinite(intervalMs) || intervalMs < 0) {
    throw new TypeError(`intervalMs must be a non-negative number, got ${intervalMs}`);
  }
  const seen = pass.seen ?? new SeenIds();
  let checkpoint = pass.checkpoint ?? null;
  while (!signal.aborted) {
    try {
      const result = await pollEventsOnce(client, { ...pass, checkpoint, seen, signal });
      await onCheckpoint?.(result.checkpoint, result);
      checkpoint = result.checkpoint;
    } catch (error) {
      if (signal.aborted) break;
      if (!onError) throw error;
      await onError(error);
    }
    // Aborted while waiting: the loop ends; any other failure of the clock rejects.
    await clock.sleep(intervalMs, signal).catch((error: unknown) => {
      if (!signal.aborted) throw error;
    });
  }
  return checkpoint instanceof Date ? checkpoint.toISOString() : checkpoint;
}
