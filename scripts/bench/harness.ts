/**
 * The one benchmark harness every part's bench uses (client, contract, mock, sandbox): alternating rounds
 * (A, B, A, B, ...) summarized as median with min and max, ratios taken round by round, the goal lines of
 * issue 17 ("goal ... ratio ... median (min-max) ... met / not met"), load runs with autocannon, a bare
 * node:http server that answers the same bytes (status, headers and body) as the server it is compared to,
 * and child servers in their own process groups that are always killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer as createNetServer } from "node:net";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Fewer rounds than this do not give a median that a reader can trust. */
export const MIN_ROUNDS = 3;

// ---------------------------------------------------------------- options

/** `--name value` from argv, else `$ENV_NAME`, else the fallback. */
export function option(argv: readonly string[], name: string, env: string, fallback: string): string {
  const index = argv.indexOf(`--${name}`);
  const fromArg = index >= 0 ? argv[index + 1] : undefined;
  return fromArg ?? process.env[env] ?? fallback;
}

/** A positive number option; a bad value is an error that names the option. */
export function numberOption(argv: readonly string[], name: string, env: string, fallback: number, min = 0): number {
  const raw = option(argv, name, env, String(fallback));
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min)
    throw new Error(`--${name} (or ${env}) must be a number >= ${min}, got ${raw}`);
  return value;
}

/** Rounds from `--rounds` or BENCH_ROUNDS (default 3); fewer than three are refused. */
export function roundsOption(argv: readonly string[]): number {
  const rounds = numberOption(argv, "rounds", "BENCH_ROUNDS", MIN_ROUNDS, MIN_ROUNDS);
  if (!Number.isInteger(rounds)) throw new Error(`--rounds must be an integer >= ${MIN_ROUNDS}, got ${rounds}`);
  return rounds;
}

// ---------------------------------------------------------------- statistics

export interface Summary {
  median: number;
  min: number;
  max: number;
  values: number[];
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error("summarize needs at least one value");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, values: [...values] };
}

/**
 * Runs every contender once per round, in the same order each round (A, B, A, B, ...), so that a burst of
 * other work on the machine hits all of them alike. Each contender returns named figures; the result holds,
 * per contender and figure, the values of every round.
 */
export type RoundValues<C extends Record<string, () => Promise<Record<string, number>>>> = {
  [Name in keyof C]: { [Figure in keyof Awaited<ReturnType<C[Name]>>]: number[] };
};

export async function alternate<C extends Record<string, () => Promise<Record<string, number>>>>(
  rounds: number,
  contenders: C,
  onRound?: (round: number) => void,
): Promise<RoundValues<C>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (let round = 0; round < rounds; round++) {
    onRound?.(round);
    for (const [name, run] of Object.entries(contenders)) {
      const figures = await run();
      const slot = (out[name] ??= {});
      for (const [key, value] of Object.entries(figures)) (slot[key] ??= []).push(value);
    }
  }
  return out as RoundValues<C>;
}

/** Round-by-round ratios a[i] / b[i] (the two figures come from the same round). */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`ratios need as many values on both sides (${a.length} vs ${b.length})`);
  return a.map((value, i) => value / b[i]!);
}

// ---------------------------------------------------------------- output

export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : String(value);
  return value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1,234 req/s median (1,100-1,300)". */
export function formatSummary(summary: Summary, unit = "", digits = 0): string {
  const u = unit === "x" ? "x" : unit ? ` ${unit}` : "";
  return `${formatNumber(summary.median, digits)}${u} median (${formatNumber(summary.min, digits)}-${formatNumber(summary.max, digits)})`;
}

export interface Goal {
  /** What is promised, e.g. "mock >= 3x stock prism mock". */
  name: string;
  /** The figure the goal is judged on. */
  value: Summary;
  unit?: string;
  digits?: number;
  /** Met when the median is at least (`>=`) or at most (`<=`) the target. */
  compare: ">=" | "<=";
  target: number;
  /** The ratio printed beside the figure (the judged figure itself when the goal is a ratio). */
  ratio?: { label: string; value: Summary };
  /** Further figures of the line, e.g. both sides of the ratio. */
  details?: string[];
}

export function goalMet(goal: Pick<Goal, "value" | "compare" | "target">): boolean {
  return goal.compare === ">=" ? goal.value.median >= goal.target : goal.value.median <= goal.target;
}

/** The line `npm run bench` prints for one goal of issue 17. */
export function goalLine(goal: Goal): string {
  const parts: string[] = [];
  if (goal.ratio) parts.push(`ratio ${goal.ratio.label} ${formatSummary(goal.ratio.value, "x", 2)}`);
  if (!goal.ratio || goal.ratio.value !== goal.value)
    parts.push(formatSummary(goal.value, goal.unit, goal.digits ?? 0));
  parts.push(...(goal.details ?? []));
  parts.push(goalMet(goal) ? "met" : "not met");
  return `goal ${goal.name}: ${parts.join(" · ")}`;
}

/** A goal the run did not measure (a part skipped, or a size left out); says how to measure it. */
export function unmeasuredGoalLine(name: string, how: string): string {
  return `goal ${name}: not measured in this run (${how})`;
}

