/** GET /people, GET /people/{slug}, GET /people/{slug}/coworkers, GET /people/{slug}/similar */
import { jsonText, type Area, type ResponseBody } from "../context.js";
import { coworkersOf, requirePerson, similarTo, stintsOf } from "../domain/people.js";
import { parseSearch, searchPage } from "../domain/search.js";
import { compactPerson, fullPerson, rowPerson, rowPersonJson } from "../domain/views.js";

/** A body that is already JSON text goes out as is, with the type Fastify gives serialized objects. */
const JSON_TEXT = { "content-type": "application/json; charset=utf-8" };

/** Totals above this are reported capped (total_capped: true). */
export const TOTAL_CAP = 10_000;

export const peopleArea: Area = {
  name: "people",
  handlers: {
    searchPeople(req, { graph }) {
      const { query, filters, view, limit, offset } = parseSearch(req.query, graph);
      const { total, hits: page } = searchPage(graph, filters, offset, limit);
      const hydrate = {
        skills: filters.skills !== null,
        languages: filters.languages !== null || filters.excludeLanguages.length > 0,
        certifications: filters.certifications !== null,
      };
      // Rows as JSON text (full rows reuse their serialized form): the body is the JSON of { data, query, meta }.
      const rows = page.map((h) =>
        view === "compact"
          ? JSON.stringify(compactPerson(h.record, h.match))
          : rowPersonJson(h.record, h.match, hydrate),
      );
      const browse = Object.keys(query).length === 0;
      const meta = {
        count: rows.length,
        limit,
        offset,
        has_more: rows.length === limit,
        total: browse ? null : Math.min(total, TOTAL_CAP),
        total_capped: total > TOTAL_CAP,
      };
      const body = `{"data":[${rows.join(",")}],"query":${JSON.stringify(query)},"meta":${JSON.stringify(meta)}}`;
      return { body: jsonText<ResponseBody<"searchPeople", 200>>(body), headers: JSON_TEXT };
    },

    getPerson(req, { graph }) {
      const rec = requirePerson(graph, req.params.slug);
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
      const rec = requirePerson(graph, req.params.slug);
      return { body: { data: coworkersOf(graph, rec).map((c) => ({ ...rowPerson(c.record, c.match) })) } };
    },

    listSimilarPeople(req, { graph }) {
      const rec = requirePerson(graph, req.params.slug);
      return { body: { data: similarTo(graph, rec).map((c) => ({ ...rowPerson(c.record, c.match) })) } };
    },
  },
};
