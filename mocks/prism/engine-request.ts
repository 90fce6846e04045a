/** The request shape the mock's engine takes: its own module, so the engine's helpers need not import the engine. */
/** A request as the front (server.ts) builds it from node:http; the engine hands it to Prism, the memo keys it. */
export interface EngineRequest {
  method: string;
  /** The operation path as written in the spec (without /v1), still URL-encoded. */
  path: string;
  /** What the client called, for messages (e.g. `GET /v1/people`). */
  label: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
  /** Size of the body as received, in bytes (0 without a body). */
  bodyBytes: number;
}
