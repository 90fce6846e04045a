/**
 * Sends a list of requests to a running server and writes one recording per exchange.
 *   npm run record -- --base-url <url> [--api-key-env NAME] [--auth bearer|x-api-key] [--out <dir>] [--timeout-ms 10000] <requests-file>
 * requests-file: JSON array of { "name"?, "method", "url" (path and query under the base URL), "headers"?, "body"?, "auth"?: false }.
 * Authorization and X-Api-Key values are redacted; the key never appears in files or output.
 * Exit 0: all recorded; 1: a request failed (network error or timeout); 2: bad arguments or unreadable input.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CliIo } from "./cli.js";
import { getValidator, type Exchange } from "../contract-core/index.js";
import { exchangeFromFetch } from "../contract-core/index.js";

export interface RequestSpec {
  name?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** false: send no credentials (to record a 401). */
  auth?: boolean;
}

interface Options {
  baseUrl: string;
  apiKeyEnv?: string;
  auth: "bearer" | "x-api-key";
  out: string;
  requestsFile: string;
  timeoutMs: number;
}

const USAGE = "usage: npm run record -- --base-url <url> [--api-key-env NAME] [--auth bearer|x-api-key] [--out <dir>] [--timeout-ms 10000] <requests-file>";
const REDACTED = "[redacted]";
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization", "cookie", "set-cookie"]);
/** Volatile or transport-level response headers left out of recordings. */
const DROPPED_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

function parseArgs(argv: string[]): Options | string {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) positional.push(arg);
    else if (["--base-url", "--api-key-env", "--auth", "--out", "--timeout-ms"].includes(arg) && argv[i + 1] !== undefined) values[arg] = argv[++i]!;
    else return `unknown or incomplete option ${arg}`;
  }
  const auth = values["--auth"] ?? "bearer";
  if (!values["--base-url"]) return "--base-url is required";
  if (auth !== "bearer" && auth !== "x-api-key") return "--auth must be bearer or x-api-key";
  if (positional.length !== 1) return "exactly one requests file is required";
  const timeoutMs = Number(values["--timeout-ms"] ?? 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return "--timeout-ms must be a positive integer";
  return {
    baseUrl: values["--base-url"].replace(/\/+$/, ""),
    apiKeyEnv: values["--api-key-env"],
    auth,
    out: values["--out"] ?? "contract-tests/recordings/recorded",
    requestsFile: positional[0]!,
    timeoutMs,
  };
}

function readRequests(file: string): RequestSpec[] {
  const doc: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(doc)) throw new Error("expected a JSON array of requests");
  doc.forEach((r: Partial<RequestSpec>, i) => {
    if (typeof r?.method !== "string" || typeof r.url !== "string") throw new Error(`request ${i} needs string "method" and "url"`);
  });
  return doc as RequestSpec[];
}

/** Redacts credential headers, keeping the auth scheme (`Bearer [redacted]`). */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (!SECRET_HEADERS.has(name.toLowerCase())) return [name, value];
      const scheme = name.toLowerCase() === "authorization" && typeof value === "string" ? /^(\S+)\s/.exec(value)?.[1] : undefined;
      return [name, scheme ? `${scheme} ${REDACTED}` : REDACTED];
    }),
  );
}

/** Below this length a value is too likely to occur in ordinary data ("any" in "company") to be scrubbed. */
const MIN_SCRUB_LENGTH = 8;

/**
 * Final safety net: the key must not appear anywhere in a recording, even if a server echoes it.
 * Credential headers are redacted whatever the key; a key shorter than MIN_SCRUB_LENGTH is not searched for.
 */
export function scrub(text: string, secret: string | undefined): string {
  return secret && secret.length >= MIN_SCRUB_LENGTH ? text.split(secret).join(REDACTED) : text;
}

function fileNameFor(exchange: Exchange, spec: RequestSpec, taken: Set<string>): string {
  let stem = spec.name;
  if (!stem) {
    let operationId: string | undefined;
    try {
      operationId = getValidator().matchRoute(exchange.request.method, exchange.request.url)?.operationId;
    } catch {
      operationId = undefined; // no bundled spec yet: name after method and path
    }
    stem = `${operationId ?? `${spec.method}-${new URL(exchange.request.url, "http://x").pathname}`}-${exchange.response.status}`;
  }
  stem = stem.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/-{2,}/g, "-").replace(/^-+|-+$/g, "");
  let name = `${stem}.json`;
  for (let n = 2; taken.has(name); n++) name = `${stem}-${n}.json`;
  taken.add(name);
  return name;
}

export async function runRecorder(argv: string[], io: CliIo): Promise<number> {
  const options = parseArgs(argv);
  if (typeof options === "string") {
    io.err(`${options}\n${USAGE}\n`);
    return 2;
  }
  const key = options.apiKeyEnv ? process.env[options.apiKeyEnv] : undefined;
  if (options.apiKeyEnv && !key) {
    io.err(`environment variable ${options.apiKeyEnv} is not set\n`);
    return 2;
  }
  let requests: RequestSpec[];
  try {
    requests = readRequests(options.requestsFile);
  } catch (error) {
    io.err(`cannot read ${options.requestsFile}: ${(error as Error).message}\n`);
    return 2;
  }
  mkdirSync(options.out, { recursive: true });
  const taken = new Set<string>();
  let failures = 0;
  for (const spec of requests) {
    const url = `${options.baseUrl}${spec.url.startsWith("/") ? "" : "/"}${spec.url}`;
    const headers: Record<string, string> = { accept: "application/json", ...spec.headers };
    if (spec.body !== undefined) headers["content-type"] ??= "application/json";
    if (key && spec.auth !== false) {
      if (options.auth === "bearer") headers.authorization = `Bearer ${key}`;
      else headers["x-api-key"] = key;
    }
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const label = `${spec.method.toUpperCase()} ${spec.url}`;
    let exchange: Exchange;
    try {
      const res = await fetch(url, { method: spec.method.toUpperCase(), headers, body, signal: AbortSignal.timeout(options.timeoutMs) });
      exchange = await exchangeFromFetch({ method: spec.method, url, headers, body }, res);
    } catch (error) {
      failures++;
      io.err(`✘ ${label}: ${scrub((error as Error).message, key)}\n`);
      continue;
    }
    const { pathname, search } = new URL(url);
    exchange.request = { ...exchange.request, url: `${pathname}${search}`, headers: redactHeaders(exchange.request.headers ?? {}) };
    const kept = Object.entries(exchange.response.headers ?? {}).filter(([name]) => !DROPPED_HEADERS.has(name));
    exchange.response = { ...exchange.response, headers: redactHeaders(Object.fromEntries(kept)) };
    const file = join(options.out, fileNameFor(exchange, spec, taken));
    const ordered = { request: exchange.request, response: exchange.response };
    writeFileSync(file, `${scrub(JSON.stringify(ordered, null, 2), key)}\n`);
    io.out(`${label} -> ${exchange.response.status}  ${file}\n`);
  }
  io.out(`${requests.length - failures} of ${requests.length} exchanges recorded in ${options.out}\n`);
  return failures === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runRecorder(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
