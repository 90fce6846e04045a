/** Company lookup, the company orbit and company search. */
import { echoInput } from "../../../contract-core/portable.js";
import type { Graph, PersonRecord } from "../data/graph.js";
import type { Company, Person } from "../data/resources.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { rowPerson } from "./views.js";
import { bareUrl } from "../data/urls.js";
import { faultOn } from "../data/proof-faults.js";

export const ORBIT_LIMIT = 40;

/** `a.localeCompare(b, "en")` (the same collator), created once. */
const BY_NAME = new Intl.Collator("en");

/**
 * The one company lookup (orbits, Targets): by key, exact name, domain (or a URL on it), or the company's
 * network URL; with `urlFragment` (the orbit's `company` value) a fragment of that URL also matches.
 */
export function findCompany(graph: Graph, value: string, { urlFragment = false } = {}): Company | undefined {
  const typed = value.trim().toLowerCase();
  const v = bareUrl(value);
  if (!v) return undefined;
  const host = v.split("/")[0]!;
  return (
    graph.companyByKey.get(typed) ??
    graph.companyByKey.get(v) ??
    graph.companies.find((c) => c.name.toLowerCase() === typed || c.name.toLowerCase() === v) ??
    graph.companies.find(
      (c) => c.domain !== null && (c.domain.toLowerCase() === v || c.domain.toLowerCase() === host),
    ) ??
    graph.companies.find((c) => c.network_url !== null && bareUrl(c.network_url) === v) ??
    (urlFragment
      ? graph.companies.find((c) => c.network_url !== null && c.network_url.toLowerCase().includes(typed))
      : undefined)
  );
}

export interface CompanyCounts {
  current_count: number;
  alum_count: number;
  role_mix: Record<string, number>;
}

/** Counts per graph and company key (the graph never changes, so each company is counted once). */
const countsCache = new WeakMap<Graph, Map<string, CompanyCounts>>();

/** Counts over the whole graph (flagged profiles included). A fresh object: callers may keep or change it. */
export function companyCounts(graph: Graph, company: Company): CompanyCounts {
  let cache = countsCache.get(graph);
  if (!cache) countsCache.set(graph, (cache = new Map()));
  let counts = cache.get(company.key);
  if (!counts) cache.set(company.key, (counts = countCompany(graph, company)));
  return { ...counts, role_mix: { ...counts.role_mix } };
}

function countCompany(graph: Graph, company: Company): CompanyCounts {
  const current = new Set<PersonRecord>();
  const alum = new Set<PersonRecord>();
  const roleMix: Record<string, number> = {};
  for (const { record, stint } of graph.stintsByCompany.get(company.key) ?? []) {
    if (stint.current) current.add(record);
    if (stint.alum) alum.add(record);
    if (stint.family) roleMix[stint.family] = (roleMix[stint.family] ?? 0) + 1;
  }
  return { current_count: current.size, alum_count: alum.size, role_mix: roleMix };
}

export interface Orbit {
  company: { key: string; name: string | null; network_url: string | null } & CompanyCounts;
  current: Person[];
  leavers: Person[];
}

/** Up to 40 current people and 40 leavers (normalized end date, is_current=false), graph order. */
export function companyOrbit(req: Answering<OperationsWith<"404", "not_found">>, graph: Graph, value: string): Orbit {
  const company = findCompany(graph, value, { urlFragment: true });
  if (!company) throw operationError(req.operationId, "404", "not_found", `No company found for ${echoInput(value)}`);
  const current: PersonRecord[] = [];
  const leavers: PersonRecord[] = [];
  for (const { record, stint } of graph.stintsByCompany.get(company.key) ?? []) {
    if (record.flagged) continue;
    if (stint.current && !current.includes(record)) current.push(record);
    if (stint.notCurrent && stint.end !== null && !leavers.includes(record)) leavers.push(record);
  }
  if (faultOn("orbit-leavers-exclude-current"))
    leavers.splice(0, leavers.length, ...leavers.filter((r) => !current.includes(r)));
  const rows = (list: PersonRecord[]) =>
    list
      .sort((a, b) => a.idx - b.idx)
      .slice(0, ORBIT_LIMIT)
      .map((r) => rowPerson(r, {}));
  return {
    company: {
      key: company.key,
      name: company.name,
      network_url: company.network_url,
      ...companyCounts(graph, company),
    },
    current: rows(current),
    leavers: rows(leavers),
  };
}

/** Companies whose name, key or URL contains q (all companies without q), by current headcount then name. */
export function searchCompanies(graph: Graph, q: string | null): { company: Company; counts: CompanyCounts }[] {
  const needle = q?.trim().toLowerCase() ?? "";
  return graph.companies
    .filter(
      (c) =>
        !needle ||
        c.name.toLowerCase().includes(needle) ||
        c.key.includes(needle) ||
        (c.network_url?.toLowerCase().includes(needle) ?? false),
    )
    .map((company) => ({ company, counts: companyCounts(graph, company) }))
    .sort((a, b) => b.counts.current_count - a.counts.current_count || BY_NAME.compare(a.company.name, b.company.name));
}
