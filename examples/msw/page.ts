/**
 * Serves the built example page from 127.0.0.1 and drives it in Chromium (the docs test's
 * launcher): the browser test and `npm run bench` share it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { isLocal, launchChromium } from "../../scripts/docs/browser.js";
import { servePage, type PageServer } from "../../scripts/docs/http.js";

const SCRIPTS = new Set(["/app.js", "/mockServiceWorker.js"]);

/** index.html at /, app.js and the worker script beside it; everything else 404. */
export function serveExamplePage(dir: string): Promise<PageServer> {
  return servePage(
    0,
    () => ({ status: 200, body: readFileSync(path.join(dir, "index.html")) }),
    (pathname, _req, res) => {
      if (!SCRIPTS.has(pathname)) return false;
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
      res.end(readFileSync(path.join(dir, pathname.slice(1))));
      return true;
    },
  );
}

export interface BrowserSession {
  page: Page;
  /** Every request the browser made, and those that would have left 127.0.0.1 (aborted). */
  requests: string[];
  external: string[];
  /** API answers (/v1/...) and whether the service worker gave them. */
  api: { url: string; fromServiceWorker: boolean }[];
  errors: string[];
  close(): Promise<void>;
}

export async function openBrowser(): Promise<BrowserSession> {
  const { context, close } = await launchChromium();
  const session: BrowserSession = {
    page: context.pages()[0] ?? (await context.newPage()),
    requests: [],
    external: [],
    api: [],
    errors: [],
    close,
  };
  context.on("request", (request) => {
    session.requests.push(request.url());
    if (!isLocal(request.url())) session.external.push(request.url());
  });
  context.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/v1/"))
      session.api.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() });
  });
  await context.route(
    (url) => !isLocal(url.href),
    (route) => route.abort("blockedbyclient"),
  );
  session.page.on("pageerror", (error) => session.errors.push(error.message));
  return session;
}

/** Loads the page and waits until the worker runs and the first API answer is on the page; returns that time (ms). */
export async function loadExamplePage(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-first-answer-ms]", { timeout: 20_000 });
  return Number(await page.getAttribute("body", "data-first-answer-ms"));
}

/** Where a loaded page's first-answer time went, in ms: graph, handlers (graph included), worker, answer. */
export async function firstAnswerParts(page: Page): Promise<Record<string, number>> {
  const parts = await page.getAttribute("body", "data-first-answer-parts");
  return parts ? (JSON.parse(parts) as Record<string, number>) : {};
}
