/**
 * The sandbox's floors, each beside the old commit in the same run: per graph size, this checkout's
 * `npm run sandbox` and the old commit's are started in turn (alternating rounds), and each is timed from
 * spawn to ready, loaded with the mixed workload and the search workload (workload.ts), timed on the golden
 * searches one at a time (a single client: the latency a user feels), and its resident memory read after.
 */
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import { KEYS } from "../../mocks/sandbox/contract/auth.js";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import {
  ROOT,
  alternate,
  latencies,
  percentile,
  floorLine,
  formatSummary,
  load,
  ratios,
  rssMb,
  startServer,
  stop,
  summarize,
  unmeasured,
  type Floor,
  type LoadOptions,
} from "./harness.js";
import { writeFigures } from "./state-writes.js";
import { sandboxWorkload } from "./workload.js";

const READY = /Base URL: (\S+)/;
const HEADERS = { authorization: `Bearer ${KEYS[0]!.key}` };
/** Passes of the single client over the golden searches (each search timed once per pass). */
const LATENCY_PASSES = 5;

type Figures = Record<string, number>;

/** One start of a sandbox: ready time, throughput of both workloads, memory after them. */
async function measure(cwd: string, people: number, options: Omit<LoadOptions, "headers">): Promise<Figures> {
  const args = [...RUN_TYPESCRIPT, "mocks/sandbox/start.ts", "--people", String(people), "--port", "0"];
  // --quiet: no line per request (the old commit has no request lines, nor the flag).
  const quiet = cwd === ROOT ? ["--quiet"] : [];
  const started = await startServer(process.execPath, [...args, ...quiet, "--no-rate-limit"], READY, {
    cwd,
    env: { NODE_ENV: undefined },
  });
  try {
    const baseUrl = started.match[1]!;
    const work = await sandboxWorkload(baseUrl, HEADERS);
    const loadOptions = { ...options, headers: HEADERS };
    const mixed = await load(baseUrl, work.mixed, loadOptions);
    const search = await load(baseUrl, work.search, loadOptions);
    const searchP99 = percentile(await latencies(baseUrl, work.search, HEADERS, LATENCY_PASSES), 99);
    const pid = started.child.pid!;
    return {
      readyS: started.readyMs / 1000,
      mixed,
      search,
      searchP99,
      rssMb: rssMb(pid),
      peakMb: rssMb(pid, "VmHWM"),
      requests: work.mixed.length,
      searches: work.search.length,
    };
  } finally {
    stop(started.child);
  }
}

/** `measure`, or NaN figures and the reason when that sandbox does not start or answer. */
async function tryMeasure(cwd: string, people: number, options: Omit<LoadOptions, "headers">, failures: string[]) {
  try {
    return await measure(cwd, people, options);
  } catch (error) {
    failures.push((error as Error).message.split("\n")[0]!);
    const failed = { readyS: NaN, mixed: NaN, search: NaN, searchP99: NaN, rssMb: NaN, peakMb: NaN };
    return { ...failed, requests: NaN, searches: NaN };
  }
}

export async function sandboxFloors(
  sizes: readonly number[],
  rounds: number,
  options: Omit<LoadOptions, "headers">,
): Promise<string[]> {
  const base = baseCheckout();
  const bySize = new Map<number, Runs>();
  for (const people of sizes) {
    console.log(`\nsandbox at ${people.toLocaleString("en")} people (this checkout, then ${BASE_COMMIT}):`);
    const failures: string[] = [];
    const runs = await alternate(rounds, {
      now: () => tryMeasure(ROOT, people, options, failures),
      old: () => tryMeasure(base, people, options, failures),
    });
    for (const failure of failures) console.log(`  failed: ${failure}`);
    bySize.set(people, runs);
    for (const [name, label] of [
      ["now", "this checkout"],
      [BASE_COMMIT, BASE_COMMIT],
    ] as const) {
      const r = name === "now" ? runs.now : runs.old;
      if (r.readyS!.every(Number.isNaN)) continue;
      console.log(
        `  ${label.padEnd(13)} ready ${fmt(r.readyS!, "s", 1)}, mixed ${fmt(r.mixed!, "req/s")} ` +
          `(${r.requests![0]} distinct requests), search ${fmt(r.search!, "req/s")} (${r.searches![0]} distinct), ` +
          `search p99 ${fmt(r.searchP99!, "ms", 1)} (single client), ` +
          `RSS ${fmt(r.rssMb!, "MB")} (peak ${fmt(r.peakMb!, "MB")})`,
      );
    }
  }
  return [...floors(bySize), ...(await writeFigures(rounds))];
}

