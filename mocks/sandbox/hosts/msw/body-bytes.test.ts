/**
 * The MSW host hands the core a body's bytes, so a JSON body that is not UTF-8 (or starts with a byte order
 * mark) gets the same 400 as from the Node host and the mock (hosts/node/body-bytes.test.ts), never U+FFFD.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureGraphInput } from "../../data/fixture.js";
import { createSandboxHandlers } from "./msw.js";

const BASE = "http://sandbox.test/v1";
const sandbox = createSandboxHandlers({ baseUrl: BASE, graph: fixtureGraphInput(), timers: false });
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => {
  server.close();
  sandbox.close();
});

async function post(bytes: number[] | string) {
  const body = typeof bytes === "string" ? new TextEncoder().encode(bytes) : new Uint8Array(bytes);
  const res = await fetch(`${BASE}/lists`, {
    method: "POST",
    headers: { authorization: `Bearer ${sandbox.keys.acme}`, "content-type": "application/json" },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error?: { type: string; message: string } } };
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

describe("a JSON body's bytes through MSW", () => {
  it("not UTF-8: 400 naming the byte offset", async () => {
    expect(await post([...ascii('{"name":"A'), 0xff, ...ascii('"}')])).toEqual({
      status: 400,
      body: { error: { type: "invalid_request", message: "request body is not valid UTF-8 (at byte offset 10)" } },
    });
    expect(JSON.stringify(sandbox.snapshot())).not.toContain("\ufffd");
  });

  it("a leading byte order mark: 400", async () => {
    const res = await post([0xef, 0xbb, 0xbf, ...ascii('{"name":"B"}')]);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toMatch(/byte order mark/);
  });

  it("well-formed multi-byte text is taken, and recorded in calls() (near miss)", async () => {
    expect((await post('{"name":"Zürich 😀"}')).status).toBe(201);
    expect(sandbox.calls("createList").at(-1)?.body).toEqual({ name: "Zürich 😀" });
  });
});
