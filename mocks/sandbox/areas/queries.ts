/**
 * Saved queries: POST /queries (compaction to the allowlist; every call creates a record), GET /queries,
 * GET /queries/{id}.
 */
import { echoInput } from "../../../contract-core/portable.js";
import type { Area } from "../contract/context.js";
import { QUERY_KEYS } from "../domain/search.js";
import { operationError } from "../contract/errors.js";
import { defineSlice } from "../contract/state.js";
import { nowIso, requiredName } from "./area-helpers.js";
import type { SavedQueryView as SavedQuery } from "./records.js";
import { newId } from "./area-helpers.js";

const ALLOWED = new Set<string>(QUERY_KEYS);

/**
 * Only allowlisted keys survive; null and empty-string values are dropped; 0 and false are kept; unknown
 * keys are dropped; values are not validated (a retained value may be one GET /people would reject).
 */
function compactQuery(query: Record<string, unknown>): SavedQuery["query"] {
  const kept = Object.entries(query).filter(([k, v]) => ALLOWED.has(k) && v !== null && v !== undefined && v !== "");
  return Object.fromEntries(kept) as SavedQuery["query"];
}

export const queriesSlice = defineSlice<SavedQuery[]>({
  name: "queries",
  create: () => [],
  save: (items) => items,
  load: (data) => (Array.isArray(data) ? (data as SavedQuery[]) : []),
});

export const queriesArea = {
  name: "queries",
  handlers: {
    createSavedQuery(req, ctx) {
      const body = req.body;
      const name = requiredName(req, body.name);
      const record: SavedQuery = {
        id: newId(ctx.state, "query"),
        name,
        query: compactQuery(body.query),
        created_at: nowIso(ctx),
      };
      req.org.get(queriesSlice).push(record);
      return { status: 201, body: { data: record } };
    },

    listSavedQueries(req) {
      // Newest first. The shape of GET /queries is not shown in the reference: { data: SavedQuery[], meta: { count } }.
      const items = [...req.org.get(queriesSlice)].reverse();
      return { body: { data: items, meta: { count: items.length } } };
    },

    getSavedQuery(req) {
      const id = req.params.id.toLowerCase();
      const found = req.org.get(queriesSlice).find((q) => q.id === id);
      if (!found)
        throw operationError(
          req.operationId,
          "404",
          "not_found",
          `Saved query ${echoInput(id)} not found in this organization`,
        );
      return { body: { data: found } };
    },
  },
} satisfies Area;
