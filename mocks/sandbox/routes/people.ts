/** GET /people, GET /people/{slug}, GET /people/{slug}/coworkers, GET /people/{slug}/similar */
import type { Area } from "../context.js";
import { coworkersOf, requirePerson, similarTo, stintsOf } from "../domain/people.js";
import { parseSearch, searchPeople as runSearch } from "../domain/search.js";
import { compactPerson, fullPerson, rowPerson } from "../domain/views.js";

/** Totals above this are reported capped (total_capped: true). */
export const TOTAL_CAP = 10_000;

export const peopleArea: Area = {
  name: "people",
  handlers: {
    searchPeople(req, { graph }) {
      const { query, filters, view, limit, offset } = parseSearch(req.query, graph);
      const hits = runSearch(graph, filters);
      const page = hits.slice(offset, offset + limit);
      const hydrate = {
        skills: filters.skills !== null,
        languages: filters.languages !== null || filters.excludeLanguages.length > 0,
        certifications: filters.certifications !== null,
      };
      const data = page.map((h) => (view === "compact" ? compactPerson(h.record, h.match) : rowPerson(h.record, h.match, hydrate)));
      const browse = Object.keys(query).length === 0;
      return {
        body: {
          data,
          query,
          meta: {
            count: data.length,
            limit,
            offset,
            has_more: data.length === limit,
            total: browse ? null : Math.min(hits.length, TOTAL_CAP),
            total_capped: hits.length > TOTAL_CAP,
          },
        },
      };
    },

    getPerson(req, { graph }) {
      const rec = requirePerson(graph, req.params.slug!);
      const include = new Set(String(req.query.include ?? "").split(",").map((s) => s.trim().toLowerCase()));
      const body: Record<string, unknown> = { data: fullPerson(rec) };
      if (include.has("coworkers")) {
        body.coworkers = coworkersOf(graph, rec).map((c) => rowPerson(c.record, c.match));
        body.stints = stintsOf(rec);
      }
      if (include.has("similar")) body.similar = similarTo(graph, rec).map((c) => rowPerson(c.record, c.match));
      return { body };
    },

    listPersonCoworkers(req, { graph }) {
      const rec = requirePerson(graph, req.params.slug!);
      return { body: { data: coworkersOf(graph, rec).map((c) => rowPerson(c.record, c.match)) } };
    },

    listSimilarPeople(req, { graph }) {
      const rec = requirePerson(graph, req.params.slug!);
      return { body: { data: similarTo(graph, rec).map((c) => rowPerson(c.record, c.match)) } };
    },
  },
};
