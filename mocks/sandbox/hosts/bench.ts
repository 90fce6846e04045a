/**
 * MSW host benchmark (`npm run bench -- msw`, also `npm run ts -- mocks/sandbox/hosts/bench.ts`), on the bench
 * harness: every figure the median (min-max) of alternating rounds (--rounds / BENCH_ROUNDS, default 3).
 *
 *   - createSandboxHandlers() -> first answer, in Node (setupServer) and in Chromium (the example page: a
 *     fresh browser, so service worker registration included, then a reload), MSW default dataset;
 *   - size of the example page's browser bundle (minified, and gzipped at level 9);
 *   - the same search, 10 requests in flight for --seconds / BENCH_SECONDS (default 3), through the MSW host
 *     (in-process, msw/node) and through the Fastify host (HTTP on 127.0.0.1), default dataset (5,000 people).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { buildExamplePage } from "../../../examples/msw/build.js";
import { loadExamplePage, openBrowser, serveExamplePage } from "../../../examples/msw/page.js";
import {
  alternate,
  formatSummary,
  machineLine,
  numberOption,
  roundsOption,
  runBench,
  summarize,
} from "../../../scripts/bench/harness.js";
import { DEFAULT_OPTIONS } from "../options.js";
import { startSandbox } from "../server.js";
import { createSandboxHandlers, MSW_DEFAULT_SIZE } from "./msw.js";

const argv = process.argv.slice(2);
const ROUNDS = roundsOption(argv);
const DURATION_MS = numberOption(argv, "seconds", "BENCH_SECONDS", 3, 1) * 1000;
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
  console.log(machineLine());
  const size = `${MSW_DEFAULT_SIZE.people} people, ${MSW_DEFAULT_SIZE.companies} companies`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-msw-bench-"));
  try {
    const page = await buildExamplePage(dir);
    console.log(
      `example page bundle (app.js, minified): ${(page.bundleBytes / 1024).toFixed(0)} KiB, gzip ${(page.gzipBytes / 1024).toFixed(0)} KiB`,
    );
    const server = await serveExamplePage(dir);
    try {
      const firstAnswer = await alternate(ROUNDS, {
        node: async () => ({ ms: await nodeFirstAnswer() }),
        chromium: async () => {
          const browser = await openBrowser();
          try {
            const first = await loadExamplePage(browser.page, `${server.origin}/index.html`);
            return { first, reload: await loadExamplePage(browser.page, `${server.origin}/index.html`) };
          } finally {
            await browser.close();
          }
        },
      });
      console.log(`createSandboxHandlers() -> first answer (${size}), ${ROUNDS} rounds:`);
      console.log(
        `  Node (msw/node):                                  ${formatSummary(summarize(firstAnswer.node.ms), "ms")}`,
      );
      console.log(
        `  Chromium, fresh browser (worker registration):    ${formatSummary(summarize(firstAnswer.chromium.first), "ms")}`,
      );
      console.log(
        `  Chromium, reload (worker already active):         ${formatSummary(summarize(firstAnswer.chromium.reload), "ms")}`,
      );
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const dataset = { people: DEFAULT_OPTIONS.people, companies: DEFAULT_OPTIONS.companies };
  const fastify = await startSandbox({ ...dataset, port: 0, rateLimit: false });
  const sandbox = createSandboxHandlers({ ...dataset, baseUrl: "http://app.test/v1" });
  const interception = setupServer(...sandbox.handlers);
  try {
    const search = await alternate(ROUNDS, {
      fastify: () => throughput(fastify.baseUrl + SEARCH, fastify.core.keys[0]!.key),
      msw: async () => {
        interception.listen({ onUnhandledFrame: "error" });
        try {
          return await throughput(`http://app.test/v1${SEARCH}`, sandbox.keys[0]!.key);
        } finally {
          interception.close();
        }
      },
    });
    const failed = [...search.fastify.failed, ...search.msw.failed].reduce((a, b) => a + b, 0);
    console.log(
      `same search, ${IN_FLIGHT} in flight, ${DURATION_MS / 1000} s per run, ${dataset.people} people, ${ROUNDS} rounds (${failed} failed answers):`,
    );
    console.log(
      `  Fastify host over HTTP:        ${formatSummary(summarize(search.fastify.rps), "req/s")}, p99 ${formatSummary(summarize(search.fastify.p99), "ms", 1)}`,
    );
    console.log(
      `  MSW host in-process (msw/node): ${formatSummary(summarize(search.msw.rps), "req/s")}, p99 ${formatSummary(summarize(search.msw.p99), "ms", 1)}`,
    );
  } finally {
    sandbox.close();
    await fastify.close();
  }
}

runBench(main);
