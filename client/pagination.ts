import { PARAMETER_RULES } from "../generated/spec-constants.js";
import type { TalentGraphClient } from "./client.js";
import { unwrap } from "./errors.js";
import type { PeoplePage, PeopleQuery, TargetMembersPage, TargetMembersQuery } from "./schema.js";

/** What the helpers need of a client: its typed GET. */
export type GetClient = Pick<TalentGraphClient, "GET">;

export interface PageOptions {
  /** Aborts the request in flight and ends the walk. */
  signal?: AbortSignal;
  /** Stops after this many pages (default: no limit). */
  maxPages?: number;
}

/**
 * Fetches pages from `offset` on; `nextOffset` returns where the next page starts, or null after
 * the last one. A failed page throws a `TalentGraphError`.
 */
async function* walkPages<Page>(
  offset: number,
  fetchPage: (offset: number) => Promise<Page>,
  nextOffset: (page: Page, offset: number) => number | null,
  maxPages = Number.POSITIVE_INFINITY,
): AsyncGenerator<Page, void, undefined> {
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(offset);
    yield page;
    const next = nextOffset(page, offset);
    if (next === null || next <= offset) return;
    offset = next;
  }
}

/**
 * People search pages (GET /people): the offset advances by `meta.limit` while `meta.has_more`.
 * Paging is not snapshot-isolated, so rows can move between pages while you walk.
 */
export function paginatePeople(
  client: GetClient,
  query: PeopleQuery = {},
  options: PageOptions = {},
): AsyncGenerator<PeoplePage, void, undefined> {
  return walkPages(
    query.offset ?? 0,
    async (offset) =>
      unwrap(await client.GET("/people", { params: { query: { ...query, offset } }, signal: options.signal })),
    (page, offset) => (page.meta.has_more ? offset + page.meta.limit : null),
    options.maxPages,
  );
}

/**
 * Target member pages (GET /targets/{id}/members): there is no has_more; the next offset is
 * offset + limit (the limit as the service clamps it) while it is below `meta.count`.
 */
export function paginateTargetMembers(
  client: GetClient,
  id: string,
  query: TargetMembersQuery = {},
  options: PageOptions = {},
): AsyncGenerator<TargetMembersPage, void, undefined> {
  // The page size as the service clamps it: the spec's default and `x-clamp` range.
  const rule = PARAMETER_RULES.listTargetMembers.limit;
  const limit = Math.min(rule["x-clamp"].maximum, Math.max(rule["x-clamp"].minimum, query.limit ?? rule.default));
  return walkPages(
    Math.max(0, query.offset ?? 0),
    async (offset) =>
      unwrap(
        await client.GET("/targets/{id}/members", {
          params: { path: { id }, query: { ...query, offset } },
          signal: options.signal,
        }),
      ),
    (page, offset) => (offset + limit < page.meta.count ? offset + limit : null),
    options.maxPages,
  );
}
