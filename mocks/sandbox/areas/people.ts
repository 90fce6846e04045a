/** GET /people, GET /people/{slug}, GET /people/{slug}/coworkers, GET /people/{slug}/similar */
import type { Area, ResponseBody } from "../contract/context.js";
import { parameterValue } from "../contract/spec-values.js";
import { coworkersOf, requirePerson, similarTo, stintsOf } from "../domain/people.js";
import { parseSearch, searchPage } from "../domain/search.js";
import { compactPerson, fullPerson, rowPerson } from "../domain/views.js";

/** Totals above this are reported capped (total_capped: true). */
const TOTAL_CAP = 10_000;

export const peopleArea = {
  name: "people",
  handlers: {
    searchPeople(req, { graph, spec }) {
      const { query, filters } = parseSearch(req.query, graph);
      const view = parameterValue(spec, "searchPeople", "view", req.query);
      const limit = parameterValue(spec, "searchPeople", "limit", req.query);
      const offset = parameterValue(spec, "searchPeople", "offset", req.query);
      // Counting stops past the cap: the answer says only that the total is above it.
      const { total, hits: page } = searchPage(graph, filters, offset, limit, TOTAL_CAP + 1);
      const hydrate = {
        skills: filters.skills !== null,
        languages: filters.languages !== null || filters.excludeLanguages.length > 0,
        certifications: filters.certifications !== null,
      };
      const browse = Object.keys(query).length === 0;
      const body: ResponseBody<"searchPeople", 200> = {
        data:
          view === "compact"
            ? page.map((h) => compactPerson(h.record, h.match))
            : page.map((h) => rowPerson(h.record, h.match, hydrate)),
        // The effective query holds only spec parameters with values of their types (validated, or from nl).
        query: query as ResponseBody<"searchPeople", 200>["query"],
        meta: {
          count: page.length,
          limit,
          offset,
          has_more: page.length === limit,
          total: browse ? null : Math.min(total, TOTAL_CAP),
          total_capped: total > TOTAL_CAP,
        },
      };
      return { body };
    },

    getPerson(req, { graph }) {
      const rec = requirePerson(req, graph, req.params.slug);
      const include = new Set(
        String(req.query.include ?? "")
          .split(",")
          .map((s) => s.trim().toLowerCase()),
      );
      const body: ResponseBody<"getPerson", 200> = { data: fullPerson(rec) };
      if (include.has("coworkers")) {
        body.coworkers = coworkersOf(graph, rec).map((c) => rowPerson(c.record, c.match));
        body.stints = stintsOf(rec);
      }
      if (include.has("similar")) body.similar = similarTo(graph, rec).map((c) => rowPerson(c.record, c.match));
      return { body };
    },

    listPersonCoworkers(req, { graph }) {
      const rec = requirePerson(req, graph, req.params.slug);
      return { body: { data: coworkersOf(graph, rec).map((c) => ({ ...rowPerson(c.record, c.match) })) } };
    },

    listSimilarPeople(req, { graph }) {
      const rec = requirePerson(req, graph, req.params.slug);
      return { body: { data: similarTo(graph, rec).map((c) => ({ ...rowPerson(c.record, c.match) })) } };
    },
  },
} satisfies Area;
