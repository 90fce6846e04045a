/**
 * The example page's sandbox (MSW host, persist on) in Chromium, with its localStorage tampered with: five stored
 * states of versions the sandbox does not write, each refused by name (the page starts fresh, says so once, and
 * leaves the value untouched); and a storage that breaks while the page runs (its value made unreadable, then
 * setItem failing), after which the page keeps answering from the last good state in memory, with one warning.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEFAULT_STORAGE_KEY } from "../../mocks/sandbox/hosts/msw/msw.js";
import { loadExamplePage, openBrowser } from "./page.js";
import { servedExamplePage } from "./page-fixture.js";

const server = servedExamplePage();
const KEY = DEFAULT_STORAGE_KEY;

/** A request from the page, answered by its service worker's sandbox: the status and the body. */
function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([method, path, body]) => {
      const sandbox = (window as unknown as { __sandbox: { keys: { acme: string } } }).__sandbox;
      const res = await fetch(`/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${sandbox.keys.acme}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
    [method, path, body] as const,
  );
}

async function listNames(page: Page): Promise<string[]> {
  const { status, body } = await api(page, "GET", "/lists");
  expect(status).toBe(200);
  return (body.data as { name: string }[]).map((l) => l.name).filter((n) => n !== "Saved people");
}

const stored = (page: Page) => page.evaluate((key) => localStorage.getItem(key), KEY);

async function session() {
  const browser = await openBrowser();
  const warnings: string[] = [];
  browser.page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("sandbox:")) warnings.push(message.text());
  });
  return { browser, page: browser.page, warnings, url: `${server.origin()}/index.html?persist=1` };
}

describe("the page's stored state (Chromium)", () => {
  it("five stored versions it does not write: each refused by name, a fresh start, the value untouched", async () => {
    const { browser, page, warnings, url } = await session();
    try {
      await loadExamplePage(page, url);
      expect((await api(page, "POST", "/lists", { name: "Stored" })).status).toBe(201);
      const good = JSON.parse((await stored(page))!) as Record<string, unknown>;
      expect(good.version).toBe(2);
      const versions: [string, unknown][] = [
        ["version 3", 3],
        ["version 99", 99],
        ['version "2"', "2"],
        ["no version", undefined],
        ["version -1", -1],
      ];
      for (const [name, version] of versions) {
        const text = JSON.stringify({ ...good, version });
        await page.evaluate(([key, value]) => localStorage.setItem(key, value), [KEY, text] as const);
        warnings.length = 0;
        await loadExamplePage(page, url);
        expect(await listNames(page), name).toEqual([]);
        expect((await api(page, "POST", "/lists", { name: "Fresh" })).status, name).toBe(201);
        expect(await listNames(page), name).toEqual(["Fresh"]);
        expect(await stored(page), `${name}: the refused value untouched`).toBe(text);
        expect(warnings, name).toHaveLength(1);
        expect(warnings[0]).toContain(`localStorage:${KEY} holds a stored state of ${name},`);
        expect(warnings[0]).toMatch(/refused, and the page starts fresh/);
      }
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("storage that breaks while the page runs: one warning, answers from the last good state", async () => {
    const { browser, page, warnings, url } = await session();
    try {
      await loadExamplePage(page, url);
      expect((await api(page, "POST", "/lists", { name: "Before" })).status).toBe(201);
      // The stored value made unreadable by something else on the page, then the storage refusing writes.
      await page.evaluate((key) => localStorage.setItem(key, "{not json"), KEY);
      expect((await api(page, "POST", "/lists", { name: "After" })).status).toBe(201);
      await page.evaluate(() => {
        Storage.prototype.setItem = () => {
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        };
      });
      expect((await api(page, "POST", "/lists", { name: "After quota" })).status).toBe(201);
      expect((await api(page, "GET", "/me")).status).toBe(200);
      expect((await api(page, "GET", "/people?limit=1")).status).toBe(200);
      expect(await listNames(page)).toEqual(["Before", "After", "After quota"]);
      expect(await stored(page)).toBe("{not json");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/localStorage:.* was changed by something other than this sandbox; .* in memory/);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
