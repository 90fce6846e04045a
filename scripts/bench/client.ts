/**
 * The client's floor: an app that imports only `createTalentGraphClient`, bundled by esbuild (ESM, browser,
 * minified) and gzipped at level 9, for this checkout and the old commit.
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import { ROOT, floorLine, formatNumber } from "./harness.js";

const APP = `import { createTalentGraphClient } from "./client/index.ts"; globalThis.app = createTalentGraphClient;`;

/**
 * Bytes of a browser app whose source is `app` (it imports with paths relative to `dir`), bundled by esbuild
 * (ESM, browser, minified) and gzipped at level 9: the weight figure of the client and msw parts.
 */
export async function appBytes(dir: string, app: string): Promise<number> {
  const result = await build({
    stdin: { contents: app, resolveDir: dir, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).byteLength;
}

/** Bytes of the app, minified and gzipped, built from the checkout at `dir`. */
const factoryBytes = (dir: string): Promise<number> => appBytes(dir, APP);

export async function clientFloors(): Promise<string[]> {
  // Bundling is deterministic: one build each is the figure (min = median = max).
  const now = await factoryBytes(ROOT);
  const old = await factoryBytes(baseCheckout());
  return [
    floorLine({
      name: "client factory alone <= 4,500 B min+gzip",
      value: { median: now, min: now, max: now },
      unit: "B",
      compare: "<=",
      target: 4500,
      details: [`${BASE_COMMIT} ${formatNumber(old)} B`],
    }),
  ];
}
