/**
 * Contract validator benchmark (standalone; `npm run bench -- contract` runs it as a child process).
 *   npm run ts -- contract-tests/bench.ts [--rounds 3] [--seconds 1] [--json]
 * Figures, each the median of alternating rounds (warm compile, validate, validateResponse) with min and
 * max: the compile cost of the bundled spec, and exchanges validated per second for a people-search page
 * of 25 full Person rows (single thread = one core). Issue 17 sets no goal for it.
 */
import {
  DEFAULT_SPEC_PATH,
  compileContractValidator,
  formatErrors,
  loadSpec,
  type Exchange,
  type Obj,
} from "../contract-core/index.js";
import {
  alternate,
  formatSummary,
  machineLine,
  numberOption,
  roundsOption,
  runBench,
  summarize,
} from "../scripts/bench/harness.js";

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
    request: {
      method: "GET",
      url: "/v1/people?company=northwind&limit=25&offset=0",
      headers: { authorization: "Bearer [redacted]" },
      body: null,
    },
    response: {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-ratelimit-limit": "300",
        "x-ratelimit-remaining": "297",
        "x-ratelimit-reset": "42",
      },
      body: {
        data: rows,
        query: { company: "northwind" },
        meta: { count: 25, limit: 25, offset: 0, has_more: true, total: 57, total_capped: false },
      },
    },
  };
}

/** Runs per second of `run` for `seconds`, after a JIT warm-up. */
function rate(run: () => void, seconds: number): number {
  for (let i = 0; i < 200; i++) run();
  let count = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  while (performance.now() < deadline) {
    for (let i = 0; i < 50; i++) run();
    count += 50;
  }
  return count / ((performance.now() - start) / 1000);
}

runBench(async () => {
  const rounds = roundsOption(process.argv);
  const seconds = numberOption(process.argv, "seconds", "BENCH_SECONDS", 1, 0.1);
  const loadStart = performance.now();
  const spec = loadSpec(DEFAULT_SPEC_PATH);
  const loadMs = performance.now() - loadStart;
  const coldStart = performance.now();
  const validator = compileContractValidator(spec);
  const coldMs = performance.now() - coldStart;

  const exchange = searchPage(spec);
  const check = validator.validate(exchange);
  if (!check.valid) throw new Error(`benchmark exchange is not valid:\n${formatErrors(check)}`);
  const runs = await alternate(rounds, {
    compile: async () => {
      const t = performance.now();
      compileContractValidator(spec);
      return { ms: performance.now() - t };
    },
    validate: async () => ({ perSecond: rate(() => validator.validate(exchange), seconds) }),
    validateResponse: async () => ({ perSecond: rate(() => validator.validateResponse(exchange), seconds) }),
  });
  const figures = {
    node: process.version,
    rounds,
    operations: validator.operations.length,
    specLoadMs: loadMs,
    compileColdMs: coldMs,
    compileWarmMs: summarize(runs.compile.ms),
    bodyKiB: Buffer.byteLength(JSON.stringify(exchange.response.body)) / 1024,
    validatePerSecond: summarize(runs.validate.perSecond),
    validateResponsePerSecond: summarize(runs.validateResponse.perSecond),
  };
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(figures));
    return;
  }
  console.log(
    `Contract validator benchmark: ${rounds} alternating rounds, ${seconds} s per throughput run, single thread\n${machineLine()}`,
  );
  console.log(
    `  spec: ${figures.operations} operations, JSON load ${loadMs.toFixed(0)} ms, first compile ${coldMs.toFixed(0)} ms (once per process)`,
  );
  console.log(`  compile, warm: ${formatSummary(figures.compileWarmMs, "ms")}`);
  console.log(`  people-search page, 25 full Person rows (${figures.bodyKiB.toFixed(1)} KiB body):`);
  console.log(`    validate (both sides): ${formatSummary(figures.validatePerSecond, "exchanges/s")}`);
  console.log(`    validateResponse:      ${formatSummary(figures.validateResponsePerSecond, "exchanges/s")}`);
});