/** Rounds of each reference work a benchmark's machine line takes the best of. */
const REFERENCE_ROUNDS = 3;

/**
 * Machine context printed above the figures: they hold for this machine and its load at the time only. The
 * reference work's time tells runs apart that the CPU model does not: a shared virtual machine's speed moves
 * from hour to hour, and a slower moment shows in every absolute figure (seconds, req/s) but not in a ratio.
 */
export function machineLine(rounds = REFERENCE_ROUNDS): string {
  return (
    `${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}, load average (1 min) ` +
    `${loadavg()[0]!.toFixed(1)}, reference work ${Math.round(referenceWorkMs(rounds))} ms compute, ` +
    `${Math.round(referenceMemoryWorkMs(rounds))} ms memory (fixed single-threaded work, best of ${rounds}: higher ` +
    `means a slower machine or moment)`
  );
}

/** Times a fixed piece of single-threaded work that stays in the CPU's caches (integer arithmetic, small JSON): best of `rounds`, in ms. */
export function referenceWorkMs(rounds = REFERENCE_ROUNDS): number {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    let x = 0x9e3779b9;
    let sum = 0;
    const parts: string[] = [];
    for (let i = 0; i < 10_000_000; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      sum = (sum + (x >>> 0)) % 1_000_003;
      if ((i & 1023) === 0) parts.push(JSON.stringify({ i, sum, text: `item ${i}` }));
    }
    // The result is read, so no step of the work can be left out.
    if ((JSON.parse(`[${parts.join(",")}]`) as unknown[]).length !== 9766) throw new Error("reference work changed");
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Times a fixed piece of allocation-heavy work (300,000 small objects kept in a Map, their keys sorted): it
 * moves with memory bandwidth and the collector, as building a large sandbox graph does; best of `rounds`, in ms.
 */
export function referenceMemoryWorkMs(rounds = REFERENCE_ROUNDS): number {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    const byKey = new Map<string, { id: number; name: string; tags: string[] }>();
    // 7919 is prime and does not divide 300,000: every name is distinct, in a scattered order.
    for (let i = 0; i < 300_000; i++) {
      const name = `person-${(i * 7919) % 300_000}`;
      byKey.set(name, { id: i, name, tags: [`t${i % 97}`, `u${i % 89}`] });
    }
    if ([...byKey.keys()].sort().length !== 300_000) throw new Error("reference work changed");
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** A plain table with right-aligned figures (columns after `textColumns`). */
export function table(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i >= textColumns ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)].join("\n");
}

// ---------------------------------------------------------------- load (autocannon)

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
/**
 * Loaded on the first load run: the package and its dependencies (hundreds of modules) would otherwise slow the
 * start of every process that imports this harness, `npm run bench -- --help` and the tests' included.
 */
let loadedAutocannon: Autocannon | undefined;
const autocannon: Autocannon = (opts) =>
  (loadedAutocannon ??= createRequire(import.meta.url)("autocannon") as Autocannon)(opts);

export interface LoadOptions {
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Seconds of warm-up before the counted run (default 1). */
  warmupSeconds?: number;
}

export type LoadFigures = {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts: any of them makes the run worthless. */
  bad: number;
};

/** One counted autocannon run after a warm-up. */
export async function load(url: string, options: LoadOptions): Promise<LoadFigures> {
  const base = { url, connections: options.connections, headers: options.headers ?? {} };
  const warmup = options.warmupSeconds ?? 1;
  if (warmup > 0) await autocannon({ ...base, duration: warmup });
  const r = await autocannon({ ...base, duration: options.seconds });
  // No answer within the run: autocannon reports latencies of 0, which would pass any latency goal.
  if (r.requests.total === 0) return { rps: 0, p50: Infinity, p99: Infinity, bad: r.non2xx + r.errors + r.timeouts };
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
}

// ---------------------------------------------------------------- child servers

const children = new Set<ChildProcess>();
let cleanupInstalled = false;

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", stopAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(130);
    });
  }
}

