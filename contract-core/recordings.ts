/** Reading recordings: one exchange per JSON file, or HAR 1.2 files (every entry under the base path). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ContractValidator, Exchange, ExchangeResult, HeaderMap } from "./types.js";
import { parseBodyText } from "./fetch.js";
import { isObj, type Obj } from "./pointer.js";

export class RecordingError extends Error {
  declare readonly file: string;

  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.file = file;
    this.name = "RecordingError";
  }
}

export interface LoadedExchange {
  file: string;
  /** Entry index inside a HAR file. */
  entry?: number;
  exchange: Exchange;
}

/** Files named on the command line, folders searched recursively for *.json and *.har, in sorted order. */
function collectRecordingFiles(paths: string[]): string[] {
  const files: string[] = [];
  const visit = (path: string): void => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new RecordingError(path, "no such file or folder");
    }
    if (!stats.isDirectory()) return void files.push(path);
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory() || /\.(json|har)$/i.test(name)) visit(child);
    }
  };
  paths.forEach(visit);
  return files;
}

function checkHeaders(value: unknown, file: string, where: string): HeaderMap | undefined {
  if (value === undefined) return undefined;
  if (!isObj(value)) throw new RecordingError(file, `${where}.headers must be an object`);
  return value as HeaderMap;
}

function fromRecording(doc: Obj, file: string): Exchange {
  const { request, response } = doc;
  if (!isObj(request) || !isObj(response))
    throw new RecordingError(file, 'not a recording: expected "request" and "response" objects, or a HAR "log"');
  if (typeof request.method !== "string" || typeof request.url !== "string")
    throw new RecordingError(file, "request.method and request.url must be strings");
  if (!Number.isInteger(response.status)) throw new RecordingError(file, "response.status must be an integer");
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: checkHeaders(request.headers, file, "request"),
      body: request.body ?? null,
    },
    response: {
      status: response.status as number,
      headers: checkHeaders(response.headers, file, "response"),
      body: response.body ?? null,
    },
  };
}

function harHeaders(list: unknown): HeaderMap {
  const out: HeaderMap = {};
  for (const item of Array.isArray(list) ? list : []) {
    if (!isObj(item) || typeof item.name !== "string") continue;
    const name = item.name.toLowerCase();
    if (name.startsWith(":")) continue; // HTTP/2 pseudo-headers
    const value = String(item.value ?? "");
    const previous = out[name];
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

function fromHar(log: Obj, file: string, basePath: string): LoadedExchange[] {
  if (!Array.isArray(log.entries)) throw new RecordingError(file, "HAR log.entries must be an array");
  const out: LoadedExchange[] = [];
  log.entries.forEach((entry: unknown, index) => {
    if (!isObj(entry) || !isObj(entry.request) || !isObj(entry.response))
      throw new RecordingError(file, `HAR entry ${index} has no request/response`);
    const { request, response } = entry;
    let url: URL;
    try {
      url = new URL(String(request.url));
    } catch {
      throw new RecordingError(file, `HAR entry ${index} has an invalid URL`);
    }
    if (basePath !== "" && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return;
    if (response.status === 0) return; // blocked or failed in the browser: no server answer
    const post = isObj(request.postData) ? request.postData : undefined;
    const content = isObj(response.content) ? response.content : {};
    const text =
      typeof content.text === "string"
        ? content.encoding === "base64"
          ? Buffer.from(content.text, "base64").toString("utf8")
          : content.text
        : "";
    out.push({
      file,
      entry: index,
      exchange: {
        request: {
          method: String(request.method),
          url: `${url.pathname}${url.search}`,
          headers: harHeaders(request.headers),
          body: post && typeof post.text === "string" ? parseBodyText(post.text, String(post.mimeType ?? "")) : null,
        },
        response: {
          status: Number(response.status),
          headers: harHeaders(response.headers),
          body: parseBodyText(text, String(content.mimeType ?? "")),
        },
      },
    });
  });
  return out;
}

/** Every exchange of the files and folders named; `basePath` selects HAR entries (e.g. `/v1`). */
export function loadRecordings(paths: string[], basePath: string): LoadedExchange[] {
  return collectRecordingFiles(paths).flatMap((file) => {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new RecordingError(file, code ? `cannot read (${code})` : `invalid JSON (${(error as Error).message})`);
    }
    if (!isObj(doc)) throw new RecordingError(file, "expected a JSON object");
    if (isObj(doc.log)) return fromHar(doc.log, file, basePath);
    return [{ file, exchange: fromRecording(doc, file) }];
  });
}

/**
 * Replay policy for recorded traffic: a 4xx answer means the server rejected the request, so only the
 * response side (plus route and status) is checked; otherwise both sides are.
 */
export function checkRecorded(validator: ContractValidator, exchange: Exchange): ExchangeResult {
  const clientError = exchange.response.status >= 400 && exchange.response.status < 500;
  return clientError ? validator.validateResponse(exchange) : validator.validate(exchange);
}
