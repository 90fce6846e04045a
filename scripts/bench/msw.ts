/**
 * The MSW sandbox's first answer in Chromium: the example page (examples/msw) built and served from this
 * checkout and from the old commit, opened in a fresh browser (service worker registration included) in
 * alternating rounds; printed, with no floor but where it was. And its weight: an app that imports
 * `setupWorker` and `createSandboxHandlers`, bundled by esbuild (ESM, browser, minified) and gzipped at
 * level 9, against its floor, with the old commit's figure beside it; and the same for the stateless
 * `createMockHandlers`, printed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
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
async function firstAnswer(dir: string): Promise<{ ms: number }> {
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
        return { ms: await page.loadExamplePage(browser.page, `${server.origin}/index.html`) };
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

export async function mswFloors(rounds: number): Promise<string[]> {
  const base = baseCheckout();
  // Bundling is deterministic: one build each is the figure (min = median = max).
  const bytes = await kitBytes(ROOT);
  const oldBytes = await kitBytes(base);
  const weight = floorLine({
    name: "setupWorker + createSandboxHandlers <= 160 KiB min+gzip",
    value: { median: bytes, min: bytes, max: bytes },
    unit: "B",
    compare: "<=",
    target: KIT_FLOOR_BYTES,
    details: [`${BASE_COMMIT} ${formatNumber(oldBytes)} B`],
  });
  const stateless = await kitBytes(ROOT, "createMockHandlers");
  const oldStateless = await kitBytes(base, "createMockHandlers");
  const statelessWeight = floorLine({
    name: "setupWorker + createMockHandlers (stateless) min+gzip",
    value: { median: stateless, min: stateless, max: stateless },
    unit: "B",
    compare: "print",
    details: [`${BASE_COMMIT} ${formatNumber(oldStateless)} B`],
  });
  const timing = "MSW sandbox's first answer in Chromium (fresh browser) stays where it is";
  let runs;
  try {
    runs = await alternate(rounds, { now: () => firstAnswer(ROOT), old: () => firstAnswer(base) });
  } catch (error) {
    // The weight stands on its own: a browser that cannot start here does not hide it.
    return [weight, statelessWeight, `${timing}: not measured (${(error as Error).message.split("\n")[0]})`];
  }
  return [
    weight,
    statelessWeight,
    floorLine({
      name: timing,
      value: summarize(runs.now.ms!),
      unit: "ms",
      compare: "print",
      details: [`${BASE_COMMIT} ${formatSummary(summarize(runs.old.ms!), "ms")}`],
    }),
  ];
}
