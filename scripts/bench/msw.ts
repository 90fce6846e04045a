/**
 * The MSW sandbox's first answer in Chromium: the example page (examples/msw) built and served from this
 * checkout and from the old commit, opened in a fresh browser (service worker registration included) in
 * alternating rounds, against its floor (250 ms), with the old commit's figure beside it. And its weight: an
 * app that imports `setupWorker` and `createSandboxHandlers`, bundled by esbuild (ESM, browser, minified) and gzipped at
 * level 9, against its floor, with the old commit's figure beside it; and the same for the stateless
 * `createMockHandlers`, printed; and both again against the packed tarball's entry, as a team installs it (the
 * sandbox against the same floor, the stateless handlers against their source figure).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import { appBytes } from "./client.js";
import { ROOT, alternate, floorLine, formatNumber, formatSummary, summarize } from "./harness.js";

/** Where createSandboxHandlers lives, now and in older checkouts. */
const KIT_MODULES = ["mocks/sandbox/hosts/msw/msw.ts", "mocks/sandbox/hosts/msw.ts"];
/** Floor of the kit's weight in a page: setupWorker + createSandboxHandlers, minified and gzipped. */
export const KIT_FLOOR_BYTES = 160 * 1024;
/** Floor of the first answer through the service worker, from creating the handlers (a calm machine). */
export const FIRST_ANSWER_FLOOR_MS = 250;

/** Bytes of an app of `setupWorker` and one of the kit's factories, minified and gzipped, built from `dir`. */
export async function kitBytes(
  dir: string,
  factory: "createSandboxHandlers" | "createMockHandlers" = "createSandboxHandlers",
): Promise<number> {
  const kit = KIT_MODULES.find((file) => existsSync(join(dir, file)))!;
  const app = [
    'import { setupWorker } from "msw/browser";',
    `import { ${factory} } from "./${kit}";`,
    `globalThis.app = [setupWorker, ${factory}];`,
  ].join("\n");
  return appBytes(dir, app);
}

type Build = typeof import("../../examples/msw/build.js");
type Page = typeof import("../../examples/msw/page.js");

/**
 * Opens the example page of the checkout at `dir` once; the time its first API answer took, in ms. The page is
 * built and served by that checkout's code and opened in this checkout's browser (the packaged Chromium), so
 * both sides run in the same browser whatever an old checkout looked for.
 */
async function firstAnswer(dir: string): Promise<Record<string, number>> {
  const build = (await import(pathToFileURL(join(dir, "examples/msw/build.ts")).href)) as Build;
  const served = (await import(pathToFileURL(join(dir, "examples/msw/page.ts")).href)) as Page;
  const page = (await import(pathToFileURL(join(ROOT, "examples/msw/page.ts")).href)) as Page;
  const out = mkdtempSync(join(tmpdir(), "talent-graph-msw-bench-"));
  try {
    await build.buildExamplePage(out);
    const server = await served.serveExamplePage(out);
    try {
      const browser = await page.openBrowser();
      try {
        const ms = await page.loadExamplePage(browser.page, `${server.origin}/index.html`);
        // Where the time went (this checkout's page says; an old one's may not).
        return { ms, ...(await page.firstAnswerParts(browser.page)) };
      } finally {
        await browser.close();
      }
    } finally {
      await server.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * The same apps built against the package as a team installs it: the tarball's `./msw` entry (staged by
 * scripts/build/pack.ts, which `npm pack` packs as it is), imported by its package name.
 */
export async function packedKitBytes(): Promise<Record<"createSandboxHandlers" | "createMockHandlers", number>> {
  const { stagePackage } = await import("../build/pack.js");
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  // Inside the checkout, so `msw` resolves from its node_modules as from a team's.
  const stage = mkdtempSync(join(ROOT, "dist", ".bench-pack-"));
  try {
    await stagePackage(stage, { typeCheck: false });
    const entry = join(stage, "dist", "msw", "index.js");
    const app = (factory: string) =>
      [
        'import { setupWorker } from "msw/browser";',
        `import { ${factory} } from ${JSON.stringify(entry)};`,
        `globalThis.app = [setupWorker, ${factory}];`,
      ].join("\n");
    return {
      createSandboxHandlers: await appBytes(stage, app("createSandboxHandlers")),
      createMockHandlers: await appBytes(stage, app("createMockHandlers")),
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The medians of the first answer's parts (examples/msw/browser/main.ts), as one detail of its line. */
function partsOf(runs: Record<string, number[] | undefined>): string {
  const median = (name: string) => (runs[name]?.length ? `${formatNumber(summarize(runs[name]).median)} ms` : "?");
  return (
    `of which createSandboxHandlers ${median("handlers")} (its graph ${median("graph")}), ` +
    `worker start ${median("worker")}, first request ${median("answer")}`
  );
}

export async function mswFloors(rounds: number): Promise<string[]> {
  const base = baseCheckout();
  // Bundling is deterministic: one build each is the figure (min = median = max).
  const bytes = await kitBytes(ROOT);
  const oldBytes = await kitBytes(base);
  const packed = await packedKitBytes();
  const one = (n: number) => ({ median: n, min: n, max: n });
  const weight = floorLine({
    name: "setupWorker + createSandboxHandlers <= 160 KiB min+gzip (source)",
    value: one(bytes),
    unit: "B",
    compare: "<=",
    target: KIT_FLOOR_BYTES,
    details: [`${BASE_COMMIT} ${formatNumber(oldBytes)} B`],
  });
  const packedWeight = floorLine({
    name: "setupWorker + createSandboxHandlers <= 160 KiB min+gzip (packed tarball)",
    value: one(packed.createSandboxHandlers),
    unit: "B",
    compare: "<=",
    target: KIT_FLOOR_BYTES,
    details: [`source ${formatNumber(bytes)} B`],
  });
  const stateless = await kitBytes(ROOT, "createMockHandlers");
  const oldStateless = await kitBytes(base, "createMockHandlers");
  const statelessWeight = floorLine({
    name: "setupWorker + createMockHandlers (stateless) min+gzip (source)",
    value: one(stateless),
    unit: "B",
    compare: "print",
    details: [`${BASE_COMMIT} ${formatNumber(oldStateless)} B`],
  });
  const packedStateless = floorLine({
    name: "setupWorker + createMockHandlers (stateless) min+gzip (packed tarball) <= its source figure",
    value: one(packed.createMockHandlers),
    unit: "B",
    compare: "<=",
    target: stateless,
    details: [`source ${formatNumber(stateless)} B`],
  });
  const weights = [weight, packedWeight, statelessWeight, packedStateless];
  const timing = "MSW sandbox's first answer in Chromium (fresh browser, handlers created -> answer) <= 250 ms";
  let runs;
  try {
    runs = await alternate(rounds, { now: () => firstAnswer(ROOT), old: () => firstAnswer(base) });
  } catch (error) {
    // The weight stands on its own: a browser that cannot start here does not hide it.
    return [...weights, `${timing}: not measured (${(error as Error).message.split("\n")[0]})`];
  }
  return [
    ...weights,
    floorLine({
      name: timing,
      value: summarize(runs.now.ms!),
      unit: "ms",
      compare: "<=",
      target: FIRST_ANSWER_FLOOR_MS,
      details: [`${BASE_COMMIT} ${formatSummary(summarize(runs.old.ms!), "ms")}`, partsOf(runs.now)],
    }),
  ];
}
