/**
 * `npm run trace`: splits the API reference into statements, joins them with spec/trace.yaml and writes
 * dist/trace/trace.json and dist/docs/trace.html; prints each untraced or outdated statement and one line of
 * totals. Exit code 1 when a statement is untraced or outdated.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { stringify } from "yaml";
import {
  InputError,
  REPO_ROOT,
  escapeLogText,
  isMain,
  loadSpec,
  runCommand,
  usageError,
  type CommandSpec,
} from "../../contract-core/index.js";
import { renderTracePage } from "./page.js";
import { splitReference } from "./statements.js";
import {
  TRACE_FILE,
  buildTrace,
  loadTrace,
  totalsLine,
  traceFailed,
  type TraceEntry,
  type TraceReport,
} from "./trace.js";
import { newlyUnproven, proveEntries, shardOf, vitestRunner, type ProofReport } from "./prove.js";

/** The reference CI keeps beside the repository, used when neither --reference nor the variable names one. */
export const BESIDE_REFERENCE = resolve(REPO_ROOT, "../shared/contract/talent-graph-api.md");
export const REFERENCE_ENV = "TALENT_GRAPH_REFERENCE";

export const TRACE_COMMAND: CommandSpec = {
  name: "npm run trace",
  summary:
    "Traces every statement of the API reference to the spec elements that encode it and the checks that prove " +
    "it (spec/trace.yaml); writes dist/trace/trace.json and dist/docs/trace.html.",
  options: {
    reference: {
      type: "string",
      value: "<file>",
      env: REFERENCE_ENV,
      description: "the API reference (Markdown); default: the copy beside the repository, when there is one",
    },
    trace: { type: "string", value: "<file>", default: TRACE_FILE, description: "the trace file" },
    spec: {
      type: "string",
      value: "<file>",
      env: "SPEC",
      default: "generated/openapi.json",
      description: "the bundle",
    },
    out: { type: "string", value: "<dir>", default: "dist/trace", description: "folder for trace.json" },
    page: { type: "string", value: "<file>", default: "dist/docs/trace.html", description: "the trace page" },
    "no-reference": { type: "boolean", description: "check without a reference: pointers and checks, not quotes" },
    "add-missing": {
      type: "boolean",
      description: "append an entry (id and quote, to fill in) for each statement without one",
    },
    prove: {
      type: "boolean",
      description:
        "prove each traced entry: break what its spec pointers encode (and switch on its fault), run its test checks, which must fail; writes proof.json",
    },
    only: {
      type: "string",
      value: "<ids>",
      description: "with --prove: these entries (comma-separated ids or id prefixes)",
    },
    shard: { type: "string", value: "<i/n>", description: "with --prove: the i-th of n slices of the entries (CI)" },
  },
  notes: ["Without a reference the trace file's entries are checked (pointers, checks), not their quotes."],
};

export interface TraceRun {
  report: TraceReport;
  bundle: unknown;
  /** Which reference was read, or undefined. */
  referencePath?: string;
}

/** The reference to read: the flag, else the variable, else the copy beside the repository when present. */
export function referencePath(flag: unknown, env = process.env): string | undefined {
  if (typeof flag === "string" && flag) return resolve(flag);
  const fromEnv = env[REFERENCE_ENV];
  if (fromEnv) return resolve(fromEnv);
  return existsSync(BESIDE_REFERENCE) ? BESIDE_REFERENCE : undefined;
}

export function runTrace(opts: { reference?: string; trace?: string; spec?: string; root?: string }): TraceRun {
  const root = opts.root ?? REPO_ROOT;
  const traceFile = resolve(root, opts.trace ?? TRACE_FILE);
  const bundle = loadSpec(resolve(root, opts.spec ?? "generated/openapi.json"));
  let reference: string | undefined;
  if (opts.reference !== undefined) {
    if (!existsSync(opts.reference)) throw new InputError(`reference not found: ${opts.reference}`);
    reference = readFileSync(opts.reference, "utf8");
  }
  const report = buildTrace({ root, entries: loadTrace(traceFile), bundle, reference });
  return { report, bundle, ...(opts.reference ? { referencePath: opts.reference } : {}) };
}

