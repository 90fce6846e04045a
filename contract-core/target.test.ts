// checkTarget: one probe names an unreachable server, a refused key and a missing base path; a good target passes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTarget } from "./target.js";

const KEY = "tgsb_good_0123456789";
const OPTIONS = { basePath: "/v1", keySource: "TALENT_GRAPH_API_KEY" };
let server: Server;
let origin = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/v1/me" && req.headers.authorization === `Bearer ${KEY}`) return json(200, { data: {} });
    if (req.url === "/v1/me" && req.headers.authorization === "Bearer tgsb_other_org")
      return json(403, { error: { type: "forbidden", message: "Not allowed" } });
    if (req.url === "/v1/me") return json(401, { error: { type: "unauthorized", message: "API key revoked" } });
    json(404, { error: { type: "not_found", message: "No such path" } });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));

describe("checkTarget", () => {
  it("lets a run start when the deployment accepts the key", async () => {
    expect(await checkTarget(`${origin}/v1/`, KEY, OPTIONS)).toBeUndefined();
  });

  it("names a 401 and a 403 with the server's error and the key's variable, never the key", async () => {
    const revoked = await checkTarget(`${origin}/v1`, "tgsb_revoked_secret", OPTIONS);
    expect(revoked).toBe(
      `${origin}/v1 answered GET /me with 401 Unauthorized (unauthorized: API key revoked): the key in ` +
        "TALENT_GRAPH_API_KEY is missing, wrong, revoked or for another deployment.",
    );
    expect(revoked).not.toContain("tgsb_revoked_secret");
    expect(await checkTarget(`${origin}/v1`, "tgsb_other_org", OPTIONS)).toContain("403 Forbidden (forbidden");
  });

  it("says an unreachable server is not reachable, in one line", async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(await checkTarget(`http://127.0.0.1:${port}/v1`, KEY, OPTIONS)).toBe(
      `http://127.0.0.1:${port}/v1 is not reachable (connection refused); check that the server is running and the URL is right.`,
    );
    expect(await checkTarget("http://127.0.0.1:1/v1", KEY, OPTIONS)).toBe(
      "http://127.0.0.1:1/v1 is not reachable (port 1 is one that fetch refuses to use, as browsers do); " +
        "check that the server is running and the URL is right.",
    );
  });

  it("suggests the base path when the URL lacks it and the probe is a 404", async () => {
    expect(await checkTarget(origin, KEY, OPTIONS)).toBe(
      `GET ${origin}/me answered 404 Not Found, and ${origin} does not end with /v1, the spec's base path: ` +
        `did you mean ${origin}/v1?`,
    );
  });
});
