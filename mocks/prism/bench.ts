/**
 * Benchmark of the mock (`npm run mock`): requests/s and p50/p99 for a people search and a dossier, in
 * alternating rounds with stock `prism mock` (default options, the CLI from node_modules) as the peer and a
 * bare node:http server answering the mock's own status, headers and body bytes. Goal (issue 17): the mock
 * at least 3x stock Prism in the same run. The mock runs twice: as started by default (a repeated request
 * gets Prism's first answer again, which is what this benchmark's repeated requests meet) and with --no-memo
 * (Prism answers every call), so the figure for requests seen once is printed beside it.
 *   npm run ts -- mocks/prism/bench.ts [--rounds 3] [--seconds 5] [--connections 10]   (also `npm run bench -- mock`)
 */
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import {
  ROOT,
  alternate,
  formatNumber,
  formatSummary,
  goalLine,
  load,
  machineLine,
  numberOption,
  ratios,
  record,
  roundsOption,
  runBench,
  startBare,
  startServer,
  startSilentServer,
  summarize,
  table,
  freePort,
  type LoadFigures,
} from "../../scripts/bench/harness.js";

const SPEC = process.env.SPEC ?? `${ROOT}generated/openapi.json`;
const GOAL_VS_PRISM = 3;
const AUTH = { authorization: "Bearer test" };
const ENDPOINTS = [
  { name: "people search", path: "/people?limit=25&view=full" },
  { name: "dossier", path: "/people/priya-raman" },
] as const;

runBench(async () => {
  const argv = process.argv;
  const rounds = roundsOption(argv);
  const seconds = numberOption(argv, "seconds", "BENCH_SECONDS", 5, 1);
  const connections = numberOption(argv, "connections", "BENCH_CONNECTIONS", 10, 1);
  console.log(
    `Mock benchmark: ${rounds} alternating rounds (bare, mock, mock --no-memo, stock prism), ${seconds} s per run after a 1 s warm-up, ` +
      `${connections} connections, loopback, autocannon; spec ${SPEC.replace(ROOT, "")}\n${machineLine()}\n`,
  );

  const startMockServer = async (args: string[]) =>
    (
      await startServer(process.execPath, [...RUN_TYPESCRIPT, "mocks/prism/start.ts", ...args], /(http:\/\/\S+\/v1)/, {
        PORT: "0",
        SPEC,
      })
    ).match[1]!;
  const mockBase = await startMockServer(["--quiet"]);
  const unmemoizedBase = await startMockServer(["--quiet", "--no-memo"]);
  const bare = await startBare(
    await record(
      mockBase,
      ENDPOINTS.map((e) => e.path),
      AUTH,
    ),
  );
  const bareBase = bare.origin + new URL(mockBase).pathname;
  const prismPort = await freePort();
  // Defaults as a user's shell has them: NODE_ENV=production (set by `npm run bench`) would switch Prism to
  // its multiprocess mode. Its per-request log goes to /dev/null rather than through this process.
  const prismBase = `http://127.0.0.1:${prismPort}`; // stock Prism serves the spec's paths at the root
  await startSilentServer(
    `${ROOT}node_modules/.bin/prism`,
    ["mock", SPEC, "-h", "127.0.0.1", "-p", String(prismPort)],
    prismBase + ENDPOINTS[0].path,
    AUTH,
    { NODE_ENV: undefined },
  );

  const options = { connections, seconds, headers: AUTH };
  const perEndpoint = (base: string) => async () => {
    const figures: Record<string, number> = {};
    for (const endpoint of ENDPOINTS) {
      const r: LoadFigures = await load(base + endpoint.path, options);
      for (const [key, value] of Object.entries(r)) figures[`${endpoint.name}|${key}`] = value;
    }
    return figures;
  };
  const runs = await alternate(
    rounds,
    {
      bare: perEndpoint(bareBase),
      mock: perEndpoint(mockBase),
      unmemoized: perEndpoint(unmemoizedBase),
      prism: perEndpoint(prismBase),
    },
    (round) => process.stderr.write(`round ${round + 1}/${rounds}\n`),
  );

  const labels = {
    bare: "bare node:http, same bytes",
    mock: "npm run mock",
    unmemoized: "npm run mock -- --no-memo",
    prism: "stock prism mock (defaults)",
  } as const;
  const rows: string[][] = [];
  for (const endpoint of ENDPOINTS) {
    for (const name of ["bare", "mock", "unmemoized", "prism"] as const) {
      const get = (key: string) => summarize(runs[name][`${endpoint.name}|${key}`]!);
      rows.push([
        labels[name],
        endpoint.name,
        formatSummary(get("rps")),
        formatNumber(get("p50").median),
        formatNumber(get("p99").median),
        String(Math.max(...get("bad").values)),
      ]);
    }
  }
  console.log(table(["server", "endpoint", "req/s", "p50 ms", "p99 ms", "non-2xx/errors"], rows, 2));
  console.log(`(same bytes as: curl -H 'Authorization: Bearer test' '${mockBase}${ENDPOINTS[0].path}')\n`);

  for (const endpoint of ENDPOINTS) {
    const prismRps = runs.prism[`${endpoint.name}|rps`]!;
    for (const [name, label] of [
      ["mock", "mock"],
      ["unmemoized", "mock --no-memo (Prism answers every call)"],
    ] as const) {
      const mockRps = runs[name][`${endpoint.name}|rps`]!;
      const vsPrism = summarize(ratios(mockRps, prismRps));
      console.log(
        goalLine({
          name: `${label} >= ${GOAL_VS_PRISM}x stock prism mock, ${endpoint.name}`,
          ratio: { label: `${name === "mock" ? "mock" : "mock --no-memo"} / stock prism`, value: vsPrism },
          value: vsPrism,
          compare: ">=",
          target: GOAL_VS_PRISM,
          details: [
            `${labels[name]} ${formatSummary(summarize(mockRps), "req/s")}`,
            `stock prism ${formatSummary(summarize(prismRps), "req/s")}`,
            `/ bare same bytes ${formatSummary(summarize(ratios(mockRps, runs.bare[`${endpoint.name}|rps`]!)), "x", 2)}`,
          ],
        }),
      );
    }
  }
});
