/**
 * Contract validator benchmark (standalone; `npm run bench` runs it as a child process).
 *   npx tsx contract-tests/bench.ts [--seconds 3] [--json]
 * Figures: one-time compile cost of the bundled spec, and exchanges validated per second for a
 * people-search page of 25 full Person rows (single thread = one core).
 */
import { cpus } from "node:os";
import { compileContractValidator, formatErrors, type Exchange } from "../contract-core/index.js";
import type { Obj } from "../contract-core/index.js";
import { DEFAULT_SPEC_PATH, loadSpec } from "../contract-core/index.js";


function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/**
 * 25 distinct full Person rows: the spec's own people-search rows (example PeopleSearchFullPage, search-row
 * hydration: up to two positions, empty education) cycled, with distinct slugs and names.
 */
function searchPage(spec: Obj): Exchange {
  const examples = (spec.components as { examples: Record<string, { value?: { data?: Obj[] } }> }).examples;
  const source = examples.PeopleSearchFullPage?.value?.data ?? [];
  if (source.length === 0) throw new Error("the spec has no PeopleSearchFullPage example to build Person rows from");
  const rows = Array.from({ length: 25 }, (_, i) => {
    const row = structuredClone(source[i % source.length]!);
    return { ...row, slug: `${String(row.slug)}-${i + 1}`, full_name: `${String(row.full_name)} ${i + 1}` };
  });
  return {
    request: { method: "GET", url: "/v1/people?company=northwind&limit=25&offset=0", headers: { authorization: "Bearer [redacted]" }, body: null },
    response: {
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8", "x-ratelimit-limit": "300", "x-ratelimit-remaining": "297", "x-ratelimit-reset": "42" },
      body: { data: rows, query: { company: "northwind" }, meta: { count: 25, limit: 25, offset: 0, has_more: true, total: 57, total_capped: false } },
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Throughput {
  /** Median and best of the rounds: on a shared machine the best round is the least disturbed one. */
  medianPerSecond: number;
  bestPerSecond: number;
  medianMicroseconds: number;
  iterations: number;
}

function throughput(run: () => void, seconds: number, rounds = 5): Throughput {
  for (let i = 0; i < 500; i++) run(); // warm-up (JIT)
  const rates: number[] = [];
  let iterations = 0;
  for (let round = 0; round < rounds; round++) {
    let count = 0;
    const start = performance.now();
    const deadline = start + (seconds * 1000) / rounds;
    while (performance.now() < deadline) {
      for (let i = 0; i < 50; i++) run();
      count += 50;
    }
    rates.push(count / ((performance.now() - start) / 1000));
    iterations += count;
  }
  const medianRate = median(rates);
  return { medianPerSecond: Math.round(medianRate), bestPerSecond: Math.round(Math.max(...rates)), medianMicroseconds: Math.round(1e7 / medianRate) / 10, iterations };
}

const seconds = Number(arg("--seconds", "3"));
const loadStart = performance.now();
const spec = loadSpec(DEFAULT_SPEC_PATH);
const loadMs = performance.now() - loadStart;
const coldStart = performance.now();
const validator = compileContractValidator(spec);
const coldMs = performance.now() - coldStart;
const warm = Array.from({ length: 5 }, () => {
  const t = performance.now();
  compileContractValidator(spec);
  return performance.now() - t;
});

const exchange = searchPage(spec);
const check = validator.validate(exchange);
if (!check.valid) throw new Error(`benchmark exchange is not valid:\n${formatErrors(check)}`);
const both = throughput(() => validator.validate(exchange), seconds);
const responseOnly = throughput(() => validator.validateResponse(exchange), seconds);

const figures = {
  node: process.version,
  cpu: cpus()[0]?.model ?? "unknown",
  operations: validator.operations.length,
  specLoadMs: Math.round(loadMs),
  compileColdMs: Math.round(coldMs),
  compileWarmMedianMs: Math.round(median(warm)),
  bodyKiB: Math.round(Buffer.byteLength(JSON.stringify(exchange.response.body)) / 102.4) / 10,
  validate: both,
  validateResponse: responseOnly,
};

if (process.argv.includes("--json")) {
  console.log(JSON.stringify(figures));
} else {
  console.log(`contract validator benchmark (${figures.node}, ${figures.cpu}, single thread)`);
  console.log(`  spec: ${figures.operations} operations, JSON load ${figures.specLoadMs} ms`);
  console.log(`  compile (one-time): ${figures.compileColdMs} ms cold, ${figures.compileWarmMedianMs} ms warm median of 5`);
  console.log(`  people-search page, 25 full Person rows (${figures.bodyKiB} KiB body):`);
  const line = (label: string, t: Throughput) =>
    console.log(`    ${label} ${t.medianPerSecond.toLocaleString("en")} exchanges/s median (${t.medianMicroseconds} µs each), best round ${t.bestPerSecond.toLocaleString("en")}/s, ${t.iterations} runs`);
  line("validate (both sides):", both);
  line("validateResponse:     ", responseOnly);
}
