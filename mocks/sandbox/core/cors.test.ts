/**
 * CORS of the core (cors.ts, control.ts), in-process: a page on another origin can neither read the control
 * endpoints (`/__sandbox/state`, `/__sandbox/jobs`: no allow-origin, and a 403) nor pass their preflight; the
 * sandbox's own origin can. The API answers any origin by default (`*`), and with `corsOrigins`
 * (`--cors-origin`) only the listed ones: another origin's preflight gets no allow-origin, so its page cannot
 * create or delete Lists with the published test keys.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import { parseCli } from "../hosts/node/cli.js";
import { createSandboxCore, type CoreOptions, type SandboxCore } from "./core.js";
import { fixtureGraphInput } from "../data/fixture.js";

const spec = loadSpec();
const opened: SandboxCore[] = [];
function open(options: Partial<CoreOptions> = {}): SandboxCore {
  const core = createSandboxCore({ spec, graph: fixtureGraphInput(), rateLimit: false, timers: false, ...options });
  opened.push(core);
  return core;
}
afterEach(() => {
  for (const core of opened.splice(0)) core.close();
});

const HOST = "127.0.0.1:4011";
const EVIL = "https://evil.example";

describe("the control endpoints from another origin", () => {
  for (const url of ["/__sandbox/state", "/__sandbox/jobs"])
    it(`GET ${url}: a 403 without allow-origin; the sandbox's own origin and no Origin are answered`, async () => {
      const core = open();
      const foreign = await core.handle({ method: "GET", url, headers: { host: HOST, origin: EVIL } });
      expect(foreign.status).toBe(403);
      expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
      const own = await core.handle({ method: "GET", url, headers: { host: HOST, origin: `http://${HOST}` } });
      expect(own.status).toBe(200);
      expect(own.headers["access-control-allow-origin"]).toBe(`http://${HOST}`);
      expect((await core.handle({ method: "GET", url, headers: { host: HOST } })).status).toBe(200);
    });

  it("a foreign preflight for a control write gets no allow-origin", async () => {
    const core = open();
    const res = await core.handle({
      method: "OPTIONS",
      url: "/__sandbox/reset",
      headers: { host: HOST, origin: EVIL, "access-control-request-method": "POST" },
    });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("the API's CORS", () => {
  const preflight = (core: SandboxCore, origin: string) =>
    core.handle({
      method: "OPTIONS",
      url: "/v1/lists",
      headers: {
        host: HOST,
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    });

  it("answers any origin by default (published test keys, keys in headers, never credentials)", async () => {
    const res = await preflight(open(), EVIL);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("with corsOrigins, answers only those origins (negative: another origin gets none)", async () => {
    const core = open({ corsOrigins: ["http://localhost:5173"] });
    const listed = await preflight(core, "http://localhost:5173");
    expect(listed.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(listed.headers.vary).toBe("origin");
    const other = await preflight(core, EVIL);
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    expect(other.headers["access-control-allow-headers"]).toBeUndefined();
  });

  it("--cors-origin takes a comma list of origins, and refuses anything else", () => {
    expect(parseCli(["--cors-origin", "http://localhost:5173,https://app.example"], {})).toEqual({
      corsOrigins: ["http://localhost:5173", "https://app.example"],
    });
    expect(() => parseCli(["--cors-origin", "localhost:5173"], {})).toThrow(/--cors-origin takes origins/);
    expect(() => parseCli(["--cors-origin", "http://a.example/path"], {})).toThrow(/--cors-origin takes origins/);
  });
});
