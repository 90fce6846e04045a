/**
 * Raw HTTP/1.1 over a TCP socket, for tests that must send what fetch refuses to (a malformed request line,
 * headers over the limit) or watch a response arrive while the request body is still being written.
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the bytes a server sent (one response, `content-length` or close-delimited); status 0 when nothing came. */
export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: raw };
  const [statusLine = "", ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, body: raw.slice(end + 4) };
}

/** Opens a socket to 127.0.0.1:`port`; resolves with everything received once the server closes it. */
export function openRaw(port: number): { socket: Socket; response: Promise<RawResponse> } {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  const response = new Promise<RawResponse>((resolve) => {
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (the server closing while the client still writes) still keeps what came.
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(parseRawResponse(Buffer.concat(chunks).toString("utf8"))));
  });
  return { socket, response };
}

/** Sends `request` as is and resolves with the answer once the server closes the connection. */
export function sendRaw(port: number, request: string): Promise<RawResponse> {
  const { socket, response } = openRaw(port);
  socket.write(request);
  return response;
}