const fmt = (values: number[], unit: string, digits = 0) => formatSummary(summarize(values), unit, digits);
const old = (values: number[] | undefined, unit: string, digits = 0) =>
  values && !values.every(Number.isNaN) ? `${BASE_COMMIT} ${fmt(values, unit, digits)}` : `${BASE_COMMIT} failed`;

type Runs = { now: Record<string, number[]>; old: Record<string, number[]> };

function floors(bySize: Map<number, Runs>): string[] {
  // Read only by the floors whose sizes ran.
  const [small, mid, large] = [5_000, 50_000, 500_000].map((size) => bySize.get(size)) as [Runs, Runs, Runs];
  /** The floor's line, judged on the figures of `sizes`, or why it was not measured. */
  const floor = (name: string, sizes: number[], judge: () => Omit<Floor, "name">) => {
    const missing = sizes.find((size) => !bySize.has(size));
    return missing ? unmeasured(name, `size ${missing} not run`) : floorLine({ name, ...judge() });
  };
  /** The golden searches' p99, one at a time (single client), at `size` people. */
  const searchFloor = (size: number, ms: number) =>
    floor(
      `sandbox at ${size.toLocaleString("en")} people: golden searches p99 <= ${ms} ms (single client)`,
      [size],
      () => {
        const runs = bySize.get(size)!;
        return {
          value: summarize(runs.now.searchP99!),
          unit: "ms",
          digits: 1,
          compare: "<=",
          target: ms,
          details: [`${runs.now.searches![0]} distinct searches`, old(runs.old.searchP99, "ms", 1)],
        };
      },
    );
  return [
    floor(`sandbox mixed workload at 5,000 people >= 0.8x ${BASE_COMMIT}'s`, [5_000], () => ({
      value: summarize(ratios(small.now.mixed!, small.old.mixed!)),
      unit: "x",
      digits: 2,
      compare: ">=",
      target: 0.8,
      details: [`now ${fmt(small.now.mixed!, "req/s")}`, old(small.old.mixed, "req/s")],
    })),
    floor("sandbox at 50,000 people: ready <= 10 s", [50_000], () => ({
      value: summarize(mid.now.readyS!),
      unit: "s",
      digits: 1,
      compare: "<=",
      target: 10,
      details: [old(mid.old.readyS, "s", 1)],
    })),
    floor("sandbox at 50,000 people: RSS <= 1 GB", [50_000], () => ({
      value: summarize(mid.now.rssMb!),
      unit: "MB",
      compare: "<=",
      target: 1024,
      details: [old(mid.old.rssMb, "MB")],
    })),
    searchFloor(50_000, 50),
    floor("sandbox at 500,000 people: starts <= 120 s", [500_000], () => ({
      value: summarize(large.now.readyS!),
      unit: "s",
      digits: 1,
      compare: "<=",
      target: 120,
      details: [old(large.old.readyS, "s", 1)],
    })),
    floor("sandbox at 500,000 people: RSS <= 4 GB", [500_000], () => ({
      value: summarize(large.now.peakMb!),
      unit: "MB peak",
      compare: "<=",
      target: 4096,
      details: [`after load ${fmt(large.now.rssMb!, "MB")}`, old(large.old.peakMb, "MB peak")],
    })),
    searchFloor(500_000, 250),
    floor("sandbox at 500,000 people: answers", [500_000], () => ({
      value: summarize(large.now.requests!),
      unit: "distinct requests answered 2xx",
      compare: ">=",
      target: 50,
      details: [`mixed ${fmt(large.now.mixed!, "req/s")}`, old(large.old.mixed, "req/s")],
    })),
  ];
}
