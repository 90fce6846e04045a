// The client against the Prism mock of the real spec (mocks/prism/server.ts): typed calls, auth,
// errors, retries, pagination and an event pass over HTTP. The mock is static: it answers from the
// spec's examples (choose one with the Prefer header), so these tests check wiring, not data.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_TYPESCRIPT } from "../contract-core/index.js";
import { startMock, type RunningMock } from "../mocks/prism/server.js";
import {
  SeenIds,
  TalentGraphError,
  createTalentGraphClient,
  paginatePeople,
  paginateTargetMembers,
  pollEventsOnce,
  unwrap,
  type TalentGraphClientOptions,
} from "./index.js";
import { fakeClock } from "./fixtures/fake.js";

let mock: RunningMock | undefined;

beforeAll(async () => {
  mock = await startMock({ port: 0, host: "127.0.0.1", quiet: true });
});

afterAll(async () => {
  await mock?.close();
});

/** A client on the mock whose fetch records every URL it sends. */
function mockClient(options: Partial<TalentGraphClientOptions> = {}) {
  if (!mock) throw new Error("mock not started");
  const urls: URL[] = [];
  const clock = fakeClock();
  const client = createTalentGraphClient({
    baseUrl: mock.baseUrl,
    apiKey: "integration-test-key",
    clock,
    random: () => 0.5,
    fetch: (request) => {
      urls.push(new URL(request.url));
      return fetch(request);
    },
    ...options,
  });
  return { client, urls, clock };
}

describe("client against the Prism mock", () => {
  it("searches people and reads the rate-limit headers", async () => {
    const { client } = mockClient();
    const result = await client.GET("/people", { params: { query: { nl: "staff engineers in Berlin", limit: 3 } } });
    const page = unwrap(result);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.meta).toMatchObject({ has_more: expect.any(Boolean), limit: expect.any(Number) });
    expect(result.rateLimit.limit).toEqual(expect.any(Number));
    expect(result.rateLimit.remaining).toEqual(expect.any(Number));
  });

  it.each(["bearer", "x-api-key"] as const)("reads a dossier with %s auth", async (auth) => {
    const { client } = mockClient({ auth });
    const { data, error } = await client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });
    expect(error).toBeUndefined();
    expect(data?.data.full_name).toBe("Priya Raman");
  });

  it("returns a 404 as an error result and unwrap turns it into a TalentGraphError", async () => {
    const { client, urls } = mockClient();
    const result = await client.GET("/people/{slug}", {
      params: { path: { slug: "nobody-here" } },
      headers: { Prefer: "code=404, example=not_found" },
    });
    expect(result.response.status).toBe(404);
    expect(urls).toHaveLength(1); // 404 is never retried
    expect(() => unwrap(result)).toThrow(TalentGraphError);
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 404, type: "not_found" }));
  });

  it("retries a 429 GET honouring the mock's Retry-After, then returns the 429", async () => {
    const { client, urls, clock } = mockClient({ retry: { maxRetries: 2, maxRetryAfterMs: 3_600_000 } });
    const result = await client.GET("/people", { headers: { Prefer: "code=429" } });
    expect(result.response.status).toBe(429);
    expect(urls).toHaveLength(3);
    const retryAfter = result.rateLimit.retryAfter;
    expect(retryAfter).toEqual(expect.any(Number));
    expect(clock.sleeps).toEqual([retryAfter! * 1000, retryAfter! * 1000]);
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 429, type: "too_many_requests" }));
  });

  it("does not retry a POST answered 500", async () => {
    const { client, urls } = mockClient();
    const result = await client.POST("/lists", { body: { name: "Leads" }, headers: { Prefer: "code=500" } });
    expect(result.response.status).toBe(500);
    expect(urls).toHaveLength(1);
  });

  it("creates and deletes a List", async () => {
    const { client } = mockClient();
    const { data: list } = unwrap(await client.POST("/lists", { body: { name: "Berlin staff engineers" } }));
    expect(list.id).toMatch(/^[0-9a-f-]{36}$/);
    const deleted = await client.DELETE("/lists/{id}", { params: { path: { id: list.id } } });
    expect(deleted.response.status).toBe(204);
    expect(unwrap(deleted)).toBeUndefined();
  });

  it("gets invalid_request for a body the spec rejects", async () => {
    const { client } = mockClient();
    const body = { description: "no name" } as unknown as { name: string };
    const result = await client.POST("/lists", { body });
    expect(result.response.status).toBe(400);
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ status: 400, type: "invalid_request" }));
  });

  it("walks people pages by meta.limit", async () => {
    const { client, urls } = mockClient();
    const pages = [];
    for await (const page of paginatePeople(client, { company: "northwind-labs" }, { maxPages: 2 })) pages.push(page);
    expect(pages).toHaveLength(2);
    const step = pages[0]!.meta.limit;
    expect(urls.map((url) => url.searchParams.get("offset"))).toEqual(["0", String(step)]);
  });

  it("walks target member pages while offset + limit is below meta.count", async () => {
    const { client, urls } = mockClient();
    const target = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
    const pages = [];
    for await (const page of paginateTargetMembers(client, target, { limit: 2 })) pages.push(page);
    const count = pages[0]!.meta.count;
    expect(pages).toHaveLength(Math.ceil(count / 2));
    expect(urls[0]?.pathname).toBe(`/v1/targets/${target}/members`);
  });

  it("runs event passes: one since per pass, cursor followed, ids de-duplicated across passes", async () => {
    const { client, urls } = mockClient();
    const seen = new SeenIds();
    const delivered: string[] = [];
    const onEvents = (events: { id: string }[]) => void delivered.push(...events.map((e) => e.id));
    const first = await pollEventsOnce(client, { checkpoint: "2026-11-18T00:00:00Z", seen, onEvents });
    expect(first.pages).toBe(2);
    expect(first.delivered).toBeGreaterThan(0);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(urls.map((url) => url.searchParams.get("since"))).toEqual([
      "2026-11-17T23:55:00.000Z",
      "2026-11-17T23:55:00.000Z",
    ]);
    expect(urls[1]?.searchParams.get("cursor")).toEqual(expect.any(String));

    const second = await pollEventsOnce(client, { checkpoint: first.checkpoint, seen, onEvents });
    expect(second).toMatchObject({ delivered: 0, duplicates: first.delivered });
    expect(urls[2]?.searchParams.has("cursor")).toBe(false);
  });
});

/** Runs a TypeScript script in its own process group; the group is killed if it outlives the test. */
async function runScript(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, script], {
    cwd: root,
    env: { ...process.env, ...env, NO_COLOR: "1" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", resolve);
    });
    return { code, stdout, stderr };
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  }
}

describe("examples/quickstart.ts against the mock", () => {
  it("prints a search result, a dossier name, the new List and one events pass", async () => {
    const apiKey = "quickstart-secret-key";
    const { code, stdout, stderr } = await runScript("examples/quickstart.ts", {
      TALENT_GRAPH_BASE_URL: mock!.baseUrl,
      TALENT_GRAPH_API_KEY: apiKey,
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^search: \d+ rows on the page; first: \S+/m);
    expect(stdout).toMatch(/^dossier: Priya Raman /m);
    expect(stdout).toMatch(/^list: created ".+" \([0-9a-f-]{36}\)$/m);
    expect(stdout).toMatch(/^event: /m);
    expect(stdout).toMatch(/^events pass: [1-9]\d* events on 2 pages since \S+Z; next checkpoint \S+Z$/m);
    expect(stdout).not.toContain(apiKey);
  });
});
