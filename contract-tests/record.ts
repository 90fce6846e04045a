/**
 * Sends a list of requests to a running server and writes one recording per exchange.
 *   npm run record -- --base-url <url> [--key-env NAME | --no-key] [--auth bearer|x-api-key] [--out <dir>] <requests-file>
 * The key comes from TALENT_GRAPH_API_KEY (or the variable --key-env names), never the command line; unset: exit 2
 * (--no-key sends none on purpose).
 * requests-file: JSON array of { "name"?, "method", "url" (path and query under the base URL), "headers"?, "body"?, "auth"?: false }.
 * Authorization and X-Api-Key values are redacted; the key never appears in files or output.
 * Exit 0: all recorded; 1: some requests failed (network error or timeout); 2: bad arguments or unreadable input;
 * 3: the server cannot be reached, or every answer is a 401/403 (nothing written unless --allow-refused).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getValidator, type Exchange } from "../contract-core/index.js";
import {
  escapeLogText,
  COMMON_OPTIONS,
  EXIT,
  exchangeFromFetch,
  flagGiven,
  isMain,
  parseCommandLine,
  STDIO,
  usageError,
  UsageError,
  type CliIo,
  type CommandSpec,
} from "../contract-core/index.js";

export interface RequestSpec {
  name?: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** false: send no credentials (to record a 401). */
  auth?: boolean;
}

/** The variable the key is read from unless --key-env names another. */
const KEY_VARIABLE = "TALENT_GRAPH_API_KEY";
const REDACTED = "[redacted]";
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization", "cookie", "set-cookie"]);
/** Volatile or transport-level response headers left out of recordings. */
const DROPPED_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

export const RECORD_COMMAND: CommandSpec = {
  name: "npm run record",
  summary:
    "Sends each request of <requests-file> to a server and writes one JSON recording per exchange (credentials redacted).",
  options: {
    "base-url": {
      type: "string",
      value: "<url>",
      description: "server to record from, e.g. http://127.0.0.1:4010/v1 (required)",
    },
    "key-env": COMMON_OPTIONS.keyEnv(KEY_VARIABLE, "the API key (required unless --no-key)"),
    "no-key": { type: "boolean", description: "send every request without credentials (to record 401s on purpose)" },
    "allow-refused": {
      type: "boolean",
      description: "write the recordings even when every answer is a 401 or 403 (by default: nothing written, exit 3)",
    },
    verbose: {
      type: "boolean",
      description: "print one line per recorded exchange (by default: failures and a total)",
    },
    auth: { type: "string", value: "<bearer|x-api-key>", default: "bearer", description: "how the key is sent" },
    out: COMMON_OPTIONS.out("contract-tests/recordings/recorded", "folder for the recordings"),
    "timeout-ms": { type: "string", value: "<ms>", default: "10000", description: "per-request timeout" },
  },
  positionals: "<requests-file>",
  secretFlags: { key: `${KEY_VARIABLE} (or name another variable with --key-env NAME)` },
};

/** The options, or undefined after --help (usage written to `out`); throws UsageError. */
function parseArgs(argv: string[], out: (text: string) => void) {
  const parsed = parseCommandLine(RECORD_COMMAND, argv, process.env, out);
  if (!parsed) return undefined;
  const values = parsed.values as Record<string, string>;
  const problem = (text: string) => usageError(RECORD_COMMAND, text);
  const { auth, out: folder } = values;
  if (!values["base-url"]) throw problem("--base-url is required");
  if (auth !== "bearer" && auth !== "x-api-key") throw problem("--auth must be bearer or x-api-key");
  if (parsed.positionals.length !== 1) throw problem("exactly one requests file is required");
  const timeoutMs = Number(values["timeout-ms"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw problem("--timeout-ms must be a positive integer");
  const baseUrl = values["base-url"].replace(/\/+$/, "");
  const noKey = parsed.values["no-key"] === true;
  if (noKey && flagGiven(argv, "key-env")) throw problem("--no-key and --key-env contradict each other: give one");
  const keyEnv = { name: values["key-env"]!, named: flagGiven(argv, "key-env") };
  return {
    baseUrl,
    keyEnv,
    noKey,
    allowRefused: parsed.values["allow-refused"] === true,
    verbose: parsed.values.verbose === true,
    auth,
    out: folder!,
    requestsFile: parsed.positionals[0]!,
    timeoutMs,
  };
}

function readRequests(file: string): RequestSpec[] {
  const doc: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(doc)) throw new Error("expected a JSON array of requests");
  doc.forEach((r: Partial<RequestSpec>, i) => {
    if (typeof r?.method !== "string" || typeof r.url !== "string")
      throw new Error(`request ${i} needs string "method" and "url"`);
  });
  return doc as RequestSpec[];
}

/** Redacts credential headers, keeping the auth scheme (`Bearer [redacted]`). */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[] | undefined> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (!SECRET_HEADERS.has(name.toLowerCase())) return [name, value];
      const scheme =
        name.toLowerCase() === "authorization" && typeof value === "string" ? /^(\S+)\s/.exec(value)?.[1] : undefined;
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
  stem = stem
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
  let name = `${stem}.json`;
  for (let n = 2; taken.has(name); n++) name = `${stem}-${n}.json`;
  taken.add(name);
  return name;
}

