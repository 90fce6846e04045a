/** GET /people, GET /people/{slug}, GET /people/{slug}/coworkers, GET /people/{slug}/similar */
import { jsonBytes, type Area, type ResponseBody } from "../context.js";
import { coworkersOf, requirePerson, similarTo, stintsOf } from "../domain/people.js";
import { parseSearch, searchPage } from "../domain/search.js";
import { Utf8Chunks } from "../domain/utf8-chunks.js";
import { compactPerson, fullPerson, rowPerson, writeRowPerson } from "../domain/views.js";

/** Totals above this are reported capped (total_capped: true). */
export const TOTAL_CAP = 10_000;

export const peopleArea = {
  name: "people",
  handlers: {
    searchPeople(req, { graph }) {
      const { query, filters, view, limit, offset } = parseSearch(req.query, graph);
      // Counting stops past the cap: the answer says only that the total is above it.
      const { total, hits: page } = searchPage(graph, filters, offset, limit, TOTAL_CAP + 1);
      const hydrate = {
        skills: filters.skills !== null,
        languages: filters.languages !== null || filters.excludeLanguages.length > 0,
        certifications: filters.certifications !== null,
      };
      // The body is the UTF-8 JSON of { data, query, meta }: full rows copy their cached bytes around the match.
      const out = new Utf8Chunks().text(`{"data":[`);
      page.forEach((h, i) => {
        if (i > 0) out.text(",");
        if (view === "compact") out.text(JSON.stringify(compactPerson(h.record, h.match)));
        else writeRowPerson(out, h.record, h.match, hydrate);
      });
      const browse = Object.keys(query).length === 0;
      const meta = {
        count: page.length,
        limit,
        offset,
        has_more: page.length === limit,
        total: browse ? null : Math.min(total, TOTAL_CAP),
        total_capped: total > TOTAL_CAP,
      };
      out.text(`],"query":${JSON.stringify(query)},"meta":${JSON.stringify(meta)}}`);
      return { body: jsonBytes<ResponseBody<"searchPeople", 200>>(out.finish()) };
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
} satisfies Area;
