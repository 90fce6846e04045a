/**
 * The trace: each statement of the API reference joined with its entry in spec/trace.yaml, the entry's spec
 * pointers resolved in the bundle and its checks found in the repository. Statuses (README.md):
 *   traced       the entry's quote is in the statement, it names spec pointers and checks, and all of them exist;
 *   informative  the entry says in one line why the statement is not part of the contract;
 *   untraced     no entry, or an entry without a spec pointer or a check;
 *   outdated     an entry whose statement is gone or whose quote is no longer in it, or a pointer that no longer
 *                resolves, or a check that no longer exists.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { PROOF_FAULT_NAMES } from "../../mocks/sandbox/data/proof-faults.js";
import { normalise, splitReference, type Statement } from "./statements.js";

export type Status = "traced" | "informative" | "untraced" | "outdated";
export const STATUSES: readonly Status[] = ["traced", "informative", "untraced", "outdated"];

export interface TraceEntry {
  id: string;
  quote: string;
  spec?: string[];
  checks?: string[];
  informative?: string;
  /**
   * A behaviour statement's proof fault (mocks/sandbox/data/proof-faults.ts): prove mode switches it on and the
   * checks must fail.
   */
  fault?: string;
  /** A known gap, reviewed: why prove cannot prove the entry yet (the gate then does not fail on it). */
  unproven?: string;
}

export interface TracedStatement {
  id: string;
  quote: string;
  section: string;
  status: Status;
  spec: string[];
  checks: string[];
  informative?: string;
  /** Why the statement is untraced or outdated. */
  problems: string[];
}

export interface TraceReport {
  /** Whether quotes were checked against a reference. */
  reference: boolean;
  totals: Record<Status, number> & { statements: number };
  statements: TracedStatement[];
}

export const TRACE_FILE = "spec/trace.yaml";

/** Reads spec/trace.yaml: `statements:` a list of entries. Throws naming the file on a malformed entry. */
export function loadTrace(file: string): TraceEntry[] {
  return parseTrace(readFileSync(file, "utf8"), file);
}

/** The entries of a trace file's text; `file` names it in the errors. */
export function parseTrace(text: string, file: string): TraceEntry[] {
  const doc = parse(text) as { statements?: unknown } | null;
  const list = doc?.statements;
  if (!Array.isArray(list)) throw new Error(`${file}: expected a top-level "statements" list`);
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const e = raw as Partial<TraceEntry>;
    const where = `${file}: statements[${i}]`;
    if (typeof e?.id !== "string" || typeof e.quote !== "string" || e.quote.trim() === "")
      throw new Error(`${where}: an entry needs an id and a quote`);
    if (seen.has(e.id)) throw new Error(`${where}: id ${e.id} appears twice`);
    seen.add(e.id);
    for (const key of ["spec", "checks"] as const)
      if (e[key] !== undefined && !(Array.isArray(e[key]) && e[key].every((v) => typeof v === "string")))
        throw new Error(`${where} (${e.id}): ${key} must be a list of strings`);
    for (const key of ["informative", "fault", "unproven"] as const)
      if (e[key] !== undefined && (typeof e[key] !== "string" || e[key].trim() === ""))
        throw new Error(`${where} (${e.id}): ${key} must be a one-line ${key === "fault" ? "fault name" : "reason"}`);
    if (e.fault !== undefined && !(PROOF_FAULT_NAMES as readonly string[]).includes(e.fault))
      throw new Error(`${where} (${e.id}): fault ${e.fault} is not a proof fault (${PROOF_FAULT_NAMES.join(", ")})`);
    return e as TraceEntry;
  });
}

/**
 * A parameter named in a pointer by where it goes and its name, not by its place in the list:
 * `/paths/~1people/get/parameters/query:skills`. A parameter inserted before it leaves the pointer on it.
 */
const NAMED_PARAMETER = /^(query|path|header|cookie):(.+)$/;

/** The element of a `parameters` list that is the parameter `in`/`name` (a `$ref` to one followed), or undefined. */
function namedParameter(doc: unknown, list: unknown[], where: string, name: string): unknown {
  const found = list.filter((p) => {
    let node = p as { $ref?: unknown; in?: unknown; name?: unknown } | null;
    for (let hops = 0; typeof node?.$ref === "string" && hops < 8; hops++) node = atPointer(doc, node.$ref) as never;
    return node?.in === where && node.name === name;
  });
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The value at a JSON pointer (RFC 6901, with or without a leading `#`), or undefined. Inside a `parameters`
 * list a parameter is named `<in>:<name>` (NAMED_PARAMETER); a position there (`parameters/3`) resolves to
 * nothing, so an entry written that way is outdated and says why (`positionalParameter`).
 */
export function atPointer(doc: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, "");
  if (path === "") return doc;
  if (!path.startsWith("/")) return undefined;
  let node: unknown = doc;
  let parent = "";
  for (const raw of path.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (parent === "parameters" && Array.isArray(node)) {
      const named = NAMED_PARAMETER.exec(token);
      node = named ? namedParameter(doc, node, named[1]!, named[2]!) : undefined;
      if (node === undefined) return undefined;
    } else {
      if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    }
    parent = token;
  }
  return node;
}

/** The problem of a pointer that names a parameter by its position, or undefined. */
export function positionalParameter(pointer: string): string | undefined {
  return /\/parameters\/\d+(\/|$)/.test(pointer)
    ? `pointer ${pointer} names a parameter by its position: name it <in>:<name> (parameters/query:limit)`
    : undefined;
}

const testTitle = (source: string, title: string) =>
  [`"${title}"`, `'${title}'`, `\`${title}\``].some((quoted) => source.includes(quoted));

