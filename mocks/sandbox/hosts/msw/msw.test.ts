/**
 * What only the MSW host adds (the sandbox's behaviour runs on it through the harness, project
 * sandbox-msw): mounting under any base URL, state persisted through a storage on each change, and the
 * stateless example handlers. Every API answer is validated against the spec.
 */
import { getResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import type { StateStorage } from "../../contract/context.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { assertContract } from "../../testing/harness.js";
import { createMockHandlers, createSandboxHandlers, defaultBaseUrl, localStorageState } from "./msw.js";

type Handlers = { handlers: Parameters<typeof getResponse>[0] };

/** Sends one request through the handlers; validates the exchange when it reached the API (under /v1). */
async function call(
  h: Handlers,
  url: string,
  init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const method = init.method ?? "GET";
  const headers: Record<string, string> = {
    ...init.headers,
    ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
  };
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (payload) headers["content-type"] = "application/json";
  const res = await getResponse(h.handlers, new Request(url, { method, headers, body: payload }));
  if (!res) return null;
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  const path = new URL(url).pathname.replace(/^.*?(\/v1\/)/, "$1");
  // An unknown path has no operation to validate against; its shape is asserted by the test.
  if (!path.endsWith("/nowhere"))
    assertContract(
      {
        request: { method, url: path + new URL(url).search, headers, body: init.body },
        response: { status: res.status, headers: Object.fromEntries(res.headers), body },
      },
      { invalidRequest: res.status >= 400 },
    );
  return { status: res.status, headers: res.headers, body };
}

/** A storage over one in-memory text, the way localStorage keeps it. */
function memoryStorage(): StateStorage & { text: string | null } {
  const holder = { text: null as string | null };
  const fake = {
    getItem: () => holder.text,
    setItem: (_key: string, value: string) => void (holder.text = value),
    removeItem: () => void (holder.text = null),
  } as unknown as Storage;
  return Object.defineProperty(localStorageState("memory", fake), "text", {
    get: () => holder.text,
    set: (value: string | null) => void (holder.text = value),
  }) as StateStorage & { text: string | null };
}

describe("createSandboxHandlers", () => {
  it("answers under the spec's server URL by default and nowhere else", async () => {
    const sb = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false });
    const key = sb.keys.acme;
    expect(defaultBaseUrl()).toBe("https://api.talent-graph.example/v1");
    expect((await call(sb, "https://api.talent-graph.example/v1/people/priya-raman", { key }))!.body.data.slug).toBe(
      "priya-raman",
    );
    expect(await call(sb, "https://elsewhere.example/v1/people/priya-raman", { key })).toBeNull();
    expect(await call(sb, "https://api.talent-graph.example/v2/people", { key })).toBeNull();
    sb.close();
  });

  it("mounts at any origin and path; a path alone answers on every origin", async () => {
    const app = createSandboxHandlers({
      graph: fixtureGraphInput(),
      timers: false,
      baseUrl: "http://localhost:5173/api/v1",
    });
    const key = app.keys.acme;
    expect((await call(app, "http://localhost:5173/api/v1/people/priya-raman", { key }))!.status).toBe(200);
    expect(await call(app, "http://localhost:5173/v1/people/priya-raman", { key })).toBeNull();
    const missing = await call(app, "http://localhost:5173/api/v1/nowhere", { key });
    expect(missing!.status).toBe(404);
    expect(missing!.body.error.type).toBe("not_found");
    app.close();
    const anywhere = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, baseUrl: "/v1" });
    expect((await call(anywhere, "http://127.0.0.1:9/v1/people/priya-raman", { key }))!.status).toBe(200);
    anywhere.close();
  });

  it("rejects bad input in the reference's shapes, never a crash", async () => {
    const sb = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false });
    const base = defaultBaseUrl();
    const noKey = await call(sb, `${base}/people`);
    expect([noKey!.status, noKey!.body.error.type]).toEqual([401, "unauthorized"]);
    const broken = await call(sb, `${base}/lists`, {
      method: "POST",
      key: sb.keys.acme,
      body: undefined,
      headers: { "content-type": "application/json" },
    });
    expect(broken!.status).toBe(400);
    const res = await getResponse(
      sb.handlers,
      new Request(`${base}/lists`, {
        method: "POST",
        headers: { authorization: `Bearer ${sb.keys.acme}`, "content-type": "application/json" },
        body: "{oops",
      }),
    );
    expect(res!.status).toBe(400);
    expect((await res!.json()).error.message).toMatch(/^invalid JSON body/);
    sb.close();
  });

  it("with a storage, each accepted change is saved and a new sandbox starts from it; reset clears it", async () => {
    const storage = memoryStorage();
    const first = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: storage });
    const key = first.keys.acme;
    const base = defaultBaseUrl();
    const created = await call(first, `${base}/lists`, { method: "POST", key, body: { name: "Kept across reloads" } });
    expect(created!.status).toBe(201);
    expect(storage.text).toContain("Kept across reloads");
    const rejected = await call(first, `${base}/lists`, { method: "POST", key, body: { name: "" } });
    expect(rejected!.status).toBe(400);
    // No close(): a page reload never closes the sandbox.
    const second = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: storage });
    const names = (await call(second, `${base}/lists`, { key }))!.body.data.map((l: { name: string }) => l.name);
    expect(names).toContain("Kept across reloads");
    second.reset();
    expect(storage.text).not.toContain("Kept across reloads");
    const without = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false });
    expect(
      (await call(without, `${base}/lists`, { key }))!.body.data.map((l: { name: string }) => l.name),
    ).not.toContain("Kept across reloads");
    for (const sb of [first, second, without]) sb.close();
  });

  it("in a page, leaving it (pagehide) saves what time moved; close() stops listening", () => {
    const listeners = new Map<string, () => void>();
    vi.stubGlobal("addEventListener", (type: string, fn: () => void) => listeners.set(type, fn));
    vi.stubGlobal("removeEventListener", (type: string) => listeners.delete(type));
    try {
      const storage = memoryStorage();
      const sb = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: storage });
      storage.text = null;
      listeners.get("pagehide")!();
      expect(JSON.parse(storage.text!).version).toBe(2);
      sb.close();
      expect(listeners.has("pagehide")).toBe(false);
      const memoryOnly = createSandboxHandlers({ graph: fixtureGraphInput(), timers: false });
      expect(listeners.has("pagehide")).toBe(false);
      memoryOnly.close();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("localStorageState reads and writes one key; outside a browser it says what it needs", () => {
    const map = new Map<string, string>();
    const fake = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    } as Storage;
    const storage = localStorageState("tg", fake);
    expect(storage.load()).toBeNull();
    void storage.write({ orgs: [], all: true, shared: { ids: 0 } });
    expect([JSON.parse(map.get("tg")!), storage.location]).toEqual([
      { version: 2, orgs: [], shared: { ids: 0 } },
      "localStorage:tg",
    ]);
    expect(() => createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: true })).toThrow(
      /needs localStorage/,
    );
    expect(() => createSandboxHandlers({ graph: fixtureGraphInput(), timers: false, persist: 42 as never })).toThrow(
      /persist must be/,
    );
  });
});

