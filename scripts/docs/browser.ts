/**
 * Opens the built reference in Chromium (playwright-core, headless, fresh profile; see resolveChromium), serves it
 * from 127.0.0.1, records every request (aborting any that leaves the machine), records console errors,
 * measures the guides (the info description's sections) at given widths, expands each tag section and
 * brings each operation into view (Redoc 3 renders operations lazily), and saves screenshots.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { servePage, type PageServer } from "./http.js";

/** Flags for every launch: no background traffic, no first-run work, no sandbox (containers, CI). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export interface ChromiumExecutable {
  path: string;
  args: string[];
  /** Where it came from, for messages: `CHROMIUM_PATH` or the package name. */
  source: string;
}

/**
 * The browser to launch: `CHROMIUM_PATH` when set (e.g. a CI runner's preinstalled Chrome), otherwise the
 * Chromium inside the `@sparticuz/chromium` devDependency, so no system browser and no download outside the npm
 * registry is involved. The package unpacks into the temp folder and takes any `chromium` already there as
 * complete; here it unpacks into a folder of its own version, once, under a lock, so test files starting in
 * parallel never launch a half-written binary or another version's.
 */
export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumExecutable> {
  assertChromium(env);
  const configured = env.CHROMIUM_PATH;
  if (configured) return { path: configured, args: CHROMIUM_ARGS, source: "CHROMIUM_PATH" };
  const { default: packaged } = await import("@sparticuz/chromium");
  const manifest = fileURLToPath(new URL("../package.json", import.meta.resolve("@sparticuz/chromium")));
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  const dir = path.join(os.tmpdir(), `talent-graph-chromium-${version}`);
  const ready = path.join(dir, ".unpacked");
  if (!existsSync(ready))
    await withLock(`${dir}.lock`, async () => {
      if (existsSync(ready)) return;
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      // The package unpacks into os.tmpdir(), which reads TMPDIR at each call.
      const tmp = process.env.TMPDIR;
      process.env.TMPDIR = dir;
      try {
        await packaged.executablePath();
      } finally {
        if (tmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmp;
      }
      await writeFile(ready, version);
    });
  return {
    path: path.join(dir, "chromium"),
    args: [...new Set([...packaged.args, ...CHROMIUM_ARGS])],
    source: "@sparticuz/chromium",
  };
}

export interface Section {
  /** Heading the page shows for the tag (x-displayName or name). */
  heading: string;
}

export interface RenderedOperation {
  /** The operation's heading in the page (its summary). */
  heading: string;
  /** The operation section's visible text once rendered. */
  text: string;
}

/** One guide table or code block wider than its column at one viewport width. */
export interface GuideOverflow {
  width: number;
  /** The guide section and the block, e.g. `/section/getting-started pre` with its sizes. */
  block: string;
}

export interface GuideCheck {
  width: number;
  /** Tables and code blocks measured in the guides. */
  blocks: number;
  overflowing: GuideOverflow[];
  screenshot: string;
}

/** One code sample block of an operation's right panel, in one language, at one width. */
export interface SampleCheck {
  width: number;
  /** The operation's section id, e.g. `/people/searchpeople`. */
  section: string;
  /** The sample language chosen in the page (`default` when none is chosen). */
  language: string;
  /** Request and response sample blocks measured. */
  blocks: number;
  /** Blocks that scroll sideways or stick out of their panel, with their sizes. */
  overflowing: string[];
  /** Blocks whose copy button covers part of their text. */
  copyOverlaps: string[];
  /** The start of the request sample's text (shows which language was measured). */
  requestText: string;
}

/** The page's top (title, intro, servers) and the guides' tables at one viewport width. */
export interface LayoutCheck {
  width: number;
  /** Lines the page title (`[data-section-id="/"] h1`) takes. */
  titleLines: number;
  /** Visible text of the page's top section: title, summary and intro. */
  infoText: string;
  /** Visible text of the Servers panel beside it. */
  serversText: string;
  /** Words of the guides' tables broken across lines between two letters or digits, e.g. `unsu|pported`. */
  brokenWords: string[];
  samples: SampleCheck[];
}

export interface Inspection {
  url: string;
  /** One entry per `guideWidths` value. */
  guides: GuideCheck[];
  /** One entry per `guideWidths` value. */
  layout: LayoutCheck[];
  /** The entries of the server selector above the first sample section's request sample (text of each). */
  serverChoices: string[];
  requests: string[];
  external: string[];
  consoleErrors: string[];
  /** Tag heading -> its operations as rendered, in page order; null when the section never rendered. */
  sections: Map<string, RenderedOperation[] | null>;
}

export interface InspectOptions {
  htmlFile: string;
  sections: Section[];
  screenshot: string;
  /** Viewport widths at which the guides' tables and code blocks must fit their column. */
  guideWidths?: number[];
  /** Screenshot of the guides per width: `{width}` in the name is replaced by the width. */
  guidesScreenshot?: string;
  /** Operation section ids (`/people/searchpeople`) whose right-panel samples are measured at each width. */
  sampleSections?: string[];
  /** Sample languages (their labels in the page) to measure each sample section in; none: as shown. */
  sampleLanguages?: string[];
  /** Per section; the first one also covers hydration. */
  timeoutMs?: number;
  /**
   * A browser from launchChromium to open the page in (a fresh tab, closed afterwards), so several
   * inspections share one Chromium; without it, one is launched and closed for this inspection.
   */
  browser?: LaunchedChromium;
}

export interface LaunchedChromium {
  context: BrowserContext;
  close: () => Promise<void>;
}

/** Serves one HTML file at `/` and `/index.html` on 127.0.0.1; anything else is a 404. */
export async function serveFile(file: string): Promise<PageServer> {
  const body = await readFile(file);
  return servePage(0, () => ({ status: 200, body }));
}

/** Runs `work` while holding `file` (created exclusively; one older than STALE_LOCK_MS is a crashed holder's). */
async function withLock(file: string, work: () => Promise<void>): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await writeFile(file, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(file).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(file, { force: true });
      else if (Date.now() - started > STALE_LOCK_MS)
        throw new Error(`${file} stayed locked; remove it if no test runs`, { cause: error });
      else await new Promise((done) => setTimeout(done, 100));
    }
  }
  try {
    await work();
  } finally {
    await rm(file, { force: true });
  }
}

