/**
 * The pages' Content-Security-Policy in the packaged Chromium: the reference (Redoc, its search worker, "Try it"
 * sending to the in-page sandbox), the changelog and the trace page work with no violation reported, while a
 * script the page did not ship (an injected element) is refused and reported. Also checked without a
 * browser: the reference's policy names every script by hash, and the connections are the spec's servers.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChangelog } from "../changelog/changelog.js";
import { FEED_FILE, PAGE_FILE } from "../changelog/render.js";
import { type LaunchedChromium, isLocal, launchChromium } from "./browser.js";
import { DEFAULT_OUT, DEFAULT_SPEC, readBundle } from "./build.js";
import { ensureBuilt, sectionId } from "./built-page.js";
import { connectSources, serverOrigins, withReferenceCsp } from "./csp.js";
import { servePage, type PageServer } from "./http.js";
import { writeTracePage } from "./trace-page.js";

describe("the reference page's policy", () => {
  it("names the spec's server origins as its only connections and every script by hash", async () => {
    const origins = serverOrigins(await readBundle(DEFAULT_SPEC));
    expect(origins).toEqual(["https://api.talent-graph.example", "http://127.0.0.1:4011", "http://127.0.0.1:4010"]);
    const page = withReferenceCsp(
      "<html><head><script>a()</script></head><body><script>b()</script></body></html>",
      origins,
    );
    expect(page).toMatch(
      /^<html><head>\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+' 'sha256-[^']+'; /,
    );
    expect(connectSources(page)).toEqual(origins);
    // Rewritten, not added twice.
    expect(withReferenceCsp(page, ["'self'"]).match(/Content-Security-Policy/g)).toHaveLength(1);
  });
});

describe("the pages in a browser, under their policies", () => {
  let dir = "";
  let browser: LaunchedChromium | undefined;
  let server: PageServer | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "docs-csp-"));
    // The browser starts while the pages are written, and is kept for afterAll even when a page fails to build.
    const [launched, ...built] = await Promise.allSettled([
      launchChromium(),
      ensureBuilt(),
      buildChangelog({ outDir: dir }),
      writeTracePage(path.join(dir, "index.html")),
    ]);
    if (launched.status === "fulfilled") browser = launched.value;
    for (const step of [launched, ...built]) if (step.status === "rejected") throw step.reason;
    const files: Record<string, string> = {
      [`/${PAGE_FILE}`]: PAGE_FILE,
      [`/${FEED_FILE}`]: FEED_FILE,
      "/trace.html": "trace.html",
    };
    const reference = readFileSync(DEFAULT_OUT);
    server = await servePage(
      0,
      () => ({ status: 200, body: reference }),
      (pathname, _req, res) => {
        const file = files[pathname];
        if (!file) return false;
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(readFileSync(path.join(dir, file)));
        return true;
      },
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A tab whose policy violations and errors are recorded; non-local requests are aborted. */
  async function open(file: string): Promise<{ page: Page; violations: string[]; errors: string[] }> {
    const page = await browser!.context.newPage();
    const violations: string[] = [];
    const errors: string[] = [];
    await page.route(
      (u) => !isLocal(u.href),
      (route) => route.abort("blockedbyclient"),
    );
    await page.exposeFunction("__reportViolation", (v: string) => void violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation(
          `${e.effectiveDirective} ${e.blockedURI} ${e.sample} at ${e.lineNumber}:${e.columnNumber}`,
        ),
      ),
    );
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server!.origin}/${file}`, { waitUntil: "load" });
    return { page, violations, errors };
  }

  /** A script element the page did not ship is refused and reported (what the policy is for). */
  async function refusesForeignScript(page: Page, violations: string[]): Promise<void> {
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { injected?: boolean };
      const script = document.createElement("script");
      script.textContent = "window.injected = true";
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 50));
      return w.injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.filter((v) => /^script-src(-elem)? inline /.test(v))).toHaveLength(1);
  }

  it("the reference renders, searches and sends with Try it to the in-page sandbox; only Redoc's eval probe is refused", async () => {
    const { page, violations, errors } = await open("index.html");
    try {
      const s = sectionId("Account", "getAccount");
      await page.evaluate((hash) => (window.location.hash = hash), `#${s}`);
      await page.locator(`[data-section-id="${s}"] button.try-it-open`).click({ timeout: 0 });
      await page.locator("#try-it-panel").waitFor({ state: "visible", timeout: 0 });
      await page.locator("#try-it-panel").getByRole("button", { name: "Send", exact: true }).click();
      await page.waitForFunction(
        () => /^\d{3}\b/.test(document.querySelector("#try-it-status")?.textContent ?? ""),
        null,
        { timeout: 0 },
      );
      expect(await page.locator("#try-it-status").textContent()).toMatch(/^200\b/);
      // Redoc's search probes for eval (to index in a worker); refused, it indexes in the page, and finds.
      await page.keyboard.press("Escape");
      await page.locator('[data-testid="search-trigger"]').click();
      await page.locator('[data-testid="search-dialog"] input').fill("saved queries");
      await expect
        .poll(() => page.locator('[data-testid="search-dialog"]').textContent())
        .toContain("Save a people-search query");
      await page.keyboard.press("Escape");
      expect(violations.filter((v) => !/^script-src eval /.test(v))).toEqual([]);
      expect(errors).toEqual([]);
      await refusesForeignScript(page, violations);
    } finally {
      await page.close();
    }
  });

  for (const file of [PAGE_FILE, "trace.html"])
    it(`${file} shows with its styles and no violation, and refuses any script`, async () => {
      const { page, violations, errors } = await open(file);
      try {
        expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui");
        expect(violations).toEqual([]);
        expect(errors).toEqual([]);
        await refusesForeignScript(page, violations);
      } finally {
        await page.close();
      }
    });
});
