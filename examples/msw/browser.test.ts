/**
 * The example page in Chromium, served from 127.0.0.1, with the sandbox answering from MSW's
 * service worker: search -> open a dossier from a search slug -> create a List -> reload; the List is
 * still there with persistence on and gone with it off. No request leaves 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { loadExamplePage, openBrowser } from "./page.js";
import { servedExamplePage } from "./page-fixture.js";

const server = servedExamplePage();

describe("example page (MSW service worker)", () => {
  it.each([
    { persist: true, kept: true },
    { persist: false, kept: false },
  ])("persist=$persist: search, dossier, create a List, reload -> List kept: $kept", async ({ persist, kept }) => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      const url = `${server.origin()}/index.html${persist ? "?persist=1" : ""}`;
      await loadExamplePage(page, url);

      await page.click("#search-form button");
      const slug = await page.locator("button.slug").first().textContent({ timeout: 0 });
      expect(slug).toMatch(/^[a-z0-9-]+$/);
      await page.locator("button.slug").first().click();
      await page.waitForFunction(() => document.getElementById("dossier")!.textContent !== "");

      await page.fill("#list-name", "Frontend shortlist");
      await page.click("#list-form button");
      await page.locator("#lists li", { hasText: "Frontend shortlist" }).waitFor({ timeout: 0 });

      await loadExamplePage(page, url);
      const names = await page.locator("#lists li").allTextContents();
      expect(names.includes("Frontend shortlist")).toBe(kept);

      expect(browser.errors).toEqual([]);
      expect(browser.external).toEqual([]);
      expect(browser.requests.every((u) => u.startsWith(server.origin()))).toBe(true);
      // Search, dossier, Lists: every API call was answered by the service worker, none by a server.
      expect(browser.api.length).toBeGreaterThanOrEqual(5);
      expect(browser.api.filter((r) => !r.fromServiceWorker)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