/** Unpacking takes a few seconds; a lock this old belongs to a process that died holding it. */
const STALE_LOCK_MS = 120_000;

/** Fails early, naming the variable, when `CHROMIUM_PATH` is set to a file that does not exist. */
export function assertChromium(env: NodeJS.ProcessEnv = process.env): void {
  const configured = env.CHROMIUM_PATH;
  if (configured && !existsSync(configured))
    throw new Error(`CHROMIUM_PATH names ${configured}, which does not exist. Unset it to use the packaged Chromium.`);
}

export async function launchChromium(): Promise<LaunchedChromium> {
  const executable = await resolveChromium();
  const profile = await mkdtemp(path.join(os.tmpdir(), "talent-graph-docs-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: executable.path,
      headless: true,
      args: executable.args,
      viewport: { width: 1280, height: 900 },
    });
    const close = async () => {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    };
    return { context, close };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLocal(url: string): boolean {
  const parsed = new URL(url);
  if (["data:", "blob:", "about:"].includes(parsed.protocol)) return true;
  return LOCAL_HOSTS.has(parsed.hostname);
}

export async function inspectDocs(options: InspectOptions): Promise<Inspection> {
  const timeout = options.timeoutMs ?? 20_000;
  const server = await serveFile(options.htmlFile);
  const browser =
    options.browser ??
    (await launchChromium().catch(async (error: unknown) => {
      await server.close();
      throw error;
    }));
  let page: Page | undefined;
  const result: Inspection = {
    url: `${server.origin}/index.html`,
    guides: [],
    layout: [],
    serverChoices: [],
    requests: [],
    external: [],
    consoleErrors: [],
    sections: new Map(),
  };
  try {
    // Listeners and routes belong to this tab, so a shared browser's other inspections do not mix in.
    page = options.browser
      ? await browser.context.newPage()
      : (browser.context.pages()[0] ?? (await browser.context.newPage()));
    page.on("request", (request) => {
      result.requests.push(request.url());
      if (!isLocal(request.url())) result.external.push(request.url());
    });
    // Non-local requests are aborted so a leak fails the test instead of hanging it.
    await page.route(
      (url) => !isLocal(url.href),
      (route) => route.abort("blockedbyclient"),
    );
    page.on("console", (message) => {
      if (message.type() === "error") result.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => result.consoleErrors.push(`page error: ${error.message}`));
    await page.goto(result.url, { waitUntil: "load" });
    for (const width of options.guideWidths ?? []) {
      const shot = (options.guidesScreenshot ?? path.join(os.tmpdir(), "guides-{width}.png")).replace(
        "{width}",
        String(width),
      );
      result.guides.push(await checkGuides(page, width, shot, timeout));
      result.layout.push(await checkLayout(page, width, options, timeout));
    }
    const firstSample = options.sampleSections?.[0];
    if (firstSample) result.serverChoices = await serverChoices(page, firstSample, timeout);
    if (options.guideWidths?.length) await page.setViewportSize({ width: 1280, height: 900 });
    for (const section of options.sections)
      result.sections.set(section.heading, await showSection(page, section, timeout));
    const first = options.sections[0];
    if (first) await showSection(page, first, timeout);
    await fullPageScreenshot(page, options.screenshot);
    return result;
  } finally {
    if (options.browser) await page?.close().catch(() => undefined);
    else await browser.close();
    await server.close();
  }
}

/**
 * Redoc renders sections only near the viewport, so the viewport grows to the page height (bounded)
 * before the full-page capture; otherwise everything below the fold is blank.
 */
async function fullPageScreenshot(page: Page, file: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  let height = 0;
  for (let round = 0; round < 5; round += 1) {
    const next = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), MAX_SCREENSHOT_HEIGHT);
    if (next === height) break;
    height = next;
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(250);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
}

const MAX_SCREENSHOT_HEIGHT = 30_000;
/** Guide sections: Redoc renders each `##` heading of info.description as a section with this id prefix. */
const GUIDE_SECTIONS = '[data-section-id^="/section/"]';

/**
 * At one viewport width: every table and code block of the guides must fit its column, i.e. neither scroll
 * horizontally (scrollWidth > clientWidth) nor stick out of its guide section. Then screenshots the guides.
 */
async function checkGuides(page: Page, width: number, screenshot: string, timeout: number): Promise<GuideCheck> {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForSelector(GUIDE_SECTIONS, { timeout }).catch(() => undefined);
  await page.waitForTimeout(200);
  const measured = (await page.evaluate(measureGuides, GUIDE_SECTIONS)) as {
    blocks: number;
    overflowing: string[];
    bottom: number;
  };
  const height = Math.min(Math.max(900, Math.ceil(measured.bottom)), MAX_SCREENSHOT_HEIGHT);
  await page.setViewportSize({ width, height });
  await page.screenshot({ path: screenshot, clip: { x: 0, y: 0, width, height } });
  return {
    width,
    blocks: measured.blocks,
    overflowing: measured.overflowing.map((block) => ({ width, block })),
    screenshot,
  };
}

/** Runs in the page (plain JavaScript source, see stepTowardsSection). */
const measureGuides = new Function(
  "selector",
  `
  const sections = [...document.querySelectorAll(selector)];
  const overflowing = [];
  let blocks = 0;
  let bottom = 0;
  for (const section of sections) {
    const column = section.getBoundingClientRect();
    bottom = Math.max(bottom, column.bottom + window.scrollY);
    for (const block of section.querySelectorAll("table, pre")) {
      blocks += 1;
      const box = block.getBoundingClientRect();
      const scroller = block.tagName === "TABLE" && block.parentElement ? block.parentElement : block;
      const scrolls = scroller.scrollWidth > scroller.clientWidth + 1 || block.scrollWidth > block.clientWidth + 1;
      if (scrolls || box.right > column.right + 1) {
        overflowing.push(section.getAttribute("data-section-id") + " " + block.tagName.toLowerCase() +
          " (scrollWidth " + scroller.scrollWidth + ", clientWidth " + scroller.clientWidth + ", column " + Math.round(column.width) + ")");
      }
    }
  }
  return { blocks, overflowing, bottom };
  `,
) as (selector: string) => { blocks: number; overflowing: string[]; bottom: number };

/**
 * At one viewport width: the title's line count, the top section's text, words the guides' tables break
 * mid-word, and, for each sample section and language, whether the right panel's code samples fit.
 */
async function checkLayout(page: Page, width: number, options: InspectOptions, timeout: number): Promise<LayoutCheck> {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForSelector('[data-section-id="/"] h1', { timeout }).catch(() => undefined);
  const top = (await page.evaluate(measureTop, GUIDE_SECTIONS)) as Omit<LayoutCheck, "width" | "samples">;
  const samples: SampleCheck[] = [];
  const languages = options.sampleLanguages?.length ? options.sampleLanguages : [undefined];
  for (const language of languages) {
    for (const section of options.sampleSections ?? []) {
      const selector = `[data-section-id="${section}"] .panel-request-samples pre`;
      await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
      await page.waitForSelector(selector, { timeout }).catch(() => undefined);
      if (language) await chooseLanguage(page, section, language, timeout);
      await page.waitForTimeout(150);
      const measured = (await page.evaluate(measureSamples, section)) as Omit<
        SampleCheck,
        "width" | "section" | "language"
      >;
      samples.push({ width, section, language: language ?? "default", ...measured });
    }
  }
  await page.evaluate(() => {
    window.location.hash = "";
    window.scrollTo(0, 0);
  });
  return { width, ...top, samples };
}

/** Picks a sample language in a section's request panel (Redoc keeps the choice for every operation). */
async function chooseLanguage(page: Page, section: string, language: string, timeout: number): Promise<void> {
  const panel = page.locator(`[data-section-id="${section}"] .panel-request-samples`);
  const current =
    (await panel
      .locator("pre")
      .first()
      .textContent({ timeout })
      .catch(() => "")) ?? "";
  const toggle = panel.locator("button", { hasText: /^(curl|Typed client|Payload)$/ }).first();
  if ((await toggle.textContent({ timeout }).catch(() => ""))?.trim() === language) return;
  await toggle.click({ timeout });
  await page.getByRole("menuitem", { name: language, exact: true }).first().click({ timeout });
  await page.waitForFunction(
    ({ section, before }) =>
      document.querySelector(`[data-section-id="${section}"] .panel-request-samples pre`)?.textContent !== before,
    { section, before: current },
    { timeout },
  );
}

/** The server selector's entries for an operation (Redoc lists every server with the operation's full URL). */
async function serverChoices(page: Page, section: string, timeout: number): Promise<string[]> {
  await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
  const panel = page.locator(`[data-section-id="${section}"] .panel-request-samples`);
  try {
    await panel.locator("button").first().click({ timeout });
    // Redoc keeps other operations' closed menus in the page: only the open one is visible.
    const items = page.locator('[role="menuitem"]:visible', { hasText: "://" });
    await items.first().waitFor({ timeout });
    const texts = await items.allInnerTexts();
    await page.keyboard.press("Escape");
    return texts.map((text) => text.replace(/\s+/g, " ").trim());
  } catch (error) {
    console.warn(`server selector of ${section}: ${String(error)}`);
    return [];
  }
}

/** Runs in the page (plain JavaScript source, see stepTowardsSection). */
const measureTop = new Function(
  "guides",
  `
  const info = document.querySelector('[data-section-id="/"]');
  const title = info?.querySelector("h1");
  const lines = (element) => {
    if (!element) return 0;
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };
  // A line break between two letters or digits inside a table cell of the guides is a word cut in two.
  const brokenWords = [];
  for (const cell of document.querySelectorAll(guides + " td, " + guides + " th")) {
    const chars = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        chars.push({ char: node.data[i], top: rect ? rect.top : null, height: rect ? rect.height : 0 });
      }
    }
    for (let i = 1; i < chars.length; i += 1) {
      const a = chars[i - 1], b = chars[i];
      if (a.top === null || b.top === null || !/[A-Za-z0-9]/.test(a.char) || !/[A-Za-z0-9]/.test(b.char)) continue;
      if (b.top - a.top > Math.max(a.height, 1) / 2) {
        const text = chars.map((c) => c.char).join("");
        const start = text.slice(0, i).search(/[^\\s]*$/);
        const end = i + text.slice(i).search(/\\s|$/);
        brokenWords.push(text.slice(start, i) + "|" + text.slice(i, end));
      }
    }
  }
  const servers = document.querySelector('[data-testid="panel-servers"]');
  return { titleLines: lines(title), infoText: info ? info.innerText : "", serversText: servers ? servers.innerText : "", brokenWords };
  `,
) as (guides: string) => Omit<LayoutCheck, "width" | "samples">;

/**
 * Runs in the page: every request and response sample block of one operation section must neither scroll
 * sideways nor stick out of its panel, and its copy button must not cover its text.
 */
const measureSamples = new Function(
  "section",
  `
  const root = document.querySelector('[data-section-id="' + section + '"]');
  const overflowing = [];
  const copyOverlaps = [];
  let blocks = 0;
  const pres = root ? [...root.querySelectorAll(".panel-request-samples pre, .panel-response-samples pre")] : [];
  for (const pre of pres) {
    if (pre.getClientRects().length === 0) continue;
    blocks += 1;
    const panel = pre.closest(".panel-request-samples, .panel-response-samples");
    const name = section + " " + (panel.classList.contains("panel-request-samples") ? "request" : "response") + " sample";
    const box = pre.getBoundingClientRect();
    const column = panel.getBoundingClientRect();
    let scroller = null;
    for (let element = pre; element && element !== panel.parentElement; element = element.parentElement) {
      if (element.scrollWidth > element.clientWidth + 1) { scroller = element; break; }
    }
    if (scroller || box.right > column.right + 1) {
      overflowing.push(name + " (scrollWidth " + (scroller ?? pre).scrollWidth + ", clientWidth " +
        (scroller ?? pre).clientWidth + ", panel " + Math.round(column.width) + ")");
    }
    const button = pre.closest('[data-component-name="CodeBlock/CodeBlock"]')?.querySelector('[data-testid="copy-button"]');
    if (button && button.getClientRects().length > 0) {
      const b = button.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(pre);
      const covered = [...range.getClientRects()].some((r) =>
        r.width > 0 && r.left < b.right - 1 && r.right > b.left + 1 && r.top < b.bottom - 1 && r.bottom > b.top + 1);
      if (covered) copyOverlaps.push(name);
    }
  }
  const request = root?.querySelector(".panel-request-samples pre");
  return { blocks, overflowing, copyOverlaps, requestText: request ? request.textContent.slice(0, 80) : "" };
  `,
) as (section: string) => Omit<SampleCheck, "width" | "section" | "language">;

/**
 * Expands a tag section and brings each of its operations into view, recording each operation's
 * rendered heading and text. Returns null when the section or an operation never rendered in time.
 */
async function showSection(page: Page, section: Section, timeout: number): Promise<RenderedOperation[] | null> {
  try {
    const handle = await page.waitForFunction(stepTowardsSection, section, { polling: 60, timeout });
    return (await handle.jsonValue()) as RenderedOperation[];
  } catch {
    return null;
  }
}

/**
 * Runs in the page, one step per poll: find the tag section (scrolling down, sections render lazily),
 * expand it, scroll each operation section into view and record it once rendered (Redoc may unmount
 * sections far from the viewport again). Resolves to the recorded operations when none is pending.
 * Kept as plain JavaScript source because the TypeScript loaders add helpers (`__name`) to compiled
 * functions that do not exist in the page.
 */
const stepTowardsSection = new Function(
  "section",
  `
  const seen = (window.__docsSeen ??= {});
  const sections = [...document.querySelectorAll("[data-section-id]")];
  const headingOf = (element) => element.querySelector("h1, h2")?.textContent?.trim();
  const tag = sections.find((element) => headingOf(element) === section.heading);
  if (!tag) {
    const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    window.scrollTo(0, atBottom ? 0 : window.scrollY + window.innerHeight * 0.8);
    return false;
  }
  const show = [...tag.querySelectorAll("button")].find((button) => button.textContent?.trim() === "+ Show");
  if (show) {
    show.click();
    return false;
  }
  const prefix = (tag.getAttribute("data-section-id") ?? "") + "/";
  const operations = sections.filter((element) => (element.getAttribute("data-section-id") ?? "").startsWith(prefix));
  for (const element of operations) {
    const id = element.getAttribute("data-section-id");
    const heading = seen[id] ? undefined : headingOf(element);
    const text = heading ? element.innerText : "";
    if (heading && text.includes(heading)) seen[id] = { heading, text };
  }
  const pending = operations.find((element) => !seen[element.getAttribute("data-section-id")]);
  if (pending) {
    pending.scrollIntoView();
    return false;
  }
  return operations.length > 0 ? operations.map((element) => seen[element.getAttribute("data-section-id")]) : false;
  `,
) as (section: Section) => RenderedOperation[] | false;
