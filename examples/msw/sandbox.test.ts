/**
 * A component-test style session against the sandbox inside MSW (no server process): msw/node's
 * setupServer intercepts the typed client's fetch calls and answers them from the in-process sandbox.
 * In your project import from the package instead:
 *   import { createSandboxHandlers } from "talent-graph-api-contract/msw";
 *   import { createTalentGraphClient } from "talent-graph-api-contract/client";
 * The run's consumer contract (what this app exercised of the API) is the committed consumers/examples-msw.json,
 * which the gate checks against every pull request's spec; WRITE_CONSUMER_CONTRACTS=1 rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTalentGraphClient, unwrap } from "../../client/index.js";
import { createSandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";

// timers: false -> jobs and events move only when the test calls advance(ms).
const sandbox = createSandboxHandlers({ baseUrl: "http://localhost:5173/v1", timers: false });
const server = setupServer(...sandbox.handlers);
const apiKey = sandbox.keys.acme;
const client = createTalentGraphClient({ baseUrl: "http://localhost:5173/v1", apiKey });
const CONTRACT_FILE = new URL("../../consumers/examples-msw.json", import.meta.url);

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => sandbox.reset());
afterAll(() => {
  server.close();
  sandbox.close();
});

describe("the sandbox in MSW", () => {
  it("search -> dossier -> people Target -> job done -> admit a proposed member -> its events", async () => {
    const found = unwrap(await client.GET("/people", { params: { query: { role_family: "engineering", limit: 5 } } }));
    expect(found.data.length).toBeGreaterThan(0);

    const slug = found.data.find((p) => p.slug)!.slug!;
    const dossier = unwrap(await client.GET("/people/{slug}", { params: { path: { slug } } })).data;
    expect(dossier.slug).toBe(slug);

    const created = await client.POST("/targets", {
      body: { kind: "people", input: "Engineers", app_query: { keywords: "engineer" } },
    });
    const target = unwrap(created).data;
    expect([created.response.status, target.job.status]).toEqual([202, "pending"]);

    sandbox.advance(10 * 60_000); // the discovery job runs to its end
    const done = unwrap(await client.GET("/targets/{id}", { params: { path: { id: target.id } } })).data;
    expect(done.job.status).toBe("done");

    const proposed = unwrap(
      await client.GET("/targets/{id}/members", { params: { path: { id: target.id }, query: { status: "proposed" } } }),
    ).data;
    expect(proposed.length).toBeGreaterThan(0);
    const admitted = unwrap(
      await client.POST("/targets/{id}/members", {
        params: { path: { id: target.id } },
        body: { status: "watching", urls: [proposed[0]!.network_url] },
      }),
    ).data;
    expect(admitted.updated).toBe(1);

    sandbox.advance(24 * 60 * 60_000); // a day of profile changes for the watched member
    // The Target's default List scopes the event stream to its watching members.
    const list = unwrap(await client.GET("/lists")).data.find((l) => l.source_watch_id === target.id)!;
    const events = unwrap(await client.GET("/events", { params: { query: { list: list.id, since: "2d" } } }));
    expect(events.data.length).toBeGreaterThan(0);
    expect(new Set(events.data.map((e) => e.person.network_url))).toEqual(new Set([proposed[0]!.network_url]));
  });

  it("answers bad input in the reference's shape", async () => {
    const bad = await client.GET("/people", { params: { query: { limit: 0 } } });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ error: { type: "invalid_request" } });
  });

  // Last: the contract of every request the tests above sent (reset() after each keeps it).
  it("writes its consumer contract, the committed one", () => {
    const contract = sandbox.consumerContract({ name: "examples-msw", version: "1.0.0" });
    const text = `${JSON.stringify(contract, null, 2)}\n`;
    if (process.env.WRITE_CONSUMER_CONTRACTS === "1") writeFileSync(CONTRACT_FILE, text);
    expect(text, "consumers/examples-msw.json is stale: run this file with WRITE_CONSUMER_CONTRACTS=1").toBe(
      readFileSync(CONTRACT_FILE, "utf8"),
    );
    expect(contract.interactions.map((i) => `${i.operationId} ${i.status}`)).toEqual(
      expect.arrayContaining(["getPerson 200", "searchPeople 200", "searchPeople 400", "createTarget 202"]),
    );
  });
});
