/**
 * The Storybook recipe (storybook/preview.ts, main.ts, lists.stories.ts) run in Chromium: its loaders (the
 * msw-storybook-addon 3 mswLoader and the sandbox loader) run as Storybook's preview runs them, with the
 * worker script served from the page's origin (what `staticDirs` does). Each story starts from its declared
 * state, with persistence on: nothing a story wrote shows in the next story or after a reload. Its types
 * are checked against the addon's and Storybook's by the project's tsc and storybook.test-d.ts.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openBrowser } from "./page.js";
import { servedExamplePage } from "./page-fixture.js";

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "storybook");
const server = servedExamplePage(path.join(HERE, "harness.ts"), path.join(HERE, "harness.html"));

describe("Storybook recipe (msw-storybook-addon 3)", () => {
  it("each story starts from its declared state: no leak between stories or across a reload, with persist", async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      const show = async (query: string) => {
        await page.goto(`${server.origin()}/index.html?${query}`, { waitUntil: "load" });
        await page.waitForSelector("body[data-done], body[data-error]", { timeout: 0 });
        expect(await page.getAttribute("body", "data-error")).toBeNull();
        return page.locator("#root li").allTextContents();
      };

      expect(await show("story=WithShortlist&write=Made+in+story")).toEqual([
        "Saved people",
        "Shortlist",
        "Made in story",
      ]);
      expect(await show("story=FromTheSeed")).toEqual(["Saved people"]);
      expect(await show("story=WithShortlist")).toEqual(["Saved people", "Shortlist"]);
      // Persistence was on: the stored state is the last story's.
      const stored = await page.evaluate(() => localStorage.getItem("storybook-sandbox"));
      expect(stored).toContain("Shortlist");
      expect(stored).not.toContain("Made in story");

      expect(browser.errors).toEqual([]);
      expect(browser.external).toEqual([]);
      expect(browser.api.length).toBeGreaterThanOrEqual(4);
      expect(browser.api.filter((r) => !r.fromServiceWorker)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
