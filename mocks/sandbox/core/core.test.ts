/**
 * The transport-free core on its own: plain requests in, plain answers out, no server; control endpoints
 * served by the core; time moved deterministically with advance(ms); state storage injected.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { StateStorage, StoredState } from "../contract/context.js";
import { createSandboxCore, type CoreOptions, type SandboxCore } from "./core.js";
import { fixtureGraphInput } from "../data/fixture.js";

const spec = loadSpec();
const T0 = Date.parse("2026-11-22T08:00:00.000Z");
const opened: SandboxCore[] = [];

function open(options: Partial<CoreOptions> = {}): SandboxCore {
  const core = createSandboxCore({
    spec,
    graph: fixtureGraphInput(),
    rateLimit: false,
    jobFailureRate: 0,
    now: () => T0,
    timers: false,
    ...options,
  });
  opened.push(core);
  return core;
}

afterEach(() => {
  for (const core of opened.splice(0)) core.close();
});

const key = (core: SandboxCore) => ({ authorization: `Bearer ${core.keys[0]!.key}` });
const parse = (body: string | undefined) => (body === undefined ? undefined : JSON.parse(body));

describe("createSandboxCore().handle", () => {
  it("answers a read with status, lower-case headers and a JSON body", async () => {
    const core = open();
    const res = await core.handle({ method: "GET", url: "/v1/people/priya-raman", headers: key(core) });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(parse(res.body).data.slug).toBe("priya-raman");
  });

  it("takes an absolute URL and a Uint8Array body", async () => {
    const core = open();
    const body = new TextEncoder().encode(JSON.stringify({ name: "Shortlist" }));
    const res = await core.handle({
      method: "POST",
      url: "https://api.example.com/v1/lists",
      headers: { ...key(core), "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(201);
    expect(parse(res.body).data.name).toBe("Shortlist");
  });

  it("rejects bad input in the reference's shape, never throwing", async () => {
    const core = open();
    const cases = [
      { req: { method: "GET", url: "/v1/people?limit=101", headers: key(core) }, status: 400, type: "invalid_request" },
      { req: { method: "GET", url: "/v1/people", headers: {} }, status: 401, type: "unauthorized" },
      {
        req: {
          method: "POST",
          url: "/v1/lists",
          headers: { ...key(core), "content-type": "application/json" },
          body: "{nope",
        },
        status: 400,
        type: "invalid_request",
      },
      {
        req: {
          method: "POST",
          url: "/v1/lists",
          headers: { ...key(core), "content-type": "text/plain" },
          body: "name=x",
        },
        status: 400,
        type: "invalid_request",
      },
      { req: { method: "GET", url: "/v1/people/%E0%A4%A", headers: key(core) }, status: 400, type: "invalid_request" },
      { req: { method: "GET", url: "/v1/nowhere", headers: key(core) }, status: 404, type: "not_found" },
      { req: { method: "GET", url: "/v1/people/", headers: key(core) }, status: 404, type: "not_found" },
    ];
    for (const c of cases) {
      const res = await core.handle(c.req);
      expect(res.status, c.req.url).toBe(c.status);
      expect(parse(res.body).error.type, c.req.url).toBe(c.type);
    }
  });

  it("answers a preflight with 204 and CORS headers, without a key", async () => {
    const core = open();
    const res = await core.handle({
      method: "OPTIONS",
      url: "/v1/people",
      headers: { origin: "http://localhost:5173" },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    // Keys travel in headers, not cookies: any origin, never credentials.
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("limits per remote address", async () => {
    const core = open({ rateLimit: { max: 1, windowMs: 60_000 } });
    const req = { method: "GET", url: "/v1/people?limit=1", headers: key(core), remoteAddress: "10.0.0.1" };
    expect((await core.handle(req)).status).toBe(200);
    expect((await core.handle(req)).status).toBe(429);
    expect((await core.handle({ ...req, remoteAddress: "10.0.0.2" })).status).toBe(200);
  });
});

describe("control, clock and storage", () => {
  it("serves /__sandbox/* and reset() goes back to the seed", async () => {
    const core = open();
    const headers = { ...key(core), "content-type": "application/json" };
    await core.handle({ method: "POST", url: "/v1/lists", headers, body: JSON.stringify({ name: "Keep" }) });
    const state = parse((await core.handle({ method: "GET", url: "/__sandbox/state", headers: {} })).body);
    expect(state.data.organizations[0].lists).toBeGreaterThan(0);
    core.reset();
    const after = parse((await core.handle({ method: "GET", url: "/__sandbox/state", headers: {} })).body);
    expect(after.data.organizations[0].lists).toBe(0);
  });

  it("POST /__sandbox/reset is reset(): the seed and the starting clock, over HTTP as from code", async () => {
    const core = open({ now: "2026-11-27T09:00:00Z" });
    const iso = () => new Date(core.ctx.options.now()).toISOString();
    core.advance(3_600_000);
    expect(iso()).toBe("2026-11-27T10:00:00.000Z");
    const headers = { "content-type": "application/json" };
    const res = await core.handle({ method: "POST", url: "/__sandbox/reset", headers, body: "{}" });
    expect(res.status).toBe(200);
    expect(iso()).toBe("2026-11-27T09:00:00.000Z");
    core.setNow("2026-01-01T00:00:00Z");
    core.reset();
    expect(iso()).toBe("2026-11-27T09:00:00.000Z");
  });

  it("advance(ms) moves a Target's job to done with no timer and no wall clock", async () => {
    const core = open({ jobSpeed: 1 });
    const headers = { ...key(core), "content-type": "application/json" };
    const created = parse(
      (
        await core.handle({
          method: "POST",
          url: "/v1/targets",
          headers,
          body: JSON.stringify({ input: "Northwind Labs" }),
        })
      ).body,
    );
    const status = async () =>
      parse((await core.handle({ method: "GET", url: `/v1/targets/${created.data.id}`, headers })).body).data.job
        .status;
    expect(await status()).toBe("pending");
    core.advance(1_000);
    expect(await status()).not.toBe("done");
    core.advance(60_000);
    expect(await status()).toBe("done");
    expect(() => core.advance(-1)).toThrow(/non-negative/);
  });

  it("loads from and saves to the injected storage", async () => {
    let stored: StoredState | null = null;
    let writes = 0;
    const storage: StateStorage = {
      location: "memory",
      load: () => stored,
      write(change) {
        writes++;
        const kept = change.all
          ? []
          : (stored?.orgs ?? []).filter((o) => !change.orgs.some((c) => c.info.id === o.info.id));
        stored = { orgs: [...kept, ...change.orgs], shared: change.shared };
      },
    };
    const first = open({ storage });
    const headers = { ...key(first), "content-type": "application/json" };
    await first.handle({ method: "POST", url: "/v1/lists", headers, body: JSON.stringify({ name: "Survives" }) });
    // Acknowledged means stored: the write reached the storage before the answer.
    expect(writes).toBe(1);
    expect(open({ storage }).ctx.state.orgs.size).toBeGreaterThan(0);
    const control = { "content-type": "application/json" };
    const saved = parse((await first.handle({ method: "POST", url: "/__sandbox/state/save", headers: control })).body);
    expect(saved).toEqual({ data: { saved: "memory" } });
    const second = open({ storage });
    const lists = parse((await second.handle({ method: "GET", url: "/v1/lists", headers })).body).data.map(
      (l: { name: string }) => l.name,
    );
    expect(lists).toContain("Survives");
    const none = open();
    const refused = await none.handle({ method: "POST", url: "/__sandbox/state/save", headers: control });
    expect([refused.status, parse(refused.body).error.message]).toEqual([400, expect.stringMatching(/--state-file/)]);
  });
});