/** The lines printed for the statements that fail, then the totals. */
export function reportLines(report: TraceReport): string[] {
  const lines: string[] = [];
  for (const s of report.statements)
    if (s.status === "untraced" || s.status === "outdated")
      // Quotes and ids come from trace.yaml: printed with their control characters shown, never sent.
      lines.push(escapeLogText(`✘ ${s.status} ${s.id}${s.quote ? ` ("${s.quote}")` : ""}: ${s.problems.join("; ")}`));
  lines.push(`${traceFailed(report) ? "✘" : "✔"} trace: ${totalsLine(report)}`);
  return lines;
}

/** Appends an entry for each statement of `reference` without one, quoting its first words. */
export function addMissing(traceFile: string, reference: string): number {
  const text = readFileSync(traceFile, "utf8");
  const known = new Set(loadTrace(traceFile).map((e) => e.id));
  const missing = splitReference(reference).filter((s) => !known.has(s.id));
  if (missing.length === 0) return 0;
  const entries = missing.map((s) => ({
    id: s.id,
    quote: s.text.split(" ").slice(0, 10).join(" "),
    spec: [],
    checks: [],
  }));
  const block = stringify(entries, { lineWidth: 0 })
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
  writeFileSync(traceFile, `${text.trimEnd()}\n${block}`);
  return missing.length;
}

/** The entries `--only` names (ids or id prefixes, comma-separated); all without it. */
export function selectEntries(entries: TraceEntry[], only?: string, shard?: string): TraceEntry[] {
  const wanted = only
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  let list = wanted ? entries.filter((e) => wanted.some((w) => e.id === w || e.id.startsWith(w))) : entries;
  if (shard) list = shardOf(list, shard);
  return list;
}

/** The lines printed for a proof: each unproven entry with its surviving mutations, then the totals. */
export function proofLines(report: ProofReport): string[] {
  const lines: string[] = [];
  for (const p of report.entries)
    if (p.status === "unproven")
      lines.push(
        `${p.acknowledged ? "!" : "✘"} unproven ${p.id}: ${p.problems.join("; ")}${p.acknowledged ? ` (known: ${p.acknowledged})` : ""}`,
      );
  const t = report.totals;
  lines.push(
    `${newlyUnproven(report).length > 0 ? "✘" : "✔"} prove: ${t.entries} entries: ${t.proven} proven, ${t.unproven} unproven` +
      ` (${t.acknowledged} known); ${t.mutations} mutations and faults in ${t.runs} runs, ${report.seconds.toFixed(0)} s`,
  );
  return lines;
}

if (isMain(import.meta.url))
  await runCommand(TRACE_COMMAND, async ({ values }) => {
    const reference = values["no-reference"] === true ? undefined : referencePath(values.reference);
    const traceFile = resolve(String(values.trace));
    if (values["add-missing"] === true) {
      if (!reference) throw usageError(TRACE_COMMAND, "--add-missing needs a reference (--reference <file>)");
      const added = addMissing(traceFile, readFileSync(reference, "utf8"));
      console.log(`added ${added} entries to ${relative(process.cwd(), traceFile)}`);
    }
    const { report, bundle } = runTrace({ reference, trace: traceFile, spec: String(values.spec) });
    if (values.prove === true) {
      const entries = selectEntries(
        loadTrace(traceFile),
        typeof values.only === "string" ? values.only : undefined,
        typeof values.shard === "string" ? values.shard : undefined,
      );
      const proof = await proveEntries({
        bundle,
        entries,
        run: vitestRunner(REPO_ROOT),
        onEntry: (p, done, total) =>
          process.stderr.write(`${done}/${total} ${p.status === "proven" ? "✔" : "✘"} ${p.id}\n`),
      });
      const out = resolve(String(values.out));
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, "proof.json"), `${JSON.stringify(proof, null, 2)}\n`);
      for (const line of proofLines(proof)) console.log(line);
      // Vitest sets the exit code of the runs it made; the answer is the proof's.
      process.exitCode = 0;
      return newlyUnproven(proof).length > 0 || traceFailed(report) ? 1 : 0;
    }
    if (!reference)
      console.log(
        `No API reference found (--reference, ${REFERENCE_ENV}, or a copy beside the repository): checked pointers and checks of every entry, not the quotes.`,
      );
    const out = resolve(String(values.out));
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "trace.json"), `${JSON.stringify(report, null, 2)}\n`);
    const page = resolve(String(values.page));
    mkdirSync(dirname(page), { recursive: true });
    writeFileSync(page, renderTracePage(report, bundle as Parameters<typeof renderTracePage>[1]));
    for (const line of reportLines(report)) console.log(line);
    return traceFailed(report) ? 1 : 0;
  });
