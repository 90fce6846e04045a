/**
 * The changelog page in the packaged Chromium (scripts/docs/browser.ts), beside the reference it links with:
 * no horizontal overflow at 1280 px, and an operation section of the reference links to its changes, which link
 * back to the section.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { REPO_ROOT, listOperations, loadSpec, DEFAULT_SPEC_PATH } from "../../contract-core/index.js";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OUT } from "../docs/build.js";
import { ensureBuilt } from "../docs/built-page.js";
import { type LaunchedChromium, isLocal, launchChromium } from "../docs/browser.js";
import { servePage, type PageServer } from "../docs/http.js";
import { OPERATION_LINK_TEXT } from "../docs/changelog-links.js";
import { installLine } from "../release/version.js";
import { packageName } from "../docs/release-info.js";
import { buildChangelog } from "./changelog.js";
import { specCommits } from "./history.js";
import { FEED_FILE, PAGE_FILE, operationAnchor, referenceSection } from "./render.js";

describe("the changelog page in a browser", () => {
  let dir = "";
  let browser: LaunchedChromium | undefined;
  let server: PageServer | undefined;
  // One tab per page, each loaded once and shared by the tests that read it; the reference's tab records the
  // requests it would have sent off the machine (all aborted). The test that follows links from the reference
  // to the changelog and back comes last among the reference's.
  let changelogTab: Page;
  let referenceTab: Page;
  const external: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "changelog-page-"));
    // The reference is the page the docs' browser tests read (built when older than its sources); the browser
    // starts while the pages are written, and is kept for afterAll even when a page fails to build.
    const [launched, ...built] = await Promise.allSettled([
      launchChromium(),
      ensureBuilt(),
      buildChangelog({ outDir: dir }),
    ]);
    if (launched.status === "fulfilled") browser = launched.value;
    for (const step of [launched, ...built]) if (step.status === "rejected") throw step.reason;
    const reference = readFileSync(DEFAULT_OUT);
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
    [changelogTab, referenceTab] = await Promise.all([browser!.context.newPage(), browser!.context.newPage()]);
    await changelogTab.setViewportSize({ width: 1280, height: 900 });
    await referenceTab.route(
      (url) => !isLocal(url.href),
      (route) => (external.push(route.request().url()), route.abort("blockedbyclient")),
    );
    await Promise.all([
      changelogTab.goto(`${server.origin}/${PAGE_FILE}`, { waitUntil: "load" }),
      referenceTab.goto(`${server.origin}/index.html`, { waitUntil: "load" }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("has no horizontal overflow at 1280 px", async () => {
    const page = changelogTab;
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      wide: [...document.querySelectorAll<HTMLElement>("main *")]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 60) ?? ""}`),
    }));
    expect(overflow).toEqual({ page: 0, wide: [] });
    expect(await page.locator(".entry").count()).toBeGreaterThan(0);
  });

  it("has a Changelog entry in the reference's navigation, whose section links the page and the feed", async () => {
    const page = referenceTab;
    const menu = page.locator(".menu-content li", { hasText: /^Changelog$/ });
    await menu.first().waitFor({ timeout: 0 });
    await menu.first().click();
    const section = page.locator('[data-section-id="/section/changelog"]');
    await section.waitFor({ timeout: 0 });
    expect(await section.locator(`a[href="${PAGE_FILE}"]`).count()).toBe(1);
    expect(await section.locator(`a[href="${FEED_FILE}"]`).count()).toBe(1);
  });

  it("this repository's page: entries titled in the API's words, none unclassified, every operation's changes by release", async () => {
    const seen = await changelogTab.evaluate(() => ({
      titles: [...document.querySelectorAll(".entry h3")].map((h) => h.textContent ?? ""),
      text: document.body.textContent ?? "",
      releases: [...document.querySelectorAll("section.release")].map((r) => r.id),
      operations: [...document.querySelectorAll("section.operation")].map((op) => ({
        id: op.id,
        // Each release heading of the card, with the release section each of its changes links into.
        groups: [...op.querySelectorAll("h4")].map((h) => ({
          release: h.querySelector("a")?.getAttribute("href")?.slice(1) ?? "",
          targets: [...(h.nextElementSibling?.querySelectorAll("li a") ?? [])].map(
            (a) => document.querySelector(a.getAttribute("href") ?? "#none")?.closest("section.release")?.id ?? "",
          ),
        })),
      })),
    }));
    const subjects = new Set(specCommits(REPO_ROOT).map((c) => c.subject));
    expect(seen.titles.length).toBeGreaterThan(0);
    expect(seen.titles.filter((t) => /^Merge\b/.test(t) || subjects.has(t))).toEqual([]);
    expect(seen.text).not.toContain("no classified change");
    expect(seen.releases[0]).toBe("release-unreleased");
    const ids = listOperations(loadSpec(DEFAULT_SPEC_PATH)).map((o) => `op-${String(o.operation.operationId)}`);
    for (const id of ids) {
      const card = seen.operations.find((o) => o.id === id);
      expect(card?.groups.length, id).toBeGreaterThan(0);
      for (const g of card!.groups) {
        expect(seen.releases, id).toContain(g.release);
        expect(g.targets.length, id).toBeGreaterThan(0);
        expect(new Set(g.targets), `${id} ${g.release}`).toEqual(new Set([g.release]));
      }
    }
  });

  it("the reference's title carries the version, and its install line is the release's", async () => {
    const page = referenceTab;
    const version = String((loadSpec(DEFAULT_SPEC_PATH).info as { version: string }).version);
    expect(await page.title()).toContain(version);
    const heading = page.locator('[data-section-id="/"] h1').first();
    await heading.waitFor({ timeout: 0 });
    expect(await heading.textContent()).toContain(version);
    const intro = await page.locator('[data-section-id="/"]').first().textContent();
    expect(intro).toContain(installLine(packageName(), version));
  });

  it("links an operation section of the reference to its changes, and back", async () => {
    const page = referenceTab;
    const section = referenceSection("Lists", "listLists");
    await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
    const toChanges = page.locator(`[data-section-id="${section}"] a`, { hasText: OPERATION_LINK_TEXT });
    await toChanges.first().waitFor({ timeout: 0 });
    await toChanges.first().click();
    await page.waitForURL(`**/${PAGE_FILE}#${operationAnchor("listLists")}`);
    const changes = page.locator(`#${operationAnchor("listLists")}`);
    await expect.poll(() => changes.evaluate((e) => e.getBoundingClientRect().top)).toBeLessThan(900);
    expect(await changes.locator("li a").count()).toBeGreaterThan(0);
    await changes.locator("a.reference-link").click();
    // The way back loads the reference at the section's address: Redoc opens the page at that section.
    await page.waitForURL(`**/index.html#${section}`);
    await page.locator(`[data-section-id="${section}"]`).first().waitFor({ timeout: 0 });
    expect(external).toEqual([]);
  });
});
