import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractValidator, exchangeFromFetch, formatErrors } from "../contract-core/index.js";

let server: Server;
let origin = "";
const contract = createContractValidator("contract-tests/fixtures/mini-openapi.json");

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === "DELETE") return void res.writeHead(204).end();
    if (req.url?.startsWith("/v1/text")) return void res.writeHead(200, { "content-type": "text/plain" }).end("hello");
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-ratelimit-limit": "300" });
    res.end(JSON.stringify({ data: [], meta: { count: 0 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("exchangeFromFetch", () => {
  it("reads the JSON body once and returns it with normalized headers, ready to validate", async () => {
    const req = {
      method: "get",
      url: `${origin}/v1/people?limit=2`,
      headers: new Headers({ Authorization: "Bearer [redacted]" }),
    };
    const res = await fetch(req.url, { headers: req.headers });
    const exchange = await exchangeFromFetch(req, res);
    expect(res.bodyUsed).toBe(true);
    expect(exchange.request).toEqual({
      method: "GET",
      url: req.url,
      headers: { authorization: "Bearer [redacted]" },
      body: null,
    });
    expect(exchange.response).toMatchObject({
      status: 200,
      body: { data: [], meta: { count: 0 } },
      headers: { "content-type": "application/json; charset=utf-8", "x-ratelimit-limit": "300" },
    });
    const result = contract.validate(exchange);
    expect(result.valid, formatErrors(result)).toBe(true);
  });
  it("parses a JSON string request body and maps an empty 204 body to null", async () => {
    const url = `${origin}/v1/lists/0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f`;
    const init = {
      method: "DELETE",
      headers: { "X-Api-Key": "[redacted]", "content-type": "application/json" },
      body: JSON.stringify({ reason: "x" }),
    };
    const exchange = await exchangeFromFetch({ url, ...init }, await fetch(url, init));
    expect(exchange.request.body).toEqual({ reason: "x" });
    expect(exchange.request.headers).toEqual({ "x-api-key": "[redacted]", "content-type": "application/json" });
    expect(exchange.response).toEqual({ status: 204, headers: expect.any(Object) as object, body: null });
    expect(contract.validate(exchange).errors.map((e) => e.message)).toEqual([
      "deleteList documents no request body, but one was sent",
    ]);
  });
  it("keeps a non-JSON body as text so the content-type check can report it", async () => {
    const url = `${origin}/v1/text`;
    const exchange = await exchangeFromFetch({ url }, await fetch(url));
    expect(exchange.response.body).toBe("hello");
  });
});
