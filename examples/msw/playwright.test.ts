/**
 * The Playwright recipe as a test that runs: the example page starts MSW's service worker with the sandbox
 * (as an app's development entry would), and the test asserts what the user sees. playwright-core drives
 * the project's Chromium (scripts/docs/browser.ts); with @playwright/test the body of each test is the
 * same, with `expect(locator).toHaveText(...)` instead of the waits below.
 *
 * Two things to know: a context with `serviceWorkers: "block"` stops MSW (the page never gets an answer),
 * and `page.route()` never sees a request the worker answers (fake the sandbox with `sandbox.fail(...)`
 * from the page instead, as the last test does).
 */
import type { Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";
import { loadExamplePage, openBrowser, type BrowserSession } from "./page.js";
import { servedExamplePage } from "./page-fixture.js";

/** Playwright waits for the state with no time limit of its own: the suite's hang budget catches a hang. */
const SEEN = { timeout: 0 };
const server = servedExamplePage();
let browser: BrowserSession;
let page: Page;
// A fresh profile per test: its own localStorage and service worker, so no state leaks between tests.
beforeEach(async () => {
  browser = await openBrowser();
  page = browser.page;
  await loadExamplePage(page, `${server.origin()}/index.html`);
});
afterEach(async () => {
  await browser?.close();
});

async function createList(name: string): Promise<void> {
  await page.getByLabel("List name").fill(name);
  await page.getByRole("button", { name: "Create List" }).click();
}

describe("Playwright recipe: the page as the user sees it", () => {
  it("after creating a List, the page lists it", async () => {
    await createList("Q4 hiring");
    const lists = page.getByRole("list", { name: "Lists" }).getByRole("listitem");
    await lists.filter({ hasText: "Q4 hiring" }).waitFor(SEEN);
    expect(await lists.allTextContents()).toEqual(["Saved people", "Q4 hiring"]);
    expect(await page.getByRole("alert").textContent()).toBe("");
    expect(browser.errors).toEqual([]);
    expect(browser.api.filter((r) => !r.fromServiceWorker)).toEqual([]);
  });

  it("an empty name shows the API's 400 message, and no List is added", async () => {
    await createList("");
    const alert = page.getByRole("alert");
    await alert.filter({ hasText: /./ }).waitFor(SEEN);
    expect(await alert.textContent()).toBe("body/name must be 1-80 characters after trimming"); // the API's 400
    expect(await page.getByRole("list", { name: "Lists" }).getByRole("listitem").allTextContents()).toEqual([
      "Saved people",
    ]);
    expect(browser.errors).toEqual([]);
  });

  it("a fault declared from the test: the next createList is a 503 the page reports, the one after is created", async () => {
    await page.evaluate(() =>
      (window as unknown as { __sandbox: SandboxHandlers }).__sandbox.fail("createList", { status: 503 }),
    );
    await createList("Retry me");
    await page.getByRole("alert").filter({ hasText: /./ }).waitFor(SEEN);
    await createList("Retry me");
    await page.getByRole("listitem").filter({ hasText: "Retry me" }).waitFor(SEEN);
    expect(await page.getByRole("alert").textContent()).toBe("");
  });
});
