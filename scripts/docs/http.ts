/**
 * The one HTTP server of the docs tooling: serves a single HTML page at `/` and `/index.html` on
 * 127.0.0.1, lets the caller claim other paths, and answers 404 to the rest. Like the sandbox and the mock it
 * answers only requests addressed to a loopback name or an IP address (contract-core/host-guard.ts): a page on
 * another site that points its own name at 127.0.0.1 (DNS rebinding) gets a 403, not the page or its reloads.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NO_HOST_MESSAGE, foreignHostProblem } from "../../contract-core/host-guard.js";

export interface Page {
  status: number;
  body: string | Buffer;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close: () => Promise<void>;
}

/** Handles a request for another path and returns true, or returns false to let it 404. */
export type ExtraRoute = (pathname: string, req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export async function servePage(port: number, page: () => Page, extra?: ExtraRoute): Promise<PageServer> {
  const server = http.createServer((req, res) => {
    const host = req.headers.host;
    const problem = host === undefined ? NO_HOST_MESSAGE : foreignHostProblem(host, []);
    if (problem !== null) {
      res.writeHead(host === undefined ? 400 : 403, { "content-type": "text/plain; charset=utf-8" });
      res.end(problem);
      return;
    }
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (pathname === "/" || pathname === "/index.html") {
      const { status, body } = page();
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(body);
    } else if (!extra?.(pathname, req, res)) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin, close };
}
