/**
 * A scripted stand-in for the API, for the fuzzer's own tests: it serves GET /v1/me (getAccount) on
 * 127.0.0.1 with a free port, records every request, and answers as a behaviour says, so that each check
 * can be shown to fire (a 500, an undocumented status, a schema-violating body, a 200 to an invalid
 * request, a 4xx without the error shape) and to stay quiet on a server that keeps the contract. With
 * `rateLimit`, it answers 429 with Retry-After past `max` requests in a window, as a rate-limited deployment does.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_SPEC_PATH, deref, isObj, loadSpec, resolvePointer } from "../../contract-core/index.js";

export type Behaviour =
  "correct" | "server-error" | "undocumented-status" | "schema-violation" | "accepts-anything" | "bare-4xx";

export interface ReceivedRequest {
  method: string;
  url: string;
  authorization?: string;
  apiKey?: string;
  body: string;
}

export interface FakeApi {
  baseUrl: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export const FAKE_KEY = "fake-key-0123456789";

/** The spec's first example of getAccount's 200 answer, so that the correct behaviour is valid by construction. */
function accountExample(): unknown {
  const doc = loadSpec(DEFAULT_SPEC_PATH);
  const examples = resolvePointer(doc, "#/paths/~1me/get/responses/200/content/application~1json/examples");
  const example = isObj(examples) ? deref(doc, Object.values(examples)[0]) : undefined;
  if (!isObj(example)) throw new Error("getAccount has no 200 example");
  return example.value;
}

const unauthorized = { error: { type: "unauthorized", message: "Missing or invalid API key" } };

function authorized(req: IncomingMessage): boolean {
  return req.headers.authorization === `Bearer ${FAKE_KEY}` || req.headers["x-api-key"] === FAKE_KEY;
}

export interface FakeRateLimit {
  /** Requests answered per window; the rest get 429. */
  max: number;
  /** The window, also sent as Retry-After. */
  retryAfterSeconds: number;
}

export async function startFakeApi(behaviour: Behaviour, rateLimit?: FakeRateLimit): Promise<FakeApi> {
  const account = accountExample();
  const received: ReceivedRequest[] = [];
  let window = { start: 0, count: 0 };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        apiKey: req.headers["x-api-key"] as string | undefined,
        body,
      });
      const send = (status: number, payload?: unknown): void => {
        res.writeHead(status, payload === undefined ? {} : { "content-type": "application/json" });
        res.end(payload === undefined ? undefined : JSON.stringify(payload));
      };
      if (rateLimit) {
        const now = Date.now();
        if (now - window.start >= rateLimit.retryAfterSeconds * 1000) window = { start: now, count: 0 };
        if (++window.count > rateLimit.max) {
          res.writeHead(429, {
            "content-type": "application/json",
            "retry-after": String(rateLimit.retryAfterSeconds),
          });
          const message = `Rate limit exceeded, retry in ${rateLimit.retryAfterSeconds} seconds`;
          return res.end(JSON.stringify({ statusCode: 429, error: "Too Many Requests", message }));
        }
      }
      if (!req.url?.startsWith("/v1/me")) return send(404, { error: { type: "not_found", message: "no such route" } });
      const ok = authorized(req);
      switch (behaviour) {
        case "correct":
          return ok ? send(200, account) : send(401, unauthorized);
        case "server-error":
          return send(500, { error: { type: "internal", message: "boom" } });
        case "undocumented-status":
          return ok ? send(418, { error: { type: "teapot", message: "I am a teapot" } }) : send(401, unauthorized);
        case "schema-violation":
          return ok ? send(200, { data: "not an account" }) : send(401, unauthorized);
        case "accepts-anything":
          return send(200, account);
        case "bare-4xx":
          return ok ? send(200, account) : send(401, { message: "no key" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
