/** Person lookup, coworkers (overlapping stints at shared companies) and similar people. */
import { echoInput } from "../../../contract-core/portable.js";
import type { Graph, PersonRecord, Stint } from "../data/graph.js";
import { searchIndexOf } from "./search-index.js";
import type { Match } from "../data/resources.js";
import { operationError, type Answering, type OperationsWith } from "../contract/errors.js";
import { monthToString } from "../data/dates.js";
import { normalizeProfileUrl } from "../data/urls.js";

/** By slug (case-insensitive) or by profile URL (already URL-decoded). */
export function findPerson(graph: Graph, slugOrUrl: string): PersonRecord | undefined {
  const value = slugOrUrl.trim();
  const bySlug = graph.bySlug.get(value.toLowerCase());
  if (bySlug) return bySlug;
  const url = normalizeProfileUrl(value);
  return url ? graph.byUrl.get(url) : undefined;
}

/** The person, or the 404 of the operation `req` answers (one that documents it). */
export function requirePerson(
  req: Answering<OperationsWith<"404", "not_found">>,
  graph: Graph,
  slugOrUrl: string,
): PersonRecord {
  const rec = findPerson(graph, slugOrUrl);
  if (!rec) throw operationError(req.operationId, "404", "not_found", `No person found for ${echoInput(slugOrUrl)}`);
  return rec;
}

export const MAX_COWORKERS = 50;
export const MAX_SIMILAR = 10;

export interface Coworker {
  record: PersonRecord;
  match: Match;
}

/** The overlap of two stints in months [from, to]; to = null when both are ongoing. */
function overlap(a: Stint, b: Stint, todayMonth: number): { from: number; to: number | null; months: number } | null {
  if (a.start === null || b.start === null) return null;
  // An ended stint without an end date cannot be placed in time (a current stint has no end).
  if ((a.end === null && !a.current) || (b.end === null && !b.current)) return null;
  const from = Math.max(a.start, b.start);
  const to = a.end === null ? b.end : b.end === null ? a.end : Math.min(a.end, b.end);
  const months = (to ?? todayMonth) - from + 1;
  return months > 0 ? { from, to, months } : null;
}

/** People whose stints at a shared company overlap this person's, longest overlap first. */
export function coworkersOf(graph: Graph, rec: PersonRecord): Coworker[] {
  const best = new Map<PersonRecord, Coworker & { months: number }>();
  for (const mine of rec.stints) {
    if (!mine.company) continue;
    for (const { record, stint } of graph.stintsByCompany.get(mine.company.key) ?? []) {
      if (record === rec || record.flagged) continue;
      const o = overlap(mine, stint, graph.todayMonth);
      if (!o || (best.get(record)?.months ?? 0) >= o.months) continue;
      best.set(record, {
        record,
        months: o.months,
        match: {
          overlap_company: mine.company.name,
          overlap_months: o.months,
          overlap_from: monthToString(o.from),
          overlap_to: o.to === null ? null : monthToString(o.to),
          title_during: stint.title,
        },
      });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.months - a.months || a.record.idx - b.record.idx)
    .slice(0, MAX_COWORKERS)
    .map(({ record, match }) => ({ record, match }));
}

/** The person's own stints used for the overlaps (GET /people/{slug}?include=coworkers). */
export function stintsOf(rec: PersonRecord) {
  return rec.stints.map((s) => ({
    company: s.companyName,
    company_key: s.company?.key ?? null,
    title: s.title,
    from: s.start === null ? null : monthToString(s.start),
    to: s.end === null ? null : monthToString(s.end),
    is_current: s.current,
    months: s.months,
  }));
}

function currentFamily(rec: PersonRecord): string | null {
  return rec.stints.find((s) => s.current)?.family ?? rec.stints[0]?.family ?? null;
}

/**
 * The people sharing at least two skills with the person (counted as `similarTo` counts them), in graph
 * order: without two shared skills the score stays below the threshold (3 + 2 + 1 < 7).
 */
function sharingTwoSkills(graph: Graph, skills: ReadonlySet<string>): PersonRecord[] {
  const holders = searchIndexOf(graph).skillHolders();
  const shared = new Int32Array(graph.people.length);
  const out: number[] = [];
  for (const skill of skills) {
    for (const idx of holders.get(skill) ?? []) if (++shared[idx]! === 2) out.push(idx);
  }
  return out.sort((a, b) => a - b).map((idx) => graph.people[idx]!);
}

/** Shared graph signals: role family, skills, employers, country. Can be empty. */
export function similarTo(graph: Graph, rec: PersonRecord): Coworker[] {
  return similarAmong(rec, sharingTwoSkills(graph, new Set(rec.skillsLc)));
}

/** The similar people among the candidates (given in graph order); similarTo passes only those who can score. */
export function similarAmong(rec: PersonRecord, candidates: Iterable<PersonRecord>): Coworker[] {
  const family = currentFamily(rec);
  const skills = new Set(rec.skillsLc);
  const companies = new Set(rec.stints.map((s) => s.company?.key).filter((k): k is string => !!k));
  const country = rec.country;
  const scored: { record: PersonRecord; score: number; reasons: string[] }[] = [];
  for (const other of candidates) {
    if (other === rec || other.flagged) continue;
    const reasons: string[] = [];
    let score = 0;
    if (family !== null && currentFamily(other) === family) {
      score += 3;
      reasons.push(`Same role family: ${family}`);
    }
    const sharedSkills = other.skillsLc.filter((s) => skills.has(s)).length;
    if (sharedSkills >= 2) {
      score += sharedSkills;
      reasons.push(`${sharedSkills} shared skills`);
    }
    const sharedCompany = other.stints.find((s) => s.company && companies.has(s.company.key));
    if (sharedCompany) {
      score += 2;
      reasons.push(`Also worked at ${sharedCompany.company!.name}`);
    }
    if (country !== null && other.country === country) {
      score += 1;
      reasons.push(`Same country: ${country}`);
    }
    if (score >= 7) scored.push({ record: other, score, reasons });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.record.idx - b.record.idx)
    .slice(0, MAX_SIMILAR)
    .map(({ record, score, reasons }) => ({ record, match: { score: score / 20, reasons } }));
}
