// Benchmark of the mock: requests/s and p50/p99 latency for a people search and a dossier, side by
// side with a bare node:http server answering the same bytes (the ratio is the figure), and with
// the stock Prism CLI before/after its options (multiprocess, log level). autocannon, loopback,
// bounded in time. Every server runs in its own process group and is killed with it.
//
//   npx tsx mocks/prism/bench.ts                 # 5 s per run, 10 connections, 1 round (about 70 s)
//   BENCH_ROUNDS=3 npx tsx mocks/prism/bench.ts  # best of 3 interleaved rounds, for a busy machine
//   BENCH_SECONDS=10 BENCH_CONNECTIONS=20 npx tsx mocks/prism/bench.ts
//   npx tsx mocks/prism/bench.ts --quick         # only the bare server and npm run mock
import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { curlLine } from "./cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SPEC = process.env.SPEC ?? `${ROOT}generated/openapi.json`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const AUTH = { authorization: "Bearer test" };

const ENDPOINTS = [
  { name: "people search", path: "/people?limit=25&view=full" },
  { name: "dossier", path: "/people/priya-raman" },
] as const;

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; headers: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

interface Target {
  name: string;
  /** Base URL the endpoint paths are appended to. */
  base: string;
  child: ChildProcess;
}

const children = new Set<ChildProcess>();

function stop(child: ChildProcess): void {
  children.delete(child);
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

function stopAll(): void {
  for (const child of children) stop(child);
}
process.on("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}

function launch(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, detached: true, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.stderr!.resume();
  return child;
}

function firstLineMatching(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) resolve(match);
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it was ready: ${out.slice(-500)}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    try {
      await fetch(url, { headers: AUTH });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered`);
}

/** `npm run mock` as shipped (tsx mocks/prism/start.ts), with extra environment. */
async function startOurMock(name: string, env: Record<string, string> = {}): Promise<Target> {
  const child = launch(`${ROOT}node_modules/.bin/tsx`, ["mocks/prism/start.ts"], { PORT: "0", SPEC, ...env });
  const [, base] = await firstLineMatching(child, /(http:\/\/\S+\/v1)/);
  return { name, base: base!, child };
}

/** The Prism CLI itself (serves at the root, no /v1). */
async function startPrismCli(label: string, options: string[]): Promise<Target> {
  const port = await freePort();
  const child = launch(`${ROOT}node_modules/.bin/prism`, ["mock", SPEC, "-h", "127.0.0.1", "-p", String(port), ...options]);
  child.stdout!.resume();
  const base = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${base}${ENDPOINTS[0].path}`, child);
  return { name: label, base, child };
}

interface Canned {
  status: number;
  contentType: string;
  body: string;
}

/** A bare node:http server answering, per path, the bytes the mock answered. */
async function startBare(canned: Record<string, Canned>): Promise<Target> {
  const script = `
    const answers = JSON.parse(process.env.BENCH_ANSWERS);
    const server = require("node:http").createServer((req, res) => {
      const a = answers[req.url];
      if (!a) { res.writeHead(404).end(); return; }
      res.writeHead(a.status, { "content-type": a.contentType, "content-length": Buffer.byteLength(a.body) }).end(a.body);
    });
    server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port + "/v1"));`;
  const child = launch(process.execPath, ["-e", script], { BENCH_ANSWERS: JSON.stringify(canned) });
  const [, base] = await firstLineMatching(child, /(http:\/\/\S+\/v1)/);
  return { name: "bare node:http, same bytes", base: base!, child };
}

async function capture(base: string): Promise<Record<string, Canned>> {
  const canned: Record<string, Canned> = {};
  for (const endpoint of ENDPOINTS) {
    const res = await fetch(`${base}${endpoint.path}`, { headers: AUTH });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${endpoint.path} answered ${res.status}: ${body.slice(0, 300)}`);
    canned[`/v1${endpoint.path}`] = { status: res.status, contentType: res.headers.get("content-type") ?? "application/json", body };
  }
  return canned;
}

interface Row {
  target: string;
  endpoint: string;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function measure(target: Target): Promise<Row[]> {
  const rows: Row[] = [];
  for (const endpoint of ENDPOINTS) {
    const url = `${target.base}${endpoint.path}`;
    await autocannon({ url, connections: CONNECTIONS, duration: 1, headers: AUTH }); // warm-up, not counted
    const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: AUTH });
    rows.push({ target: target.name, endpoint: endpoint.name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts });
  }
  return rows;
}

function table(rows: Row[], bare: Row[]): string {
  const header = ["server", "endpoint", "req/s", "p50 ms", "p99 ms", "non-2xx/errors", "bare/this"];
  const lines = rows.map((row) => {
    const ref = bare.find((b) => b.endpoint === row.endpoint);
    const ratio = ref && row.rps > 0 ? `${(ref.rps / row.rps).toFixed(1)}x` : "-";
    return [row.target, row.endpoint, row.rps.toFixed(0), String(row.p50), String(row.p99), String(row.bad), ratio];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...lines.map(fmt)].join("\n");
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  process.stdout.write(
    `Mock benchmark: ${SECONDS} s per run after a 1 s warm-up, ${CONNECTIONS} connections, loopback, autocannon, ` +
      `best of ${ROUNDS} interleaved round(s); spec ${SPEC.replace(ROOT, "")}\n` +
      `${cpus().length} CPUs, load average at start ${loadavg()[0]!.toFixed(1)} (other work on the machine skews every figure)\n` +
      `endpoints: ${ENDPOINTS.map((e) => `${e.name} GET /v1${e.path}`).join(", ")}\n\n`,
  );
  const ours = await startOurMock("npm run mock");
  const canned = await capture(ours.base);
  process.stdout.write(`(same bytes checked with: ${curlLine(ours.base, ENDPOINTS[0].path)})\n\n`);
  const targets = [await startBare(canned), ours];
  if (!quick) {
    targets.push(await startOurMock("npm run mock, MOCK_VALIDATE=1", { MOCK_VALIDATE: "1" }));
    targets.push(await startPrismCli("prism mock CLI, defaults (single process, info log)", []));
    targets.push(await startPrismCli("prism mock CLI -m -v warn", ["-m", "-v", "warn"]));
  }
  // Rounds interleave the servers so a burst of other work on the machine hits all of them alike.
  const best = new Map<string, Row>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      for (const row of await measure(target)) {
        const key = `${row.target}|${row.endpoint}`;
        if ((best.get(key)?.rps ?? -1) < row.rps) best.set(key, row);
      }
    }
  }
  const rows = [...best.values()];
  const bare = rows.filter((r) => r.target === targets[0]!.name);
  process.stdout.write(`${table(rows, bare)}\n\n`);
  for (const row of rows.filter((r) => r.target === ours.name)) {
    const ref = bare.find((b) => b.endpoint === row.endpoint)!;
    process.stdout.write(`ratio ${row.endpoint}: bare node:http ${ref.rps.toFixed(0)} req/s / mock ${row.rps.toFixed(0)} req/s = ${(ref.rps / row.rps).toFixed(1)}x\n`);
  }
}

main().then(
  () => {
    stopAll();
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    stopAll();
    process.exit(1);
  },
);
