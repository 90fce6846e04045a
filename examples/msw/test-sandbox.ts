/**
 * The kit's test files' shared setup: `sandboxServer()` makes one `setupServer` for the file, listening while
 * its tests run, and `open()`, a sandbox answering BASE from then on (the previous one's handlers dropped, as
 * a page reload does) with a client of the acme key; every sandbox opened is closed with the server.
 * `recordingClient()` is a client that writes down every answer: method, URL, status, headers and body.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll } from "vitest";
import { createTalentGraphClient } from "../../client/index.js";
import {
  createSandboxHandlers,
  type SandboxHandlers,
  type SandboxHandlersOptions,
} from "../../mocks/sandbox/hosts/msw/msw.js";

export const BASE = "http://localhost:5173/v1";

// retry: false -> the client shows each answer as the sandbox gave it (it would retry a 503 or a network error).
const clientOf = (sandbox: SandboxHandlers, fetch?: (request: Request) => Promise<Response>) =>
  createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.acme, retry: false, ...(fetch ? { fetch } : {}) });

/** The file's server and its `open(options)`; `defaults` go under every sandbox's options (timers off). */
export function sandboxServer(defaults: SandboxHandlersOptions = {}) {
  const server = setupServer();
  const opened: SandboxHandlers[] = [];
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
  afterAll(() => {
    server.close();
    for (const sandbox of opened) sandbox.close();
  });
  const open = (options: SandboxHandlersOptions = {}) => {
    const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false, ...defaults, ...options });
    opened.push(sandbox);
    server.resetHandlers(...sandbox.handlers);
    return { sandbox, client: clientOf(sandbox) };
  };
  return { server, open };
}

/**
 * A client of `sandbox` that writes each answer down as `METHOD url -> status [headers sorted]` and the body
 * text on the next line (`body` may rewrite the text first).
 */
export function recordingClient(
  sandbox: SandboxHandlers,
  body: (text: string, request: Request) => string = (text) => text,
): { client: ReturnType<typeof clientOf>; answers: string[] } {
  const answers: string[] = [];
  const client = clientOf(sandbox, async (request) => {
    const response = await fetch(request);
    const headers = JSON.stringify([...response.headers].sort());
    const text = body(await response.clone().text(), request);
    answers.push(`${request.method} ${request.url} -> ${response.status} ${headers}\n${text}`);
    return response;
  });
  return { client, answers };
}
