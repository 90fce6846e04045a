/**
 * Size of the client as an application ships it: esbuild bundles an app that imports only
 * `createTalentGraphClient` (ESM, browser platform, minified), then gzip -9; beside it the same for an app
 * that imports bare openapi-fetch, and the ratio. Goal (issue 17): at most 4,500 B min+gzip.
 *   npm run ts -- client/bench.ts [--rounds 3] [--json]      (also run by `npm run bench -- client`)
 */
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import {
  ROOT,
  alternate,
  formatNumber,
  goalLine,
  ratios,
  roundsOption,
  runBench,
  summarize,
  table,
} from "../scripts/bench/harness.js";

const GOAL_BYTES = 4500;

/** What each measured app imports; the factory alone is the goal's app. */
const APPS = {
  factory: `import { createTalentGraphClient } from "./client/index.ts"; globalThis.app = createTalentGraphClient;`,
  openapiFetch: `import createClient from "openapi-fetch"; globalThis.app = createClient;`,
  everything: `import * as client from "./client/index.ts"; globalThis.app = client;`,
} as const;

type Bundle = { minified: number; gzip: number };

const inputsOf = new Map<string, Record<string, number>>();

async function bundle(name: keyof typeof APPS): Promise<Bundle> {
  const result = await build({
    stdin: { contents: APPS[name], resolveDir: ROOT, loader: "ts", sourcefile: `${name}-app.ts` },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error("esbuild produced no output");
  const output = Object.values(result.metafile.outputs)[0]!;
  inputsOf.set(name, Object.fromEntries(Object.entries(output.inputs).map(([file, v]) => [file, v.bytesInOutput])));
  return { minified: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

runBench(async () => {
  const rounds = roundsOption(process.argv);
  const runs = await alternate(rounds, {
    factory: () => bundle("factory"),
    openapiFetch: () => bundle("openapiFetch"),
    everything: () => bundle("everything"),
  });
  const factory = summarize(runs.factory.gzip);
  const bare = summarize(runs.openapiFetch.gzip);
  const ratio = summarize(ratios(runs.factory.gzip, runs.openapiFetch.gzip));
  const everything = summarize(runs.everything.gzip);

  if (process.argv.includes("--json")) {
    console.log(
      JSON.stringify({
        name: "client-bundle",
        rounds,
        factory,
        openapiFetch: bare,
        ratio,
        everything,
        goalBytes: GOAL_BYTES,
      }),
    );
    return;
  }
  console.log(
    `Client bundle size: esbuild (ESM, browser, es2022, minified) then gzip -9, ${rounds} alternating rounds\n`,
  );
  const inputs = inputsOf.get("factory") ?? {};
  console.log("What the createTalentGraphClient app holds (minified bytes per input):");
  console.log(
    table(
      ["input", "bytes"],
      Object.entries(inputs)
        .filter(([, bytes]) => bytes > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([file, bytes]) => [path.normalize(file), formatNumber(bytes)]),
    ),
  );
  console.log(
    `\nbare openapi-fetch: ${formatNumber(bare.median)} B min+gzip; the whole client (every export): ` +
      `${formatNumber(everything.median)} B min+gzip\n`,
  );
  console.log(
    goalLine({
      name: `an app importing only createTalentGraphClient <= ${formatNumber(GOAL_BYTES)} B min+gzip`,
      ratio: { label: "client / bare openapi-fetch", value: ratio },
      value: factory,
      unit: "B",
      compare: "<=",
      target: GOAL_BYTES,
      details: [`bare openapi-fetch ${formatNumber(bare.median)} B`],
    }),
  );
});
