/**
 * The sandbox in the page answers like `npm run sandbox`: 20 requests (every GET operation's prefilled example,
 * errors, a write and its read-back) give byte-identical bodies and the same statuses from
 * `window.talentGraphSandbox.fetch` in the built page (packaged Chromium) and from the Node sandbox's Fastify
 * host started in-process, with the same seed (the default), the same pinned clock and sequential ids.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KEYS } from "../../../mocks/sandbox/contract/auth.js";
import type { SandboxOptions } from "../../../mocks/sandbox/contract/options.js";
import { startSandbox, type RunningSandbox } from "../../../mocks/sandbox/hosts/node/server.js";
import { assertChromium, isLocal, launchChromium, type LaunchedChromium } from "../browser.js";
import { DEFAULT_OUT, DEFAULT_SPEC, readBundle } from "../build.js";
import { ensureBuilt } from "../built-page.js";
import { requestUrl, sampleRequest } from "../code-samples.js";
import { servePage, type PageServer } from "../http.js";
import { listOperations } from "../openapi.js";

const CLOCK = "2026-11-20T09:30:00.000Z";
const ACME = KEYS.find((k) => k.description.startsWith("Acme"))!.key;
const GLOBEX = KEYS.find((k) => k.description.startsWith("Globex"))!.key;

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

let browser: LaunchedChromium;
let server: PageServer;
let node: RunningSandbox;
let requests: Recorded[];

beforeAll(async () => {
  assertChromium();
  await ensureBuilt();
  const doc = await readBundle(DEFAULT_SPEC);
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const json = { "content-type": "application/json" };
  const gets = listOperations(doc)
    .filter((op) => op.method === "get")
    .map((op): Recorded => ({
      method: "GET",
      url: requestUrl({ ...sampleRequest(doc, op, []), baseUrl: "/v1" }),
      headers: auth(ACME),
    }));
  requests = [
    ...gets,
    { method: "GET", url: "/v1/people?limit=0", headers: auth(ACME) },
    { method: "GET", url: "/v1/people?limit=3&offset=3", headers: auth(GLOBEX) },
    { method: "GET", url: "/v1/me", headers: {} },
    { method: "POST", url: "/v1/lists", headers: { ...auth(ACME), ...json }, body: "{not json" },
    {
      method: "PUT",
      url: "/v1/signals/preferences",
      headers: { ...auth(ACME), ...json },
      body: JSON.stringify({ digest: { frequency: "weekly" } }),
    },
    { method: "GET", url: "/v1/signals/preferences", headers: auth(ACME) },
  ].slice(0, 20);
  // Created ids carry a random per-instance segment unless both sides ask for sequential ids (the core's `ids`
  // option, which the Node host hands to its core with the rest of its options).
  node = await startSandbox({ port: 0, now: () => Date.parse(CLOCK), ids: "sequential" } as Partial<SandboxOptions>);
  const body = await readFile(DEFAULT_OUT);
  server = await servePage(0, () => ({ status: 200, body }));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await node?.close();
});

it("20 recorded requests: the same statuses and byte-identical bodies in the page and from npm run sandbox", async () => {
  expect(requests).toHaveLength(20);
  const page = await browser.context.newPage();
  const external: string[] = [];
  try {
    await page.route(
      (u) => !isLocal(u.href),
      (route) => {
        external.push(route.request().url());
        return route.abort("blockedbyclient");
      },
    );
    await page.addInitScript((now) => {
      (window as unknown as { talentGraphSandboxOptions: object }).talentGraphSandboxOptions = {
        now,
        ids: "sequential",
        persist: false,
      };
    }, CLOCK);
    await page.goto(`${server.origin}/index.html`, { waitUntil: "load" });
    const inPage = await page.evaluate(async (requests) => {
      const answers = [];
      for (const r of requests) {
        const res = await window.talentGraphSandbox!.fetch(r.url, {
          method: r.method,
          headers: r.headers,
          body: r.body ?? null,
        });
        answers.push({ status: res.status, body: await res.text() });
      }
      return answers;
    }, requests);
    const fromNode = [];
    for (const r of requests) {
      const res = await fetch(node.origin + r.url, { method: r.method, headers: r.headers, body: r.body ?? null });
      fromNode.push({ status: res.status, body: await res.text() });
    }
    const label = (i: number) => `${requests[i]!.method} ${requests[i]!.url}`;
    for (const [i, answer] of inPage.entries()) expect(answer, label(i)).toEqual(fromNode[i]);
    // The requests reach reads, writes and errors alike, with bodies to compare.
    const statuses = new Set(fromNode.map((a) => a.status));
    for (const status of [200, 400, 401, 404]) expect(statuses).toContain(status);
    expect(fromNode.every((a) => a.body.length > 0)).toBe(true);
    expect(external).toEqual([]);
  } finally {
    await page.close();
  }
}, 120_000);