export function stop(child: ChildProcess): void {
  children.delete(child);
  if (!child.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export function stopAll(): void {
  for (const child of [...children]) stop(child);
}

export interface Started {
  child: ChildProcess;
  /** The ready pattern's match. */
  match: RegExpExecArray;
  /** Spawn to ready, in ms. */
  readyMs: number;
}

/**
 * Starts a server in its own process group (killed with it by `stop`/`stopAll` and on exit) and waits for
 * `ready` to match its output (stdout and stderr). `env` adds to this process's environment; a name set to
 * undefined is left out.
 */
export function startServer(
  command: string,
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 300_000,
): Promise<Started> {
  const t0 = performance.now();
  const child = spawnChild(command, args, env, "pipe");
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`${command} did not become ready in ${timeoutMs} ms:\n${out.slice(-1000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      if (out.length < 100_000) out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stdout!.removeListener("data", onData);
        child.stderr!.removeListener("data", onData);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve({ child, match, readyMs: performance.now() - t0 });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new Error(`${command} exited (${code ?? signal}) before it was ready:\n${out.slice(-1000)}`));
    });
  });
}

function spawnChild(command: string, args: string[], env: NodeJS.ProcessEnv, output: "pipe" | "ignore"): ChildProcess {
  installCleanup();
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name]; // undefined unsets
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", output, output], env: merged });
  children.add(child);
  return child;
}

/**
 * Starts a server whose output goes nowhere (no pipe for this process to drain while it runs the load, as
 * for a server that logs every request) and waits until `url` answers.
 */
export async function startSilentServer(
  command: string,
  args: string[],
  url: string,
  headers: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const child = spawnChild(command, args, env, "ignore");
  await waitUntilAnswering(url, child, headers);
  return child;
}

/** Polls `url` until it answers (any status); for servers that print nothing usable when ready. */
export async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  headers: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${url} answered`);
    try {
      await (await fetch(url, { headers })).arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/**
 * The processes `pid` started and that still run (Linux /proc), those whose command line (arguments joined by
 * spaces) matches `commandLine` when it is given; none when `pid` is gone.
 */
export function childPids(pid: number, commandLine?: RegExp): number[] {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  } catch {
    return [];
  }
  const pids = text ? text.split(" ").map(Number) : [];
  return commandLine ? pids.filter((child) => commandLine.test(commandLineOf(child))) : pids;
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Resident memory of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, with theirs
 * (fields cutime and cstime of a /proc/<pid>/stat line, in Linux's fixed 100 ticks a second): the difference
 * around one command is the CPU that command's whole process tree used. NaN when the line cannot be read.
 */
export function childrenCpuSeconds(stat: string): number {
  // The command name (field 2) is in parentheses and may hold spaces or ")": fields are counted after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of the line; field 3 is the first after the name.
  const cutime = Number(fields[16 - 3]);
  const cstime = Number(fields[17 - 3]);
  return Number.isInteger(cutime) && Number.isInteger(cstime) ? (cutime + cstime) / 100 : Number.NaN;
}

/** childrenCpuSeconds of this process now; NaN where there is no /proc. */
export function ownChildrenCpuSeconds(): number {
  try {
    return childrenCpuSeconds(readFileSync("/proc/self/stat", "utf8"));
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------- bare baseline with the same bytes

/** One recorded answer: what the bare server sends back for a URL. */
export interface Recorded {
  status: number;
  headers: [string, string][];
  body: string;
  /** The answer carried a Content-Length (else it was chunked, and the bare server chunks it too). */
  sized: boolean;
}

/** Headers that belong to the connection or the moment, not to the answer: the bare server sets its own. */
const PER_CONNECTION = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/**
 * Fetches each path from `base` and records status, headers and body; a non-2xx answer is an error (a
 * benchmark of error answers measures nothing). Asks for no compression, as autocannon does. Keys are the
 * URL paths the bare server will see.
 */
export async function record(
  base: string,
  paths: readonly string[],
  headers: Record<string, string> = {},
): Promise<Record<string, Recorded>> {
  const recorded: Record<string, Recorded> = {};
  for (const path of paths) {
    const url = new URL(base + path);
    const res = await fetch(url, { headers: { ...headers, "accept-encoding": "identity" } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url.pathname}${url.search} answered ${res.status}: ${body.slice(0, 300)}`);
    if (res.headers.has("content-encoding"))
      throw new Error(`${url.pathname}${url.search} came compressed although identity was asked for`);
    const kept = [...res.headers].filter(([name]) => !PER_CONNECTION.has(name.toLowerCase()));
    recorded[url.pathname + url.search] = {
      status: res.status,
      headers: kept,
      body,
      sized: res.headers.has("content-length"),
    };
  }
  return recorded;
}

/** Plain node:http (no framework, no loader hooks) answering the recorded status, headers and body bytes per URL. */
const BARE_SERVER = `
const answers = JSON.parse(process.env.BENCH_ANSWERS);
for (const a of Object.values(answers)) {
  a.buf = Buffer.from(a.body);
  if (a.sized) a.headers.push(["content-length", String(a.buf.length)]);
  a.flat = a.headers.flat();
}
const server = require("node:http").createServer((req, res) => {
  const a = answers[req.url];
  if (!a) { res.writeHead(404).end(); return; }
  res.writeHead(a.status, a.flat).end(a.buf);
});
server.listen(0, "127.0.0.1", () => console.log("BARE http://127.0.0.1:" + server.address().port));`;

/** Starts the bare server; its base URL is the origin (the recorded keys carry the full path). */
export async function startBare(recorded: Record<string, Recorded>): Promise<{ origin: string; child: ChildProcess }> {
  const started = await startServer(process.execPath, ["-e", BARE_SERVER], /BARE (http:\/\/\S+)/, {
    BENCH_ANSWERS: JSON.stringify(recorded),
  });
  return { origin: started.match[1]!, child: started.child };
}

// ---------------------------------------------------------------- running a part

/** Runs a bench's main: prints a failure as one line, always stops the servers, sets the exit code. */
export function runBench(main: () => Promise<void>): void {
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
}

/** A free loopback port (for servers that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