export async function runRecorder(argv: string[], io: CliIo): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(argv, io.out);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n`);
    return EXIT.usage;
  }
  if (!options) return EXIT.ok;
  const key = options.noKey ? undefined : process.env[options.keyEnv.name] || undefined;
  if (!options.noKey && !key) {
    const named = options.keyEnv.named ? " (named by --key-env)" : "";
    io.err(
      `${RECORD_COMMAND.name}: the environment variable ${options.keyEnv.name}${named} is not set: set it to the server's key, or record without credentials on purpose with --no-key.\n`,
    );
    return EXIT.usage;
  }
  let requests: RequestSpec[];
  try {
    requests = readRequests(options.requestsFile);
  } catch (error) {
    io.err(`cannot read ${options.requestsFile}: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const taken = new Set<string>();
  const written: { file: string; text: string; line: string; status: number }[] = [];
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
      const res = await fetch(url, {
        method: spec.method.toUpperCase(),
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      exchange = await exchangeFromFetch({ method: spec.method, url, headers, body }, res);
    } catch (error) {
      failures++;
      const reason = unreachable(error);
      if (reason && written.length === 0) {
        // Nothing answered and the server cannot be reached: one line, not one per request.
        io.err(`${RECORD_COMMAND.name}: cannot reach ${options.baseUrl} (${reason}); nothing recorded\n`);
        return EXIT.target;
      }
      io.err(`✘ ${escapeLogText(label)}: ${escapeLogText(scrub((error as Error).message, key))}\n`);
      continue;
    }
    const { pathname, search } = new URL(url);
    exchange.request = {
      ...exchange.request,
      url: `${pathname}${search}`,
      headers: redactHeaders(exchange.request.headers ?? {}),
    };
    const kept = Object.entries(exchange.response.headers ?? {}).filter(([name]) => !DROPPED_HEADERS.has(name));
    exchange.response = { ...exchange.response, headers: redactHeaders(Object.fromEntries(kept)) };
    const file = join(options.out, fileNameFor(exchange, spec, taken));
    const ordered = { request: exchange.request, response: exchange.response };
    const text = `${scrub(JSON.stringify(ordered, null, 2), key)}\n`;
    written.push({
      file,
      text,
      line: `${label} -> ${exchange.response.status}  ${file}`,
      status: exchange.response.status,
    });
  }
  if (written.length > 0 && !options.allowRefused && written.every(({ status }) => status === 401 || status === 403)) {
    io.err(
      `${RECORD_COMMAND.name}: every answer was a 401 or 403 (the server refused ${key ? "the key" : "the keyless requests"}); nothing written (--allow-refused writes them)\n`,
    );
    return EXIT.target;
  }
  mkdirSync(options.out, { recursive: true });
  for (const { file, text, line } of written) {
    writeFileSync(file, text);
    if (options.verbose) io.out(`${escapeLogText(line)}\n`);
  }
  const recorded = written.length;
  io.out(`${recorded} of ${requests.length} exchanges recorded in ${options.out}\n`);
  // Nothing answered: the target could not be recorded at all (down, wrong URL), not a partial run.
  if (failures > 0 && recorded === 0) return EXIT.target;
  return failures === 0 ? EXIT.ok : EXIT.failures;
}

/** The connection-level reason a request could not reach the server at all, or undefined (a timeout, a reset). */
function unreachable(error: unknown): string | undefined {
  const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code) as unknown;
  return typeof code === "string" && /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/.test(code)
    ? code
    : undefined;
}

if (isMain(import.meta.url)) process.exitCode = await runRecorder(process.argv.slice(2), STDIO);
