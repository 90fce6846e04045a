/**
 * The mock's floor: `npm run mock` against stock `prism mock` (the CLI from node_modules, default options) on
 * the distinct-request workload, the old commit's mock beside them, in alternating rounds. Stock Prism serves
 * the spec's paths at the root, the mocks under /v1: each gets the same paths under its own base.
 */
import { createServer } from "node:net";
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import {
  ROOT,
  alternate,
  answering,
  floorLine,
  formatSummary,
  load,
  ratios,
  startServer,
  summarize,
  type LoadOptions,
} from "./harness.js";
import { goldenSearches } from "./workload.js";

const HEADERS = { authorization: "Bearer test" };
/** Every read operation of the spec, beside the golden searches (the mock answers examples for any slug). */
const READS = [
  "/people/priya-raman",
  "/people/jonas-weber?include=coworkers,similar",
  "/people/amara-okafor/coworkers",
  "/people/priya-raman/similar",
  "/companies",
  "/companies?q=labs",
  "/companies/northwind-labs",
  "/suggest?q=north",
  "/me",
  "/queries",
  "/lists",
  "/targets",
  "/events",
  "/signals/preferences",
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function mockFloors(rounds: number, options: Omit<LoadOptions, "headers">): Promise<string[]> {
  const spec = `${ROOT}generated/openapi.json`;
  const mock = (cwd: string) =>
    // --quiet: no line per request (the old commit has no request lines, nor the flag).
    startServer(
      process.execPath,
      [...RUN_TYPESCRIPT, "mocks/prism/start.ts", ...(cwd === ROOT ? ["--quiet"] : [])],
      /ready on (http:\/\/\S+\/v1)/,
      {
        cwd,
        env: { PORT: "0", NODE_ENV: undefined },
      },
    );
  const now = (await mock(ROOT)).match[1]!;
  const old = (await mock(baseCheckout())).match[1]!;
  const port = await freePort();
  // NODE_ENV unset: production would switch Prism to its multi-process mode.
  await startServer(
    `${ROOT}node_modules/.bin/prism`,
    ["mock", spec, "-h", "127.0.0.1", "-p", String(port)],
    /listening on (http:\/\/\S+)/,
    { env: { NODE_ENV: undefined } },
  );
  const prism = `http://127.0.0.1:${port}`;
  // The paths every server answers with 2xx (stock Prism refuses some searches its validator reads otherwise).
  let paths = [...goldenSearches(), ...READS];
  for (const base of [now, old, prism]) paths = await answering(base, paths, HEADERS);
  console.log(`\nmock: ${paths.length} distinct requests every server answers with 2xx`);
  const run = (base: string) => async () => ({ rps: await load(base, paths, { ...options, headers: HEADERS }) });
  const runs = await alternate(rounds, { now: run(now), old: run(old), prism: run(prism) });
  const fmt = (values: number[]) => formatSummary(summarize(values), "req/s");
  return [
    floorLine({
      name: "mock >= 2x stock prism mock (distinct requests)",
      value: summarize(ratios(runs.now.rps!, runs.prism.rps!)),
      unit: "x",
      digits: 2,
      compare: ">=",
      target: 2,
      details: [
        `mock ${fmt(runs.now.rps!)}`,
        `stock prism ${fmt(runs.prism.rps!)}`,
        `${BASE_COMMIT}'s mock ${fmt(runs.old.rps!)} = ${formatSummary(summarize(ratios(runs.old.rps!, runs.prism.rps!)), "x", 2)}`,
      ],
    }),
  ];
}
