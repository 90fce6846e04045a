/** GET /suggest: typeahead over certifications (title, key, count, optional authority) and companies. */
import type { Area } from "../contract/context.js";
import type { Graph } from "../data/graph.js";

const SUGGEST_LIMIT = 10;

interface CertificationSuggestion {
  type: "certification";
  title: string;
  key: string;
  count: number;
  authority?: string;
}

/** Certifications whose name or authority contains q; count = distinct visible unflagged holders. */
function certificationSuggestions(graph: Graph, q: string): CertificationSuggestion[] {
  const byKey = new Map<string, { title: string; holders: Set<number>; authorities: Map<string, number> }>();
  for (const rec of graph.people) {
    if (rec.flagged) continue;
    for (const c of rec.certifications) {
      if (q && !c.name.toLowerCase().includes(q) && !(c.authority?.toLowerCase().includes(q) ?? false)) continue;
      const key = c.name.trim().toLowerCase().replace(/\s+/g, " ");
      let entry = byKey.get(key);
      if (!entry) byKey.set(key, (entry = { title: c.name, holders: new Set(), authorities: new Map() }));
      entry.holders.add(rec.idx);
      if (c.authority) entry.authorities.set(c.authority, (entry.authorities.get(c.authority) ?? 0) + 1);
    }
  }
  return [...byKey.entries()]
    .map(([key, e]) => {
      const authority = [...e.authorities.entries()].sort(
        (a, b) => b[1] - a[1] || a[0].localeCompare(b[0], "en"),
      )[0]?.[0];
      const s: CertificationSuggestion = { type: "certification", title: e.title, key, count: e.holders.size };
      if (authority) s.authority = authority;
      return s;
    })
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key, "en"))
    .slice(0, SUGGEST_LIMIT);
}

function companySuggestions(graph: Graph, q: string) {
  if (!q) return [];
  return graph.companies
    .filter((c) => c.name.toLowerCase().includes(q))
    .slice(0, SUGGEST_LIMIT)
    .map((c) => ({
      type: "company" as const,
      title: c.name,
      key: c.key,
      count: new Set(
        (graph.stintsByCompany.get(c.key) ?? [])
          .filter((s) => s.stint.current && !s.record.flagged)
          .map((s) => s.record.idx),
      ).size,
    }));
}

export const suggestArea = {
  name: "suggest",
  handlers: {
    suggest(req, { graph }) {
      const q = String(req.query.q ?? "")
        .trim()
        .toLowerCase();
      return { body: { data: [...certificationSuggestions(graph, q), ...companySuggestions(graph, q)] } };
    },
  },
} satisfies Area;
