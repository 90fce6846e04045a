/**
 * Writes plain JSON recordings built from the spec's own examples into contract-tests/recordings/examples/:
 * every operation x every documented status (ranges as a code they cover, e.g. 5XX -> 503), every named
 * example of every response and of a request body (so contract coverage counts each example as exercised).
 *   npm run ts -- contract-tests/generate-recordings.ts [--spec generated/openapi.json] [--out contract-tests/recordings/examples]
 * The folder is rewritten (`npm run generate` does it too); review the diff like any other test data. `--help`
 * prints the usage and touches nothing.
 * With `--requests <file>` it also writes the same exchanges as a request list for `npm run record` against
 * the Prism mock (`Prefer: code=..., example=...` picks each answer). Mock only: it includes writes.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exchange } from "../contract-core/index.js";
import type { RequestSpec } from "./record.js";
import {
  COMMON_OPTIONS,
  deref,
  isMain,
  isObj,
  runCommand,
  type CommandSpec,
  type Obj,
} from "../contract-core/index.js";
import {
  DEFAULT_SPEC_PATH,
  listOperations,
  loadSpec,
  serverBasePath,
  type OpenApiDocument,
} from "../contract-core/index.js";

/** A code inside a documented range that is not itself documented exactly (5XX -> 503). */
const RANGE_CODES: Record<string, number[]> = {
  "2": [200, 201, 202],
  "3": [301, 302],
  "4": [422, 418],
  "5": [503, 502, 504],
};

export interface GeneratedRecording {
  path: string;
  /** Response example name (`dossier`), or `no-content`. */
  example: string;
  exchange: Exchange;
}

function derefObj(doc: OpenApiDocument, node: unknown): Obj {
  const current = deref(doc, node);
  return isObj(current) ? current : {};
}

/** Named examples of a media type or parameter (`examples` map or single `example`). */
function examplesOf(doc: OpenApiDocument, holder: Obj): [string, unknown][] {
  if (isObj(holder.examples))
    return Object.entries(holder.examples).map(([name, ex]) => [name, derefObj(doc, ex).value]);
  if (holder.example !== undefined) return [["example", holder.example]];
  const schema = derefObj(doc, holder.schema);
  return schema.example !== undefined ? [["example", schema.example]] : [];
}

function statusFor(key: string, documented: string[]): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  const codes = RANGE_CODES[key[0] ?? "5"] ?? [599];
  return codes.find((c) => !documented.includes(String(c))) ?? codes[0]!;
}

function scalar(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Query values taken from the response example: its effective `query` object and paging `meta`. */
function queryFromBody(body: unknown, names: Set<string>): URLSearchParams {
  const query = new URLSearchParams();
  if (!isObj(body)) return query;
  const sources = [
    isObj(body.query) ? body.query : {},
    isObj(body.meta) ? { limit: body.meta.limit, offset: body.meta.offset, since: body.meta.since } : {},
  ];
  for (const source of sources) {
    for (const [name, value] of Object.entries(source)) {
      if (names.has(name) && value !== null && value !== undefined && typeof value !== "object")
        query.set(name, scalar(value));
    }
  }
  return query;
}

/** String and number leaves of a JSON value. */
function leaves(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string" || typeof value === "number") into.add(String(value));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((v) => leaves(v, into));
  return into;
}

/** The candidate sharing the most leaf values with `target` (the first one on ties). */
function bestMatch(target: unknown, candidates: [string, unknown][]): [string, unknown] | undefined {
  const wanted = leaves(target);
  let best: [string, unknown] | undefined;
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = [...leaves(candidate[1])].filter((v) => wanted.has(v)).length;
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}

interface Plan {
  status: number;
  response: Obj;
  media: [string, unknown] | undefined;
  examples: [string, unknown][];
}

interface Pair {
  plan: Plan;
  name: string;
  value: unknown;
  body?: [string, unknown];
}

/** Each response example gets the request body example it shares most values with; every body example not
 * chosen that way is replayed once against the success example it fits best. */
function pairExamples(plans: Plan[], bodyExamples: [string, unknown][]): Pair[] {
  const pairs: Pair[] = plans.flatMap((plan) =>
    plan.examples.map(([name, value]) => ({ plan, name, value, body: bestMatch(value, bodyExamples) })),
  );
  const successes = pairs.filter((p) => p.plan.status < 300);
  for (const body of bodyExamples.filter((b) => !pairs.some((p) => p.body === b))) {
    const host = bestMatch(
      body[1],
      successes.map((p) => [p.name, p.value]),
    );
    const pair = successes.find((p) => p.name === host?.[0] && p.value === host[1]);
    if (pair) pairs.push({ ...pair, name: `${pair.name}+${body[0]}`, body });
  }
  return pairs;
}

function responseHeaders(doc: OpenApiDocument, { response, media }: Plan): Record<string, string> {
  const headers: Record<string, string> = media ? { "content-type": media[0] } : {};
  for (const [name, raw] of Object.entries(isObj(response.headers) ? response.headers : {})) {
    const example = examplesOf(doc, derefObj(doc, raw))[0];
    if (example) headers[name.toLowerCase()] = scalar(example[1]);
  }
  return headers;
}

function operationRecordings(
  doc: OpenApiDocument,
  basePath: string,
  template: string,
  item: Obj,
  method: string,
  op: Obj,
): GeneratedRecording[] {
  const params = [
    ...(Array.isArray(item.parameters) ? item.parameters : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ].map((p) => derefObj(doc, p));
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = params.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(scalar(param ? (examplesOf(doc, param)[0]?.[1] ?? name) : name));
  });
  const queryNames = new Set(params.filter((p) => p.in === "query").map((p) => String(p.name)));
  const requestBody = op.requestBody === undefined ? undefined : derefObj(doc, op.requestBody);
  const bodyMedia = requestBody && isObj(requestBody.content) ? Object.entries(requestBody.content)[0] : undefined;
  const bodyExamples = bodyMedia ? examplesOf(doc, bodyMedia[1] as Obj) : [];
  const responses = isObj(op.responses) ? op.responses : {};
  const plans = Object.entries(responses).map(([key, raw]): Plan => {
    const response = derefObj(doc, raw);
    const status = statusFor(key, Object.keys(responses));
    const media = isObj(response.content) ? Object.entries(response.content)[0] : undefined;
    const examples: [string, unknown][] = media ? examplesOf(doc, media[1] as Obj) : [["no-content", null]];
    return { response, status, media, examples };
  });
  return pairExamples(plans, bodyExamples).map(({ plan, name, value, body }) => {
    const headers: Record<string, string> = plan.status === 401 ? {} : { authorization: "Bearer [redacted]" };
    if (body && bodyMedia) headers["content-type"] = bodyMedia[0];
    const query = queryFromBody(value, queryNames).toString();
    return {
      path: join(String(op.operationId), `${plan.status}-${name}.json`),
      example: name.split("+")[0]!,
      exchange: {
        request: {
          method: method.toUpperCase(),
          url: `${basePath}${path}${query ? `?${query}` : ""}`,
          headers,
          body: body ? body[1] : null,
        },
        response: { status: plan.status, headers: responseHeaders(doc, plan), body: value },
      },
    };
  });
}

