/**
 * What every benchmark part shares: alternating rounds (A, B, A, B, ...) summarized as median with min and
 * max, the floor lines ("floor ...: median (min-max) ... beside 6f4f303 ... met / not met"), load runs over a
 * list of distinct requests (autocannon), and child servers in their own process groups that are always killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Summary {
  median: number;
  min: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error("summarize needs at least one value");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** Round-by-round ratios a[i] / b[i] (both figures of a ratio come from the same round). */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) throw new Error(`ratios need as many values on both sides (${a.length} vs ${b.length})`);
  return a.map((value, i) => value / b[i]!);
}

/**
 * Runs every contender once per round, in the same order each round, so a burst of other work on the machine
 * hits all of them alike; returns each contender's figures, one value per round.
 */
export async function alternate<Name extends string>(
  rounds: number,
  contenders: Record<Name, () => Promise<Record<string, number>>>,
): Promise<Record<Name, Record<string, number[]>>> {
  const out: Record<string, Record<string, number[]>> = {};
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
    for (const name of Object.keys(contenders) as Name[]) {
      const figures = await contenders[name]();
      const slot = (out[name] ??= {});
      for (const [key, value] of Object.entries(figures)) (slot[key] ??= []).push(value);
    }
  }
  return out as Record<Name, Record<string, number[]>>;
}

export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1,234 req/s median (1,100-1,300)". */
export function formatSummary(s: Summary, unit: string, digits = 0): string {
  const u = unit === "x" ? "x" : ` ${unit}`;
  return `${formatNumber(s.median, digits)}${u} (${formatNumber(s.min, digits)}-${formatNumber(s.max, digits)})`;
}

export interface Floor {
  /** What is promised, e.g. "mock >= 2x stock prism mock". */
  name: string;
  /** The figure the floor is judged on. */
  value: Summary;
  unit: string;
  digits?: number;
  /** Met when the median is at least (`>=`) or at most (`<=`) the target; "print" only prints it. */
  compare: ">=" | "<=" | "print";
  target?: number;
  /** Further figures of the line: the old commit's, both sides of a ratio. */
  details?: string[];
}

/** The line `npm run bench` prints for one floor. */
export function floorLine(floor: Floor): string {
  const parts = [`median ${formatSummary(floor.value, floor.unit, floor.digits ?? 0)}`, ...(floor.details ?? [])];
  if (floor.compare !== "print") {
    const met = floor.compare === ">=" ? floor.value.median >= floor.target! : floor.value.median <= floor.target!;
    parts.push(met ? "met" : "NOT MET");
  }
  return `floor ${floor.name}: ${parts.join(" · ")}`;
}

/** The line of a floor this run could not measure, and why. */
export function unmeasured(name: string, why: string): string {
  return `floor ${name}: not measured (${why})`;
}

/** Machine context printed above the figures: they hold for this machine and its load at the time only. */
export function machineLine(): string {
  return `${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`;
}

// ---------------------------------------------------------------- load over distinct requests (autocannon)

type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: { method: string; path: string }[];
  timeout: number;
}) => Promise<{ requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number }>;
/** Loaded on the first load run only (hundreds of modules `--help` does not need). */
let loaded: Autocannon | undefined;

export interface LoadOptions {
  connections: number;
  seconds: number;
  headers: Record<string, string>;
}

/**
 * Requests per second over `paths` under `baseUrl` (each connection cycles through them in order, so every answer
 * is one of many distinct ones), after a one-second warm-up: 0 when no answer came within the run. A non-2xx
 * answer or an error fails the run.
 */
export async function load(baseUrl: string, paths: readonly string[], options: LoadOptions): Promise<number> {
  loaded ??= createRequire(import.meta.url)("autocannon") as Autocannon;
  const { origin, pathname } = new URL(baseUrl);
  const run = (duration: number) =>
    loaded!({
      url: origin,
      connections: options.connections,
      duration,
      headers: options.headers,
      requests: paths.map((path) => ({ method: "GET", path: pathname.replace(/\/$/, "") + path })),
      // Seconds an answer may take: a slow answer on a large graph is counted late, not as an error.
      timeout: 120,
    });
  await run(1);
  const r = await run(options.seconds);
  const bad = r.non2xx + r.errors;
  if (bad > 0) throw new Error(`${baseUrl}: ${bad} bad answers of ${r.requests.total}`);
  return r.requests.average;
}

/**
 * Latencies in ms of `paths` under `baseUrl` requested one at a time by a single client (each answer read whole
 * before the next request), `passes` times over the list, after one pass of warm-up; a non-2xx answer fails.
 */
export async function latencies(
  baseUrl: string,
  paths: readonly string[],
  headers: Record<string, string>,
  passes: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let pass = 0; pass <= passes; pass++) {
    for (const path of paths) {
      const t0 = performance.now();
      const res = await fetch(baseUrl.replace(/\/$/, "") + path, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${baseUrl}${path}: ${res.status}`);
      if (pass > 0) times.push(performance.now() - t0);
    }
  }
  return times;
}

/** The p-th percentile (0-100) of the values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** GETs each path under `baseUrl` once and keeps those answering 2xx (a load of error answers measures nothing). */
export async function answering(baseUrl: string, paths: readonly string[], headers: Record<string, string>) {
  const ok: string[] = [];
  for (const path of paths) {
    const res = await fetch(baseUrl.replace(/\/$/, "") + path, { headers });
    await res.arrayBuffer();
    if (res.ok) ok.push(path);
  }
  return ok;
}

// ---------------------------------------------------------------- child servers

const children = new Set<ChildProcess>();

export function stop(child: ChildProcess): void {
  children.delete(child);
  if (!child.pid || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function stopAll(): void {
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
 * Starts a server in its own process group (killed by `stop` and when this process ends) in `cwd`, and waits
 * for `ready` to match its output. A name set to undefined in `env` is left out of the environment.
 */
export function startServer(
  command: string,
  args: string[],
  ready: RegExp,
  { cwd = ROOT, env = {}, timeoutMs = 300_000 }: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Started> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: merged });
  children.add(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`${args.join(" ")} was not ready in ${timeoutMs} ms:\n${out.slice(-1000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      if (out.length < 100_000) out += chunk.toString();
      const match = ready.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData).resume();
      child.stderr!.off("data", onData).resume();
      resolve({ child, match, readyMs: performance.now() - t0 });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new Error(`${args.join(" ")} exited (${code ?? signal}) before it was ready:\n${out.slice(-1000)}`));
    });
  });
}

/** Resident memory of a process in MB (Linux /proc): now (`VmRSS`) or at its peak (`VmHWM`). */
export function rssMb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Runs a part: the servers it started are stopped however it ends. */
export async function withServers<T>(run: () => Promise<T>): Promise<T> {
  const onSignal = () => {
    stopAll();
    process.exit(130);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    return await run();
  } finally {
    stopAll();
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  }
}
