/**
 * MSW host benchmark (standalone; `tsx mocks/sandbox/hosts/bench.ts`, also `npm run bench -- msw`).
 *
 *   - createSandboxHandlers() -> first answer, in Node (setupServer) and in Chromium (the example page,
 *     service worker registration included), with the MSW default dataset;
 *   - size of the example page's browser bundle (minified, and gzipped at level 9);
 *   - the same search, 10 requests in flight for BENCH_DURATION seconds (default 3), through the MSW host
 *     (in-process, msw/node) and through the Fastify host (HTTP on 127.0.0.1), default dataset (5,000 people).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { buildExamplePage } from "../../../examples/msw/build.js";
import { loadExamplePage, openBrowser, serveExamplePage } from "../../../examples/msw/page.js";
import { DEFAULT_OPTIONS } from "../options.js";
import { startSandbox } from "../server.js";
import { createSandboxHandlers, MSW_DEFAULT_SIZE } from "./msw.js";

const DURATION_MS = Number(process.env.BENCH_DURATION ?? 3) * 1000;
const IN_FLIGHT = 10;
/** The sandbox benchmark's filtered search. */
const SEARCH = "/people?location=Europe&role_family=engineering&skills=python;go;kubernetes&limit=25";

async function throughput(url: string, key: string): Promise<{ rps: number; p99: number; failed: number }> {
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / (DURATION_MS / 1000),
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
    failed,
  };
}

async function nodeFirstAnswer(): Promise<number> {
  const t0 = performance.now();
  const sandbox = createSandboxHandlers({ baseUrl: "http://app.test/v1" });
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledFrame: "error" });
  const res = await fetch(`http://app.test/v1${SEARCH}`, {
    headers: { authorization: `Bearer ${sandbox.keys[0]!.key}` },
  });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  server.close();
  sandbox.close();
  if (res.status !== 200) throw new Error(`first answer was ${res.status}`);
  return ms;
}

async function main(): Promise<void> {
  const rows: Record<string, unknown> = {};
  const size = `${MSW_DEFAULT_SIZE.people} people, ${MSW_DEFAULT_SIZE.companies} companies`;

  rows.node_first_answer_ms = Math.round(await nodeFirstAnswer());
  console.log(`createSandboxHandlers() -> first answer, Node (msw/node, ${size}): ${rows.node_first_answer_ms} ms`);

  const dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-msw-bench-"));
  try {
    const page = await buildExamplePage(dir);
    rows.bundle_bytes = page.bundleBytes;
    rows.bundle_gzip_bytes = page.gzipBytes;
    console.log(
      `example page bundle (app.js, minified): ${(page.bundleBytes / 1024).toFixed(0)} KiB, gzip ${(page.gzipBytes / 1024).toFixed(0)} KiB`,
    );
    const server = await serveExamplePage(dir);
    const browser = await openBrowser();
    try {
      const first = await loadExamplePage(browser.page, `${server.origin}/index.html`);
      const reloads: number[] = [];
      for (let i = 0; i < 3; i++) reloads.push(await loadExamplePage(browser.page, `${server.origin}/index.html`));
      rows.chromium_first_answer_ms = { first_load: first, reload_median: reloads.sort((a, b) => a - b)[1] };
      console.log(
        `createSandboxHandlers() -> first answer, Chromium (${size}): first load ${first} ms (worker registration included), reload median ${reloads[1]} ms`,
      );
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const dataset = { people: DEFAULT_OPTIONS.people, companies: DEFAULT_OPTIONS.companies };
  const fastify = await startSandbox({ ...dataset, port: 0, rateLimit: false });
  try {
    const r = await throughput(fastify.baseUrl + SEARCH, fastify.core.keys[0]!.key);
    rows.fastify_search = r;
    console.log(
      `same search, Fastify host over HTTP (${IN_FLIGHT} in flight, ${dataset.people} people): ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms, ${r.failed} failed`,
    );
  } finally {
    await fastify.close();
  }
  const sandbox = createSandboxHandlers({ ...dataset, baseUrl: "http://app.test/v1" });
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledFrame: "error" });
  try {
    const r = await throughput(`http://app.test/v1${SEARCH}`, sandbox.keys[0]!.key);
    rows.msw_search = r;
    console.log(
      `same search, MSW host in-process (msw/node, ${IN_FLIGHT} in flight, ${dataset.people} people): ${r.rps.toFixed(0)} req/s, p99 ${r.p99.toFixed(1)} ms, ${r.failed} failed`,
    );
  } finally {
    server.close();
    sandbox.close();
  }
  console.log(JSON.stringify({ msw_bench: rows }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