export function generateRecordings(doc: OpenApiDocument): GeneratedRecording[] {
  const basePath = serverBasePath(doc);
  return listOperations(doc).flatMap(({ path, method, operation, pathItem }) =>
    operationRecordings(doc, basePath, path, pathItem, method, operation),
  );
}

/** The same exchanges as requests for the recorder, asking the mock for each status and example. */
export function mockRequests(recordings: GeneratedRecording[], basePath: string): RequestSpec[] {
  return recordings.map(({ path, example, exchange: { request, response } }) => {
    const headers: Record<string, string> = {
      prefer: `code=${response.status}${example === "no-content" ? "" : `, example=${example}`}`,
    };
    const contentType = request.headers?.["content-type"];
    if (typeof contentType === "string") headers["content-type"] = contentType;
    return {
      name: path.replace(/\.json$/, "").replace(/[/+]/g, "-"),
      method: request.method,
      url: request.url.slice(basePath.length),
      headers,
      ...(request.body === null ? {} : { body: request.body }),
      ...(response.status === 401 ? { auth: false } : {}),
    };
  });
}

export const RECORDINGS_DIR = "contract-tests/recordings/examples";

/** Rewrites `outDir` with the spec's recordings (the folder is emptied first); returns how many were written. */
export function writeRecordings(recordings: readonly GeneratedRecording[], outDir: string): number {
  rmSync(outDir, { recursive: true, force: true });
  for (const { path, exchange } of recordings) {
    mkdirSync(join(outDir, path, ".."), { recursive: true });
    writeFileSync(join(outDir, path), `${JSON.stringify(exchange, null, 2)}\n`);
  }
  return recordings.length;
}

export const GENERATE_RECORDINGS_COMMAND: CommandSpec = {
  name: "npm run ts -- contract-tests/generate-recordings.ts",
  summary: `Rewrites ${RECORDINGS_DIR} with a recording per operation, status and example of the spec (npm run generate runs it).`,
  options: {
    spec: COMMON_OPTIONS.spec(DEFAULT_SPEC_PATH),
    out: COMMON_OPTIONS.out(RECORDINGS_DIR, "the folder to rewrite with the recordings"),
    requests: {
      type: "string",
      value: "<file>",
      description: "also write the exchanges as a request list for `npm run record` against the Prism mock",
    },
  },
};

if (isMain(import.meta.url))
  await runCommand(GENERATE_RECORDINGS_COMMAND, ({ values }) => {
    const outDir = String(values.out);
    const doc = loadSpec(String(values.spec));
    const recordings = generateRecordings(doc);
    console.log(`${writeRecordings(recordings, outDir)} recordings written to ${outDir}`);
    const requestsFile = typeof values.requests === "string" ? values.requests : "";
    if (requestsFile) {
      writeFileSync(requestsFile, `${JSON.stringify(mockRequests(recordings, serverBasePath(doc)), null, 2)}\n`);
      console.log(`${recordings.length} mock requests written to ${requestsFile}`);
    }
  });
