/**
 * Sandbox benchmark (standalone; `tsx mocks/sandbox/bench.ts`, also run by `npm run bench`).
 *
 *   - start-up time and resident memory of `npm run sandbox` with the default dataset (5,000 people);
 *   - requests/s and p99 latency (autocannon, 10 connections, loopback, rate limit off) for a filtered
 *     search and a dossier, against a bare node:http server answering the same bytes in the same run.
 *
 * BENCH_DURATION (seconds per target, default 5), BENCH_CONNECTIONS (default 10) and BENCH_PEOPLE (generated
 * people, default the sandbox's own) tune it.
 * Both servers run as child processes (autocannon runs here), killed with their process groups.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { KEYS } from "./auth.js";

interface CannonResult {
  requests: { average: number };
  latency: { p99: number; average: number };
  errors: number;
  non2xx: number;
}
type Cannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Cannon;

const root = fileURLToPath(new URL("../..", import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PEOPLE = process.env.BENCH_PEOPLE ? ["--people", process.env.BENCH_PEOPLE] : [];
const KEY = KEYS[0]!.key;
const SEARCH = "/people?location=Europe&role_family=engineering&skills=python;go;kubernetes&limit=25";
const DOSSIER = "/people/priya-raman";

const children: ChildProcess[] = [];

function startChild(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; match: RegExpExecArray; ms: number; output: () => string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not become ready:\n${out}`)), 600_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) (clearTimeout(timer), resolve({ child, match: m, ms: performance.now() - t0, output: () => out }));
    });
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => (clearTimeout(timer), reject(new Error(`child exited with ${code}:\n${out}`))));
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

function stopAll(): void {
  for (const c of children)
    if (c.pid && c.exitCode === null)
      try {
        process.kill(-c.pid, "SIGTERM");
      } catch {
        /* gone */
      }
}

/** A bare node:http server answering fixed bytes per URL (plain JS, no framework, no tsx). */
const BARE_SERVER = `
const http = require("node:http");
const routes = JSON.parse(process.env.BARE_ROUTES);
for (const r of Object.values(routes)) r.buf = Buffer.from(r.body);
const server = http.createServer((req, res) => {
  const r = routes[req.url];
  if (!r) { res.writeHead(404); return res.end(); }
  res.writeHead(200, { "content-type": r.type, "content-length": r.buf.length });
  res.end(r.buf);
});
server.listen(0, "127.0.0.1", () => console.log("BARE " + server.address().port));
`;

async function main(): Promise<void> {
  const sandbox = await startChild(
    ["--import", "tsx", "mocks/sandbox/start.ts", "--port", "0", "--no-rate-limit", ...PEOPLE],
    /ready in (\d+) ms \(graph (\d+) ms: (\d+) people, (\d+) companies\)[\s\S]*Base URL: (\S+)/,
  );
  const [, readyMs, graphMs, people, companies, baseUrl] = sandbox.match as unknown as string[];
  const rssReady = rssMb(sandbox.child.pid!);
  const origin = new URL(baseUrl!).origin;
  const basePath = new URL(baseUrl!).pathname;
  const headers = { authorization: `Bearer ${KEY}` };

  const routes: Record<string, { type: string; body: string }> = {};
  for (const path of [SEARCH, DOSSIER]) {
    const res = await fetch(baseUrl + path, { headers });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    routes[basePath + path] = { type: res.headers.get("content-type") ?? "application/json", body: await res.text() };
  }
  const bare = await startChild(["-e", BARE_SERVER], /BARE (\d+)/, { BARE_ROUTES: JSON.stringify(routes) });
  const bareOrigin = `http://127.0.0.1:${bare.match[1]}`;

  const rows: { target: string; server: string; rps: number; p99: number; bytes: number; errors: number }[] = [];
  for (const [name, path] of [
    ["filtered search", SEARCH],
    ["dossier", DOSSIER],
  ] as const) {
    for (const [server, base] of [
      ["sandbox", origin],
      ["bare node:http", bareOrigin],
    ] as const) {
      const url = base + basePath + path;
      await autocannon({ url, connections: CONNECTIONS, duration: 1, headers }); // warm-up
      const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
      rows.push({
        target: name,
        server,
        rps: r.requests.average,
        p99: r.latency.p99,
        bytes: routes[basePath + path]!.body.length,
        errors: r.errors + r.non2xx,
      });
    }
  }
  const rssAfter = rssMb(sandbox.child.pid!);

  console.log(`Sandbox start-up (${people} people, ${companies} companies)`);
  console.log(
    `  process spawn -> listening: ${sandbox.ms.toFixed(0)} ms (tsx load included); in-process build + listen: ${readyMs} ms; graph generation + indexes: ${graphMs} ms`,
  );
  console.log(`  resident memory: ${rssReady.toFixed(0)} MB when ready, ${rssAfter.toFixed(0)} MB after the load runs`);
  console.log(
    `\nThroughput (autocannon, ${CONNECTIONS} connections, ${DURATION} s per target, loopback, rate limit off)`,
  );
  console.log(
    `  ${"target".padEnd(16)} ${"server".padEnd(15)} ${"req/s".padStart(8)} ${"p99 ms".padStart(7)} ${"bytes".padStart(7)} ${"errors".padStart(6)}`,
  );
  for (const r of rows)
    console.log(
      `  ${r.target.padEnd(16)} ${r.server.padEnd(15)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p99).padStart(7)} ${String(r.bytes).padStart(7)} ${String(r.errors).padStart(6)}`,
    );
  console.log(`  search:  GET ${basePath}${SEARCH}`);
  console.log(`  dossier: GET ${basePath}${DOSSIER}`);
  console.log(
    JSON.stringify({
      sandbox_bench: {
        startup_ms: Math.round(sandbox.ms),
        ready_ms: Number(readyMs),
        graph_ms: Number(graphMs),
        rss_ready_mb: Math.round(rssReady),
        rss_after_mb: Math.round(rssAfter),
        rows,
      },
    }),
  );
}

process.on("exit", stopAll);
main()
  .catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  })
  .finally(stopAll);