/**
 * Whether a named check exists: `<file> > <test or describe title>` (the title as a string literal in the file),
 * `lint:<rule>` (a house rule of scripts/lint/ruleset.ts), `workflow:<file>#<stepId>`, `recording:<path>`.
 * Returns the problem, or undefined.
 */
export function checkProblem(
  root: string,
  check: string,
  read = (f: string) => readFileSync(f, "utf8"),
): string | undefined {
  const lint = /^lint:(.+)$/.exec(check);
  if (lint) {
    const rules = read(join(root, "scripts/lint/ruleset.ts"));
    return rules.includes(`"${lint[1]}"`) ? undefined : `lint rule ${lint[1]} not found in scripts/lint/ruleset.ts`;
  }
  const workflow = /^workflow:([^#]+)#(.+)$/.exec(check);
  if (workflow) {
    const file = join(root, workflow[1]!);
    // An id is matched as written, never as a pattern: Arazzo's ids are [A-Za-z0-9_-]+, anything else is refused.
    if (!/^[A-Za-z0-9_-]+$/.test(workflow[2]!))
      return `${JSON.stringify(workflow[2])} in ${check} is not a step or workflow id (letters, digits, _ and -)`;
    if (!existsSync(file)) return `workflow file ${workflow[1]} not found`;
    const ids = read(file)
      .split(/\r?\n/)
      .map((line) => /(?:stepId|workflowId): (\S+)\s*$/.exec(line)?.[1]);
    return ids.includes(workflow[2]) ? undefined : `step ${workflow[2]} not found in ${workflow[1]}`;
  }
  const recording = /^recording:(.+)$/.exec(check);
  if (recording) return existsSync(join(root, recording[1]!)) ? undefined : `recording ${recording[1]} not found`;
  const test = /^(\S+\.test\.ts) > (.+)$/.exec(check);
  if (test) {
    const file = join(root, test[1]!);
    if (!existsSync(file)) return `test file ${test[1]} not found`;
    return testTitle(read(file), test[2]!) ? undefined : `test "${test[2]}" not found in ${test[1]}`;
  }
  return `"${check}" is not a check (a test "<file> > <title>", lint:<rule>, workflow:<file>#<step>, recording:<path>)`;
}

export interface TraceInput {
  root: string;
  entries: TraceEntry[];
  /** The bundle the pointers resolve in. */
  bundle: unknown;
  /** The reference's text; without it the entries are the statements and quotes are not checked. */
  reference?: string;
}

export function buildTrace({ root, entries, bundle, reference }: TraceInput): TraceReport {
  const cache = new Map<string, string>();
  const read = (f: string) => cache.get(f) ?? (cache.set(f, readFileSync(f, "utf8")).get(f) as string);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const judge = (entry: TraceEntry | undefined, section: string, id: string, text?: string): TracedStatement => {
    const problems: string[] = [];
    if (!entry)
      return { id, quote: "", section, status: "untraced", spec: [], checks: [], problems: ["no trace entry"] };
    const spec = entry.spec ?? [];
    const checks = entry.checks ?? [];
    let outdated = false;
    if (text !== undefined && !normalise(text).includes(normalise(entry.quote))) {
      problems.push("the quote is no longer in the statement");
      outdated = true;
    }
    for (const p of spec) {
      const positional = positionalParameter(p);
      if (positional || atPointer(bundle, p) === undefined) {
        problems.push(positional ?? `pointer ${p} does not resolve in the bundle`);
        outdated = true;
      }
    }
    for (const c of checks) {
      const problem = checkProblem(root, c, read);
      if (problem) {
        problems.push(problem);
        outdated = true;
      }
    }
    let status: Status;
    if (outdated) status = "outdated";
    else if (entry.informative) status = "informative";
    else if (spec.length === 0 || checks.length === 0) {
      status = "untraced";
      problems.push(spec.length === 0 ? "no spec pointer" : "no check");
    } else status = "traced";
    return {
      id,
      quote: entry.quote,
      section,
      status,
      spec,
      checks,
      ...(entry.informative ? { informative: entry.informative } : {}),
      problems,
    };
  };

  let statements: TracedStatement[];
  if (reference !== undefined) {
    const found: Statement[] = splitReference(reference);
    const ids = new Set(found.map((s) => s.id));
    statements = found.map((s) => judge(byId.get(s.id), s.section, s.id, s.text));
    // Entries whose statement is gone: outdated, after the statements of the reference.
    for (const e of entries)
      if (!ids.has(e.id)) {
        const section = e.id.split("/")[0] ?? "";
        const judged = judge(e, section, e.id);
        statements.push({
          ...judged,
          status: "outdated",
          problems: ["the statement is no longer in the reference", ...judged.problems],
        });
      }
  } else statements = entries.map((e) => judge(e, e.id.split("/")[0] ?? "", e.id));

  const totals = { statements: statements.length, traced: 0, informative: 0, untraced: 0, outdated: 0 };
  for (const s of statements) totals[s.status] += 1;
  return { reference: reference !== undefined, totals, statements };
}

/** One line: `416 statements: 380 traced, 30 informative (7.2%), 0 untraced, 0 outdated`. */
export function totalsLine(report: TraceReport): string {
  const t = report.totals;
  const share = t.statements === 0 ? 0 : (100 * t.informative) / t.statements;
  return (
    `${t.statements} statements: ${t.traced} traced, ${t.informative} informative (${share.toFixed(1)}%), ` +
    `${t.untraced} untraced, ${t.outdated} outdated`
  );
}

export const traceFailed = (report: TraceReport) => report.totals.untraced > 0 || report.totals.outdated > 0;
