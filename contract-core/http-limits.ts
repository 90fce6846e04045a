/**
 * The request size limits both servers enforce, and their answer to what Node's HTTP parser refuses
 * (`clientError`): Node alone would answer an empty-body 431 or 400, outside the reference. Here every such
 * answer is a 400 `invalid_request` in the reference's error shape (the spec documents 400 on every
 * operation; 413 and 431 are not documented), or the connection just closes when no answer can be sent.
 *
 *   const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
 *   server.on("clientError", answerClientError);              // Fastify: { clientErrorHandler: answerClientError }
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex, Readable, Writable } from "node:stream";
import { errorBody } from "./error-vocabulary.js";

/** Request line (method, URL) plus headers, in bytes: Node's default `maxHeaderSize`, stated so it is documented. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Request body, in bytes, counted as it streams in (before any parsing). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Bytes of a refused body read and thrown away so the client reads its 400: closing a socket the client is
 * still writing to resets the connection before the answer is read. Past this the connection closes.
 */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;
export function bodyTooLargeMessage(limit: number = MAX_BODY_BYTES): string {
  return `request body exceeds ${limit} bytes`;
}

type BodyStream = Readable & { headers: Record<string, string | string[] | undefined>; complete?: boolean };

const declaredLength = (request: BodyStream) => Number(request.headers["content-length"]);
const expectsContinue = (request: BodyStream) => /100-continue/i.test(String(request.headers.expect ?? ""));
const draining = new WeakSet<object>();

/**
 * Reads and throws away the rest of a body the answer did not need, so the client can read that answer on a
 * connection that stays usable; false when it will not be drained and the answer should close the connection
 * (a declared body over MAX_DRAIN_BYTES, or one the client was never asked to send: see continueWithin).
 */
export function drainBody(request: BodyStream, limit: number = MAX_BODY_BYTES): boolean {
  if (request.complete || draining.has(request)) return true;
  const declared = declaredLength(request);
  if (declared > MAX_DRAIN_BYTES || (declared > limit && expectsContinue(request))) return false;
  draining.add(request);
  let drained = 0;
  request.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAIN_BYTES) request.destroy();
  });
  request.resume();
  return true;
}

/**
 * Node answers `Expect: 100-continue` with `100 Continue` by itself; with this listener only a body within
 * `limit` is continued, and a declared larger one gets its 400 without the client ever sending it.
 */
export function continueWithin(server: Server, limit: number = MAX_BODY_BYTES): void {
  server.on("checkContinue", (request: IncomingMessage, response) => {
    if (!(declaredLength(request) > limit)) response.writeContinue();
    server.emit("request", request, response);
  });
}

/**
 * A request body read as it streams in, given up at `limit` bytes: null when it is larger (a declared
 * Content-Length over the limit is refused before reading anything), so nothing larger is ever buffered.
 * The rest of a refused body is drained (drainBody) while the answer goes out.
 */
export async function readBodyWithin(request: BodyStream, limit: number = MAX_BODY_BYTES): Promise<Buffer | null> {
  if (declaredLength(request) > limit) {
    drainBody(request, limit);
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early must not destroy the request: its answer goes out on the same connection.
  for await (const chunk of request.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      drainBody(request, limit);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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

/**
 * A `clientError` listener: writes clientErrorResponse when the socket can still take a response, else closes it.
 * Requests read before the malformed one (pipelined in the same packet) were handed to the server and may have
 * been applied: each answer is sent, and logged, before the 400 and the close.
 */
export function answerClientError(error: ClientError, socket: Duplex): void {
  // Node's response being answered on this socket (queued pipelined ones follow it, one after another). When
  // its request was read whole, the malformed bytes are a later request's: this answer goes out first.
  type InFlight = Writable & { headersSent?: boolean; req?: { complete?: boolean } };
  const current = (socket as Duplex & { _httpMessage?: InFlight | null })._httpMessage;
  if (current && current.req?.complete === true && !current.writableFinished && !current.destroyed) {
    current.once("finish", () => answerClientError(error, socket));
    current.once("close", () => {
      if (!current.writableFinished) socket.destroy();
    });
    return;
  }
  // The malformed bytes are this response's own request (its body): a second status line would corrupt it.
  const inProgress = current?.headersSent === true;
  const response = clientErrorResponse(error);
  if (response === null || !socket.writable || inProgress) {
    socket.destroy();
    return;
  }
  socket.end(response);
}
