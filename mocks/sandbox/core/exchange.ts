/**
 * What the core takes and gives: a plain request (`{ method, url, headers, body }`) and a plain answer
 * (`{ status, headers, body }`), the shapes every host translates its own requests into and out of.
 */
import type { RequestHeaders } from "../contract/auth.js";
import type { OrgState } from "../contract/state.js";

/** Reads a streamed body, giving up at BODY_LIMIT bytes (null). */
export type BodyReader = () => Promise<string | Uint8Array | null>;

export interface CoreRequest {
  method: string;
  /** Path and query (/v1/people?limit=2), or an absolute URL. */
  url: string;
  /** Lower-case header names. */
  headers: RequestHeaders;
  /**
   * Raw body; undefined when the request has none. A host that streams gives a reader instead, called only
   * once authentication and organization access passed; it resolves null when the body is over BODY_LIMIT.
   */
  body?: string | Uint8Array | BodyReader;
  /** The client's address (rate limit key); hosts without one share a single window. */
  remoteAddress?: string;
}

/** An answer: a JSON body is the text of `JSON.stringify` of the handler's object. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A routed answer and the organization it acted for (null: control endpoints, documented examples). */
export interface Answered {
  response: CoreResponse;
  org: OrgState | null;
}
