// Generates the per-operation list of the spec's named examples (what `Prefer: example=<name>` can
// pick on the mock) as Markdown.
//
//   npm run ts -- scripts/examples-list.ts            # writes mocks/prism/EXAMPLES.md from generated/openapi.json
//   npm run ts -- scripts/examples-list.ts --check    # exit 1 when the file is stale (drift check)
//   options: --spec <openapi.json|yaml>  --out <file.md>
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_SPEC_PATH,
  REPO_ROOT,
  deref,
  listOperations,
  loadSpec,
  serverBasePath,
} from "../contract-core/index.js";

type Json = Record<string, unknown>;

export const DEFAULT_OUT = `${REPO_ROOT}/mocks/prism/EXAMPLES.md`;

/** Follows local `$ref`s (`#/components/...`); an unresolved one is an error. */
const derefJson = (doc: Json, value: unknown): Json => deref<Json | null>(doc, value, { strict: true }) ?? {};

export interface Row {
  status: string;
  media: string;
  name: string | null;
  summary: string;
}

/** One documented response: its rows, and the shared component it points to, if any. */
export interface ResponseEntry {
  status: string;
  shared: string | null;
  rows: Row[];
}

const SHARED_RESPONSE = /^#\/components\/responses\/(.+)$/;

export function responsesOf(doc: Json, operation: Json): ResponseEntry[] {
  return Object.entries((operation.responses ?? {}) as Json).map(([status, ref]) => {
    const shared = SHARED_RESPONSE.exec(String((ref as Json).$ref ?? ""))?.[1] ?? null;
    const rows: Row[] = [];
    const content = (derefJson(doc, ref).content ?? {}) as Json;
    if (Object.keys(content).length === 0) rows.push({ status, media: "", name: null, summary: "" });
    for (const [media, mediaRef] of Object.entries(content)) {
      const mediaObject = derefJson(doc, mediaRef);
      const examples = Object.entries((mediaObject.examples ?? {}) as Json);
      for (const [name, exampleRef] of examples) {
        const example = derefJson(doc, exampleRef);
        rows.push({ status, media, name, summary: String(example.summary ?? example.description ?? "") });
      }
      if (examples.length === 0)
        rows.push({
          status,
          media,
          name: null,
          summary: mediaObject.example === undefined ? "(generated from the schema)" : "",
        });
    }
    return { status, shared, rows };
  });
}

/** The response Prism serves without preferences: the lowest 2xx (compared as strings, like Prism). */
function defaultStatus(entries: ResponseEntry[]): string | undefined {
  return entries
    .map((e) => e.status)
    .filter((s) => /^2(\d\d|XX)$/.test(s))
    .sort()[0];
}

/** A status `Prefer: code=` can ask for: ranges need a concrete code (5XX -> 503). */
export function concreteStatus(status: string): string {
  if (status === "5XX") return "503";
  return /^\dXX$/.test(status) ? `${status[0]}00` : status;
}

const cell = (text: string): string =>
  text
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ")
    .trim();

function preferHeader(row: Row, isDefaultStatus: boolean): string {
  if (row.status === "default") return "any undocumented code";
  const parts = [
    ...(isDefaultStatus ? [] : [`code=${concreteStatus(row.status)}`]),
    ...(row.name === null ? [] : [`example=${row.name}`]),
  ];
  return parts.length > 0 ? `\`Prefer: ${parts.join(", ")}\`` : "(default)";
}

const TABLE_HEAD = ["| Status | Example | Summary | Prefer |", "|---|---|---|---|"];

function tableRow(row: Row, isDefaultStatus: boolean, servedMarker: boolean): string {
  const name = row.name !== null ? `\`${row.name}\`` : row.media === "" ? "(no body)" : "(unnamed)";
  const media = row.media === "application/json" || row.media === "" ? "" : ` ${row.media}`;
  const marker = servedMarker ? " (served by default)" : "";
  return `| ${row.status}${media} | ${name}${marker} | ${cell(row.summary)} | ${preferHeader(row, isDefaultStatus)} |`;
}

export function renderExamplesList(doc: Json, specLabel: string): string {
  const base = serverBasePath(doc);
  const body: string[] = [];
  /** Shared error responses, keyed by component name, with the statuses they are used for. */
  const shared = new Map<string, Map<string, Row[]>>();
  const operations = listOperations(doc);
  for (const { path, method, operation } of operations) {
    const entries = responsesOf(doc, operation);
    const served = defaultStatus(entries);
    body.push(
      `## ${String(operation.operationId ?? "(no operationId)")}: \`${method.toUpperCase()} ${base}${path}\``,
      "",
      ...TABLE_HEAD,
    );
    let marked = false;
    const sharedStatuses: string[] = [];
    for (const entry of entries) {
      if (entry.shared !== null && entry.status !== served) {
        sharedStatuses.push(entry.status);
        shared.set(entry.shared, (shared.get(entry.shared) ?? new Map()).set(entry.status, entry.rows));
        continue;
      }
      for (const row of entry.rows) {
        const isDefault = row.status === served;
        body.push(tableRow(row, isDefault, isDefault && !marked));
        if (isDefault) marked = true;
      }
    }
    if (sharedStatuses.length > 0)
      body.push(
        "",
        `Shared error responses: ${sharedStatuses.join(", ")} (see [Shared error responses](#shared-error-responses)).`,
      );
    body.push("");
  }
  const errors: string[] = [
    "## Shared error responses",
    "",
    "The same examples on every operation that documents the status.",
    "",
    ...TABLE_HEAD,
  ];
  const sharedRows = [...shared].flatMap(([name, byStatus]) =>
    [...byStatus.values()].flat().map((row) => ({ ...row, summary: row.summary ? `${name}: ${row.summary}` : name })),
  );
  sharedRows.sort((a, b) => a.status.localeCompare(b.status));
  for (const row of sharedRows) errors.push(tableRow(row, false, false));
  const head = [
    "# Named examples per operation",
    "",
    `<!-- Generated by \`npm run ts -- scripts/examples-list.ts\` from ${specLabel}; do not edit by hand. -->`,
    "",
    `What the mock (\`npm run mock\`) can answer for each of the ${operations.length} operations. Without preferences it`,
    "serves the first example of the lowest 2xx response; pick another with the header shown (or, in a browser,",
    "the `__code` / `__example` query parameters). Unnamed examples can only be reached by status.",
    "",
  ];
  return `${[...head, ...body, ...(shared.size > 0 ? errors : [])].join("\n").trimEnd()}\n`;
}

function main(argv: string[]): number {
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const spec = option("--spec") ?? DEFAULT_SPEC_PATH;
  const out = option("--out") ?? DEFAULT_OUT;
  const text = renderExamplesList(loadSpec(spec), relative(REPO_ROOT, spec));
  if (argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(out, "utf8");
    } catch {
      // missing counts as stale
    }
    if (current === text) return 0;
    process.stderr.write(`${relative(REPO_ROOT, out)} is stale: run npm run ts -- scripts/examples-list.ts\n`);
    return 1;
  }
  writeFileSync(out, text);
  process.stdout.write(`wrote ${relative(REPO_ROOT, out)}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(main(process.argv.slice(2)));
