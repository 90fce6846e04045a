/**
 * The request size limits both servers enforce, and their answer to what Node's HTTP parser refuses
 * (`clientError`): Node alone would answer an empty-body 431 or 400, outside the reference. Here every such
 * answer is a 400 `invalid_request` in the reference's error shape (the spec documents 400 on every
 * operation; 413 and 431 are not documented), or the connection just closes when no answer can be sent.
 *
 *   const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
 *   server.on("clientError", answerClientError);              // Fastify: { clientErrorHandler: answerClientError }
 */
import type { Duplex } from "node:stream";
import { errorBody } from "./error-vocabulary.js";

/** Request line (method, URL) plus headers, in bytes: Node's default `maxHeaderSize`, stated so it is documented. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Request body, in bytes, counted as it streams in (before any parsing). */
export const MAX_BODY_BYTES = 1024 * 1024;

export function bodyTooLargeMessage(limit: number = MAX_BODY_BYTES): string {
  return `request body exceeds ${limit} bytes`;
}

/** A Node `clientError`: parser errors carry an `HPE_*` code, socket errors a system code. */
export interface ClientError extends Error {
  code?: string;
}

/** Codes after which nothing can be sent: the peer is gone, or it was too slow to send its request. */
const CLOSE_ONLY = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ERR_HTTP_REQUEST_TIMEOUT",
  "ERR_HTTP_HEADERS_TIMEOUT",
]);

function clientErrorMessage(code: string): string {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return `the request line and headers exceed ${MAX_HEADER_BYTES} bytes`;
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return "the request body's chunk extensions are too large";
    default:
      return `malformed HTTP request (${code})`;
  }
}

/**
 * The raw HTTP/1.1 response for a `clientError`, or null when the connection should just close.
 * The message names the parser's error code, never the request's bytes.
 */
export function clientErrorResponse(error: ClientError): string | null {
  const code = error.code ?? "UNKNOWN";
  if (CLOSE_ONLY.has(code)) return null;
  const body = JSON.stringify(errorBody("invalid_request", clientErrorMessage(code)));
  return [
    "HTTP/1.1 400 Bad Request",
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

/** A `clientError` listener: writes clientErrorResponse when the socket can still take a response, else closes it. */
export function answerClientError(error: ClientError, socket: Duplex): void {
  // Node sets _httpMessage while a response is in progress on the socket; a second status line would corrupt it.
  const inProgress =
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  const response = clientErrorResponse(error);
  if (response === null || !socket.writable || inProgress) {
    socket.destroy();
    return;
  }
  socket.end(response);
}
