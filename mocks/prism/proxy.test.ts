// The validating proxy (Prism proxy mode, errors on) in front of a throwaway upstream.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy, type RunningMock } from "./server.js";
import { call, failure } from "./testing.js";
import { SERVER_ERROR_TYPE } from "./errors.js";
import { errorResponse } from "../sandbox/core/answer.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/openapi.yaml", import.meta.url));
const seen: string[] = [];
let upstream: Server;
let proxy: RunningMock;

const answers: Record<string, unknown> = {
  "/v1/people": { data: [{ slug: "priya-raman" }], meta: { count: 1 } },
  "/v1/people/priya-raman": { data: { slug: "priya-raman", full_name: "Priya Raman" } },
  "/v1/people/broken": { data: { slug: 42 } },
};

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push(`${req.method} ${req.url} auth=${req.headers.authorization ? "yes" : "no"}`);
    const body = answers[path];
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { error: { type: "not_found", message: "person not found" } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startProxy({ port: 0, spec: FIXTURE, quiet: true, upstream: `http://127.0.0.1:${port}/v1` });
});
afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe("validating proxy", () => {
  it("forwards under the upstream's /v1 and passes a conforming answer through", async () => {
    const result = await call(proxy.baseUrl, { path: "/people?limit=1" });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(answers["/v1/people"]);
    expect(seen).toContain("GET /v1/people?limit=1 auth=yes");
  });

  it("passes an upstream page through unchanged whatever the offset (the mock's empty last page is the mock's alone)", async () => {
    const result = await call(proxy.baseUrl, { path: "/people?limit=1&offset=25" });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(answers["/v1/people"]);
  });

  it("passes a documented upstream error through", async () => {
    const result = await call(proxy.baseUrl, { path: "/people/nobody" });
    expect(failure(result, 404, "not_found")).toBe("person not found");
  });

  it("turns a response that breaks the spec into a 500 naming the violation", async () => {
    const result = await call(proxy.baseUrl, { path: "/people/broken" });
    expect(failure(result, 500, SERVER_ERROR_TYPE)).toMatch(/^contract violation: .*GET \/v1\/people\/broken.*slug/);
  });

  it("a 5xx carries the same error.type from the mock and the sandbox", async () => {
    const result = await call(proxy.baseUrl, { path: "/people/broken" });
    // The sandbox's answer to a failure of its own.
    const sandbox = JSON.parse(errorResponse(new Error("boom"), () => undefined).body ?? "{}") as {
      error: { type: string };
    };
    expect([result.status, (result.body as { error: { type: string } }).error.type]).toEqual([500, sandbox.error.type]);
  });

  it("rejects a request that breaks the spec before forwarding it", async () => {
    const before = seen.length;
    const result = await call(proxy.baseUrl, { path: "/people?limit=101" });
    expect(failure(result, 400, "invalid_request")).toBe("limit must be <= 100");
    expect(seen.length).toBe(before);
  });

  it("answers 502 when the upstream is unreachable", async () => {
    const down = await startProxy({ port: 0, spec: FIXTURE, quiet: true, upstream: "http://127.0.0.1:9/v1" });
    try {
      const result = await call(down.baseUrl, { path: "/people" });
      failure(result, 502, SERVER_ERROR_TYPE);
    } finally {
      await down.close();
    }
  });

  it("refuses a non-http upstream", () => {
    expect(() => startProxy({ upstream: "ftp://example.com/v1" })).toThrow(/http\(s\) URL/);
  });
});
