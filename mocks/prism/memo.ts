// The memo of the engine's answers: a static mock answers the same request the same way every time, so
// the reply Prism (and the checks around it) produced for a request is kept and served again for the same
// request. "The same" covers everything the answer is made from: method, path (and its label in messages),
// query, the preferences Prism is given, and the request headers it looks at (listed below, from the spec).
// A request with a body, a dynamic answer, an operation with callbacks (Prism calls them) and the proxy
// never use the memo.
import type { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import type { Preferences } from "../../contract-core/index.js";
import type { EngineRequest } from "./engine-request.js";

type IHttpOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/**
 * The request headers Prism's engine reads, lower-case: content negotiation (`accept`), body checks
 * (`content-type`, `content-length`), the security handlers (`authorization`, `cookie`, every apiKey
 * header of the spec) and every header parameter of the spec.
 */
export function headersPrismReads(operations: readonly IHttpOperation[]): string[] {
  const names = new Set(["accept", "authorization", "content-length", "content-type", "cookie"]);
  for (const op of operations) {
    for (const alternative of op.security ?? []) {
      for (const scheme of alternative) if (scheme.type === "apiKey") names.add(scheme.name.toLowerCase());
    }
    for (const header of op.request?.headers ?? []) names.add(header.name.toLowerCase());
  }
  return [...names].sort();
}

/** Entries kept before the memo starts over, so that many distinct requests cannot grow it without end. */
const MAX_ENTRIES = 1000;
/** A request whose key is longer (a long query or header) is answered by Prism each time, not kept. */
const MAX_KEY_CHARS = 4096;

export function createMemo<T>(operations: readonly IHttpOperation[]) {
  const readHeaders = headersPrismReads(operations);
  const entries = new Map<string, T>();
  return {
    /** The key of a request (it has no body), or undefined when its answer must not be memoized. */
    keyOf(request: Omit<EngineRequest, "body" | "bodyBytes">, preferences: Preferences): string | undefined {
      if (preferences.dynamic === true) return undefined;
      const { method, path, label, query, headers } = request;
      const { code, example, seed } = preferences;
      // undefined and "" stay apart: JSON writes the first as null.
      const sent = readHeaders.map((name) => headers[name]);
      const key = JSON.stringify([method, path, label, query, code, example, seed, sent]);
      return key.length <= MAX_KEY_CHARS ? key : undefined;
    },
    get: (key: string) => entries.get(key),
    set(key: string, value: T) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, value);
    },
  };
}

/** Prism runs an operation's callbacks on every mocked call: such calls have an effect besides the answer. */
export function hasCallbacks(operation: IHttpOperation | undefined): boolean {
  return (operation?.callbacks?.length ?? 0) > 0;
}
