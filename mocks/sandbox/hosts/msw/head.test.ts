/**
 * HEAD on a GET route answers as GET without a body in the MSW host too, for the sandbox and the stateless
 * mock handlers alike (the Node servers: hosts/node/cross-server.test.ts).
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, createSandboxHandlers } from "./msw.js";

const BASE = "http://localhost:5173/v1";
const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => {
  server.close();
  sandbox.close();
});

describe("HEAD on a GET route answers as GET without a body, in MSW", () => {
  const hosts = [
    ["sandbox", sandbox.handlers, sandbox.keys.acme],
    ["mock", createMockHandlers({ baseUrl: BASE }).handlers, "test"],
  ] as const;
  for (const [name, handlers, key] of hosts) {
    it.each(["/people?limit=1", "/lists", "/me", "/lists/00000000-0000-4000-8000-000000000000"])(
      `${name}: HEAD %s`,
      async (path) => {
        server.resetHandlers(...handlers);
        const headers = { authorization: `Bearer ${key}` };
        const get = await fetch(`${BASE}${path}`, { headers });
        const head = await fetch(`${BASE}${path}`, { method: "HEAD", headers });
        expect(head.status).toBe(get.status);
        expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
        expect(await head.text()).toBe("");
        expect((await get.text()).length).toBeGreaterThan(0);
      },
    );
  }
  it("HEAD on a route without GET is not answered as a GET (405 or 404 like any other method)", async () => {
    server.resetHandlers(...sandbox.handlers);
    const head = await fetch(`${BASE}/signals/test`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${sandbox.keys.acme}` },
    });
    expect([404, 405]).toContain(head.status);
  });
});
