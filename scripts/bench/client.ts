/**
 * The client's floor: an app that imports only `createTalentGraphClient`, bundled by esbuild (ESM, browser,
 * minified) and gzipped at level 9, for this checkout and the old commit. Beside it, the development-only
 * validation middleware (`client/validate`): its weight on top of the client, and its cost per checked answer
 * (the middleware's onResponse on the spec's getPerson and searchPeople 200 examples, in-process).
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import path from "node:path";
import { followRef } from "../../contract-core/index.js";
import { validateAnswers } from "../../client/validate/index.js";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import { ROOT, floorLine, formatNumber, summarize } from "./harness.js";

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

const VALIDATED_APP = `import { createTalentGraphClient } from "./client/index.ts";
import { validateAnswers } from "./client/validate/index.ts";
globalThis.app = createTalentGraphClient; globalThis.check = validateAnswers;`;

/** The spec's first named example of an operation's 200 answer, as JSON text. */
function example200(doc: Record<string, unknown>, route: string): string {
  const op = (doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[route]!.get!;
  const media = (followRef(doc, op.responses["200"]).node as { content: Record<string, { examples: object }> }).content[
    "application/json"
  ]!;
  const first = Object.values(media.examples)[0];
  return JSON.stringify((followRef(doc, first).node as { value: unknown }).value);
}

/** Microseconds per checked answer of the middleware, one figure per round of `perRound` answers. */
async function checkCost(
  rounds: number,
  perRound: number,
): Promise<{ figures: Record<string, number[]>; bytes: Record<string, number> }> {
  const doc = JSON.parse(readFileSync(path.join(ROOT, "generated", "openapi.json"), "utf8")) as Record<string, unknown>;
  const middleware = validateAnswers();
  const answers = {
    getPerson: { path: "/people/{slug}", body: example200(doc, "/people/{slug}") },
    searchPeople: { path: "/people", body: example200(doc, "/people") },
  };
  const out: Record<string, number[]> = { getPerson: [], searchPeople: [] };
  const request = new Request("https://api.talent-graph.example/v1/people");
  for (let round = 0; round < rounds; round++)
    for (const [name, { path: schemaPath, body }] of Object.entries(answers)) {
      const t0 = performance.now();
      for (let i = 0; i < perRound; i++) {
        const response = new Response(body, { headers: { "content-type": "application/json" } });
        await middleware.onResponse!({ request, response, schemaPath } as never);
      }
      out[name]!.push(((performance.now() - t0) * 1000) / perRound);
    }
  const bytes = Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, a.body.length]));
  return { figures: out, bytes };
}

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
    ...(await validateFigures(now)),
  ];
}

/** The validation middleware's weight over the client's (this checkout only) and its cost per checked answer. */
async function validateFigures(clientBytes: number): Promise<string[]> {
  const validated = await appBytes(ROOT, VALIDATED_APP);
  const extra = validated - clientBytes;
  const { figures, bytes } = await checkCost(7, 500);
  return [
    floorLine({
      name: "client/validate on top of the client, min+gzip (development only)",
      value: { median: extra, min: extra, max: extra },
      unit: "B",
      compare: "print",
      details: [`client + validate ${formatNumber(validated)} B`],
    }),
    ...Object.entries(figures).map(([name, values]) =>
      floorLine({
        name: `client/validate cost per checked answer (${name} 200 example, ${formatNumber(bytes[name]!)} B)`,
        value: summarize(values),
        unit: "µs",
        digits: 1,
        compare: "print",
      }),
    ),
  ];
}