describe("createMockHandlers", () => {
  const mock = createMockHandlers();
  const base = defaultBaseUrl();

  it("answers the default 2xx example, and the x-mock-match example for its query", async () => {
    const full = await call(mock, `${base}/people`, { key: "any-key" });
    const compact = await call(mock, `${base}/people?view=compact`, { key: "any-key" });
    expect(full!.status).toBe(200);
    expect(full!.body.data[0]).toHaveProperty("full_name");
    expect(compact!.body.data[0]).not.toHaveProperty("full_name");
    expect(compact!.body.data[0]).toHaveProperty("name");
  });

  it("takes Prefer code= and example= as npm run mock does, and names what is not documented", async () => {
    const locked = await call(mock, `${base}/me`, { key: "k", headers: { prefer: "example=locked" } });
    expect(locked!.body.data.access.allowed).toBe(false);
    expect(locked!.headers.get("preference-applied")).toBe("example=locked");
    const missing = await call(mock, `${base}/people/nobody`, { key: "k", headers: { prefer: "code=404" } });
    expect([missing!.status, missing!.body.error.type]).toEqual([404, "not_found"]);
    const undocumented = await call(mock, `${base}/people`, { key: "k", headers: { prefer: "code=404" } });
    expect(undocumented!.status).toBe(400);
    expect(undocumented!.body.error.message).toContain("documents no 404 response");
  });

  it("wants a key (any), validates the request and 404s unknown paths", async () => {
    expect((await call(mock, `${base}/people`))!.status).toBe(401);
    const bad = await call(mock, `${base}/people?limit=0`, { key: "k" });
    expect([bad!.status, bad!.body.error.message]).toEqual([400, "limit must be >= 1"]);
    const body = await call(mock, `${base}/lists`, { method: "POST", key: "k", body: { name: 42 } });
    expect(body!.status).toBe(400);
    expect((await call(mock, `${base}/nowhere`, { key: "k" }))!.status).toBe(404);
  });

  it("returns the same example whatever was created before (stateless)", async () => {
    const created = await call(mock, `${base}/lists`, { method: "POST", key: "k", body: { name: "Not stored" } });
    expect(created!.status).toBe(201);
    const lists = await call(mock, `${base}/lists`, { key: "k" });
    expect(JSON.stringify(lists!.body)).not.toContain("Not stored");
  });
});
