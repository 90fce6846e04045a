/** Building an Exchange from a fetch Request description and its Response (body read once). */
import type { Exchange, HeaderMap } from "./types.js";

export interface FetchRequestInfo {
  method?: string;
  url: string | URL;
  headers?: HeadersInit | HeaderMap;
  /** A JSON value, or a JSON string as passed to fetch. */
  body?: unknown;
}

/** Parses JSON text; non-JSON text is kept as a string, empty text is null. */
export function parseBodyText(text: string, contentType?: string | null): unknown {
  if (text === "") return null;
  if (contentType && !/[/+]json\b/i.test(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function headersToRecord(headers: HeadersInit | HeaderMap | undefined): HeaderMap {
  if (!headers) return {};
  if (headers instanceof Headers) {
    const out: HeaderMap = Object.fromEntries(headers);
    const cookies = headers.getSetCookie();
    if (cookies.length > 1) out["set-cookie"] = cookies;
    return out;
  }
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  return Object.fromEntries(
    entries.map(([name, value]) => [String(name).toLowerCase(), value as string | string[] | undefined]),
  );
}

/** Reads the response body once; the parsed body is returned in `exchange.response.body`. */
export async function exchangeFromFetch(req: FetchRequestInfo, res: Response): Promise<Exchange> {
  const text = await res.text();
  const requestBody = typeof req.body === "string" ? parseBodyText(req.body) : (req.body ?? null);
  return {
    request: {
      method: (req.method ?? "GET").toUpperCase(),
      url: String(req.url),
      headers: headersToRecord(req.headers),
      body: requestBody,
    },
    response: {
      status: res.status,
      headers: headersToRecord(res.headers),
      body: parseBodyText(text, res.headers.get("content-type")),
    },
  };
}
