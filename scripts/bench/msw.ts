/**
 * The MSW sandbox's first answer in Chromium: the example page (examples/msw) built and served from this
 * checkout and from the old commit, opened in a fresh browser (service worker registration included) in
 * alternating rounds; printed, with no floor but where it was.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BASE_COMMIT, baseCheckout } from "./baseline.js";
import { ROOT, alternate, floorLine, formatSummary, summarize } from "./harness.js";

type Build = typeof import("../../examples/msw/build.js");
type Page = typeof import("../../examples/msw/page.js");

/** Opens the example page of the checkout at `dir` once; the time its first API answer took, in ms. */
async function firstAnswer(dir: string): Promise<{ ms: number }> {
  const build = (await import(pathToFileURL(join(dir, "examples/msw/build.ts")).href)) as Build;
  const page = (await import(pathToFileURL(join(dir, "examples/msw/page.ts")).href)) as Page;
  const out = mkdtempSync(join(tmpdir(), "talent-graph-msw-bench-"));
  try {
    await build.buildExamplePage(out);
    const server = await page.serveExamplePage(out);
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
  const runs = await alternate(rounds, { now: () => firstAnswer(ROOT), old: () => firstAnswer(base) });
  return [
    floorLine({
      name: "MSW sandbox's first answer in Chromium (fresh browser) stays where it is",
      value: summarize(runs.now.ms!),
      unit: "ms",
      compare: "print",
      details: [`${BASE_COMMIT} ${formatSummary(summarize(runs.old.ms!), "ms")}`],
    }),
  ];
}
