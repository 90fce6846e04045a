/**
 * The changelog page in the packaged Chromium (scripts/docs/browser.ts), beside the reference it links with:
 * no horizontal overflow at 1280 px, and an operation section of the reference links to its changes, which link
 * back to the section.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocs } from "../docs/build.js";
import { type LaunchedChromium, isLocal, launchChromium } from "../docs/browser.js";
import { servePage, type PageServer } from "../docs/http.js";
import { OPERATION_LINK_TEXT } from "../docs/changelog-links.js";
import { buildChangelog } from "./changelog.js";
import { FEED_FILE, PAGE_FILE, operationAnchor, referenceSection } from "./render.js";

const TIMEOUT = 30_000;

describe("the changelog page in a browser", () => {
  let dir = "";
  let browser: LaunchedChromium | undefined;
  let server: PageServer | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "changelog-page-"));
    const { outFile } = await buildDocs({ outFile: path.join(dir, "index.html") });
    await buildChangelog({ outDir: dir });
    const reference = readFileSync(outFile);
    const files: Record<string, [string, string]> = {
      [`/${PAGE_FILE}`]: [PAGE_FILE, "text/html; charset=utf-8"],
      [`/${FEED_FILE}`]: [FEED_FILE, "application/atom+xml"],
    };
    server = await servePage(
      0,
      () => ({ status: 200, body: reference }),
      (pathname, _req, res) => {
        const file = files[pathname];
        if (!file) return false;
        res.writeHead(200, { "content-type": file[1] });
        res.end(readFileSync(path.join(dir, file[0])));
        return true;
      },
    );
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "has no horizontal overflow at 1280 px",
    async () => {
      const page = await browser!.context.newPage();
      try {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${server!.origin}/${PAGE_FILE}`, { waitUntil: "load" });
        const overflow = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          wide: [...document.querySelectorAll<HTMLElement>("main *")]
            .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName} ${e.textContent?.slice(0, 60) ?? ""}`),
        }));
        expect(overflow).toEqual({ page: 0, wide: [] });
        expect(await page.locator(".entry").count()).toBeGreaterThan(0);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    "has a Changelog entry in the reference's navigation, whose section links the page and the feed",
    async () => {
      const page = await browser!.context.newPage();
      try {
        await page.goto(`${server!.origin}/index.html`, { waitUntil: "load" });
        const menu = page.locator(".menu-content li", { hasText: /^Changelog$/ });
        await menu.first().waitFor({ timeout: TIMEOUT / 2 });
        await menu.first().click();
        const section = page.locator('[data-section-id="/section/changelog"]');
        await section.waitFor({ timeout: TIMEOUT / 2 });
        expect(await section.locator(`a[href="${PAGE_FILE}"]`).count()).toBe(1);
        expect(await section.locator(`a[href="${FEED_FILE}"]`).count()).toBe(1);
      } finally {
        await page.close();
      }
    },
    TIMEOUT,
  );

  it(
    "links an operation section of the reference to its changes, and back",
    async () => {
      const page = await browser!.context.newPage();
      const external: string[] = [];
      await page.route(
        (url) => !isLocal(url.href),
        (route) => (external.push(route.request().url()), route.abort("blockedbyclient")),
      );
      try {
        const section = referenceSection("Lists", "listLists");
        await page.goto(`${server!.origin}/index.html#${section}`, { waitUntil: "load" });
        const toChanges = page.locator(`[data-section-id="${section}"] a`, { hasText: OPERATION_LINK_TEXT });
        await toChanges.first().waitFor({ timeout: TIMEOUT / 2 });
        await toChanges.first().click();
        await page.waitForURL(`**/${PAGE_FILE}#${operationAnchor("listLists")}`);
        const changes = page.locator(`#${operationAnchor("listLists")}`);
        await expect.poll(() => changes.evaluate((e) => e.getBoundingClientRect().top)).toBeLessThan(900);
        expect(await changes.locator("li a").count()).toBeGreaterThan(0);
        await changes.locator("a.reference-link").click();
        await page.waitForURL(`**/index.html#${section}`);
        await page
          .locator(`[data-section-id="${section}"]`)
          .first()
          .waitFor({ timeout: TIMEOUT / 2 });
        expect(external).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TIMEOUT * 2,
  );
});
