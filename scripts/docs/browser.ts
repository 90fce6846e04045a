/**
 * Opens the built reference in Chromium (playwright-core, headless, fresh profile; see resolveChromium), serves it
 * from 127.0.0.1, records every request (aborting any that leaves the machine), records console errors,
 * measures the guides (the info description's sections) at given widths, expands each tag section and
 * brings each operation into view (Redoc 3 renders operations lazily), and saves screenshots.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { servePage } from "./http.js";

/** Flags for every launch: no background traffic, no first-run work, no sandbox (containers, CI). */
/**
 * The package's defaults (made for serverless screenshots) that turn the web's security model off: the same-origin
 * policy and CORS, and mixed-content blocking. The pages are tested as a reader's browser runs them, so these are
 * left out: a page that worked only without them would pass here and fail for the reader.
 */
export const WEB_SECURITY_OFF = ["--disable-web-security", "--allow-running-insecure-content"];
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The browser to launch: `CHROMIUM_PATH` when set (e.g. a CI runner's preinstalled Chrome), otherwise the
 * Chromium inside the `@sparticuz/chromium` devDependency, so no system browser and no download outside the npm
 * registry is involved. The package unpacks into the temp folder and takes any `chromium` already there as
 * complete; here it unpacks into a scratch folder that becomes the folder of its version only once complete (a
 * rename), so test files starting in parallel never launch a half-written binary or another version's.
 */
export async function resolveChromium(env: NodeJS.ProcessEnv = process.env) {
  assertChromium(env);
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, args: CHROMIUM_ARGS, source: "CHROMIUM_PATH" };
  const { default: packaged } = await import("@sparticuz/chromium");
  const manifest = fileURLToPath(new URL("../package.json", import.meta.resolve("@sparticuz/chromium")));
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  const dir = path.join(os.tmpdir(), `talent-graph-chromium-${version}`);
  const ready = path.join(dir, ".unpacked");
  if (!existsSync(ready)) {
    const scratch = await mkdtemp(`${dir}-`);
    // The package reads TMPDIR (os.tmpdir()) before its first await, so the change lasts for that part only.
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    const unpacked = packaged.executablePath();
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
    await unpacked;
    await writeFile(path.join(scratch, ".unpacked"), version);
    // A folder without `.unpacked` was left by a process that died while unpacking.
    if (!existsSync(ready)) await rm(dir, { recursive: true, force: true });
    // Renaming fails when another process's folder got there first: that one is complete too.
    await rename(scratch, dir).catch(async (error: unknown) => {
      await rm(scratch, { recursive: true, force: true });
      if (!existsSync(ready)) throw error;
    });
  }
  return {
    path: path.join(dir, "chromium"),
    args: [...new Set([...packaged.args.filter((arg) => !WEB_SECURITY_OFF.includes(arg)), ...CHROMIUM_ARGS])],
    source: "@sparticuz/chromium",
  };
}

/** Fails early, naming the variable, when `CHROMIUM_PATH` is set to a file that does not exist. */
export function assertChromium(env: NodeJS.ProcessEnv = process.env): void {
  const configured = env.CHROMIUM_PATH;
  if (configured && !existsSync(configured))
    throw new Error(`CHROMIUM_PATH names ${configured}, which does not exist. Unset it to use the packaged Chromium.`);
}

export interface LaunchedChromium {
  context: BrowserContext;
  close: () => Promise<void>;
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
    // Actions and waits wait for their state with no limit of Playwright's own (30 s by default, a wall-clock
    // budget a busy machine exceeds): the caller's limit, the test suite's hang budget, catches a hang.
    context.setDefaultTimeout(0);
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

/** An operation as rendered: its heading (the summary) and the section's visible text. */
interface RenderedOperation {
  heading: string;
  text: string;
}

export interface InspectOptions {
  htmlFile: string;
  /** The tag sections to open, by the heading the page shows (x-displayName or name). */
  sections: { heading: string }[];
  screenshot: string;
  /** Viewport widths at which the guides, the page's top and the samples are measured. */
  guideWidths: number[];
  /** Screenshot of the guides per width: `{width}` in the name is replaced by the width. */
  guidesScreenshot: string;
  /** Operation section ids (`/people/searchpeople`) whose right-panel samples are measured at each width. */
  sampleSections: string[];
  /** Sample languages (their labels in the page) to measure each sample section in; none: as shown. */
  sampleLanguages?: string[];
  /** The browser (launchChromium) to open the page in: a tab of its own, closed afterwards. */
  browser: LaunchedChromium;
}

export type Inspection = Awaited<ReturnType<typeof inspectDocs>>;

export async function inspectDocs(options: InspectOptions) {
  const body = await readFile(options.htmlFile);
  const server = await servePage(0, () => ({ status: 200, body }));
  const url = `${server.origin}/index.html`;
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  // Listeners and routes belong to this tab, so other inspections in the same browser do not mix in.
  const page = await options.browser.context.newPage();
  try {
    page.on("request", (request) => requests.push(request.url()));
    // Non-local requests are aborted so a leak fails the test instead of hanging it.
    await page.route(
      (url) => !isLocal(url.href),
      (route) => route.abort("blockedbyclient"),
    );
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(`page error: ${error.message}`));
    await page.goto(url, { waitUntil: "load" });
    const guides = [];
    const layout = [];
    for (const width of options.guideWidths) {
      const checked = await checkWidth(page, width, options);
      guides.push(checked.guide);
      layout.push({ ...checked.layout, samples: [] as SampleMeasure[] });
    }
    for (const sample of await measureSampleSections(page, options))
      layout.find((l) => l.width === sample.width)?.samples.push(sample);
    const firstSample = options.sampleSections[0];
    const { choices: serverChoices, problem: serverChoicesProblem } = firstSample
      ? await listServerChoices(page, firstSample)
      : { choices: [], problem: "no sample section given" };
    await page.setViewportSize({ width: 1280, height: 900 });
    /** Tag heading -> its operations as rendered, in page order; null when the page has no such section. */
    const sections = new Map<string, RenderedOperation[] | null>(
      options.sections.map(({ heading }) => [heading, null]),
    );
    // Redoc keeps one tag section open at a time: the last one walked is the first, open in the screenshot.
    for (const { heading } of [...options.sections].reverse()) sections.set(heading, await showSection(page, heading));
    await fullPageScreenshot(page, options.screenshot);
    const external = requests.filter((request) => !isLocal(request));
    return { url, guides, layout, serverChoices, serverChoicesProblem, requests, external, consoleErrors, sections };
  } finally {
    await page.close().catch(() => undefined);
    await server.close();
  }
}

/**
 * Redoc renders sections only near the viewport, so the viewport grows to the page height (bounded)
 * before the capture; otherwise everything below the fold is blank.
 */
async function fullPageScreenshot(page: Page, file: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  let height = 0;
  for (let round = 0; round < 5; round += 1) {
    const next = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), MAX_SCREENSHOT_HEIGHT);
    if (next === height) break;
    height = next;
    await page.setViewportSize({ width, height });
    await layoutSettled(page, "[data-section-id]");
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await viewportPng(page, file);
}

/**
 * A PNG of the viewport, which the callers size to what they capture. Chromium encodes it for speed (CDP's
 * `optimizeForSpeed`): a larger file than Playwright's screenshot, for half its CPU on a page 25,000 px tall.
 */
async function viewportPng(page: Page, file: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { data } = await cdp.send("Page.captureScreenshot", { format: "png", optimizeForSpeed: true });
    await writeFile(file, Buffer.from(data, "base64"));
  } finally {
    await cdp.detach();
  }
}

/**
 * Waits for the layout to settle after a viewport change, a navigation or a click (Redoc re-renders and re-lays
 * out in the frames that follow, CSS transitions run): the page's height and the boxes of `selector`'s elements
 * unchanged, and no finite animation running, over two animation frames in a row (a looping one, a spinner, never
 * ends and is not waited for). A state, not a time: on a busy machine the frames come later and so does the measure.
 */
export async function layoutSettled(page: Page, selector: string): Promise<void> {
  await page.evaluate(async (selector) => {
    const boxes = () =>
      JSON.stringify([
        document.documentElement.scrollHeight,
        ...[...document.querySelectorAll(selector)].map((e) => {
          const { x, y, width, height } = e.getBoundingClientRect();
          return [x, y, width, height];
        }),
      ]);
    const running = () =>
      document.getAnimations().some((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity);
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await document.fonts.ready;
    let last = boxes();
    for (let unchanged = 0; unchanged < 2;) {
      await frame();
      const now = boxes();
      unchanged = now === last && !running() ? unchanged + 1 : 0;
      last = now;
    }
  }, selector);
}

const MAX_SCREENSHOT_HEIGHT = 30_000;
/** Guide sections: Redoc renders each `##` heading of info.description as a section with this id prefix. */
const GUIDE_SECTIONS = '[data-section-id^="/section/"]';

/**
 * At one viewport width: every table and code block of the guides must fit its column, i.e. neither scroll
 * horizontally (scrollWidth > clientWidth) nor stick out of its guide section, and a screenshot of the guides;
 * and the title's line count, the top section's text and words the guides' tables break mid-word. The viewport
 * is left at the width, 900 px tall.
 */
async function checkWidth(page: Page, width: number, options: InspectOptions) {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForSelector(GUIDE_SECTIONS);
  await layoutSettled(page, GUIDE_SECTIONS);
  const top = await page.evaluate(measureTop, GUIDE_SECTIONS);
  const { blocks, overflowing, bottom } = await page.evaluate(measureGuides, GUIDE_SECTIONS);
  const height = Math.min(Math.max(900, Math.ceil(bottom)), MAX_SCREENSHOT_HEIGHT);
  const screenshot = options.guidesScreenshot.replace("{width}", String(width));
  await page.setViewportSize({ width, height });
  await viewportPng(page, screenshot);
  await page.setViewportSize({ width, height: 900 });
  const guide = { width, blocks, overflowing: overflowing.map((block) => ({ width, block })), screenshot };
  return { guide, layout: { width, ...top } };
}

/** One sample section's measure at one width, in one language ("default": as the page shows it). */
type SampleMeasure = { width: number; section: string; language: string } & ReturnType<typeof measureSamples>;

/**
 * Every sample section in every language at every width. Each section is navigated to once: there it is measured
 * in one language at each width, then in the next language at each width back, each order continuing from the
 * width and the language the previous measure left (Redoc keeps the language for every operation), so that a
 * viewport change or a language pick comes between two measures, and never both. The first section comes last:
 * the server choices are read there next.
 */
async function measureSampleSections(page: Page, options: InspectOptions): Promise<SampleMeasure[]> {
  const samples: SampleMeasure[] = [];
  let widths = options.guideWidths;
  let languages: (string | undefined)[] = options.sampleLanguages?.length ? options.sampleLanguages : [undefined];
  for (const section of [...options.sampleSections].reverse()) {
    await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
    const selector = `[data-section-id="${section}"] .panel-request-samples pre`;
    await page.waitForSelector(selector);
    for (const language of languages) {
      if (language) await chooseLanguage(page, section, language);
      for (const width of widths) {
        if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: 900 });
        await layoutSettled(page, selector);
        const measured = await page.evaluate(measureSamples, section);
        samples.push({ width, section, language: language ?? "default", ...measured });
      }
      widths = [...widths].reverse();
    }
    languages = [...languages].reverse();
  }
  return samples;
}

/** Runs in the page: the guides' tables and code blocks, those that do not fit, and where the guides end. */
function measureGuides(selector: string) {
  const overflowing: string[] = [];
  let blocks = 0;
  let bottom = 0;
  for (const section of document.querySelectorAll(selector)) {
    const column = section.getBoundingClientRect();
    bottom = Math.max(bottom, column.bottom + window.scrollY);
    for (const block of section.querySelectorAll("table, pre")) {
      blocks += 1;
      const scroller = block.tagName === "TABLE" && block.parentElement ? block.parentElement : block;
      const scrolls = scroller.scrollWidth > scroller.clientWidth + 1 || block.scrollWidth > block.clientWidth + 1;
      if (scrolls || block.getBoundingClientRect().right > column.right + 1)
        overflowing.push(
          `${section.getAttribute("data-section-id")} ${block.tagName.toLowerCase()} (scrollWidth ` +
            `${scroller.scrollWidth}, clientWidth ${scroller.clientWidth}, column ${Math.round(column.width)})`,
        );
    }
  }
  return { blocks, overflowing, bottom };
}

/** Picks a sample language in a section's request panel (Redoc keeps the choice for every operation). */
async function chooseLanguage(page: Page, section: string, language: string): Promise<void> {
  const panel = page.locator(`[data-section-id="${section}"] .panel-request-samples`);
  const before =
    (await panel
      .locator("pre")
      .first()
      .textContent()
      .catch(() => "")) ?? "";
  const toggle = panel.locator("button", { hasText: /^(curl|Typed client|Payload)$/ }).first();
  if ((await toggle.textContent().catch(() => ""))?.trim() === language) return;
  await toggle.click();
  await page.getByRole("menuitem", { name: language, exact: true }).first().click();
  await page.waitForFunction(
    ({ section, before }) =>
      document.querySelector(`[data-section-id="${section}"] .panel-request-samples pre`)?.textContent !== before,
    { section, before },
  );
}

/**
 * The server selector's entries for an operation (Redoc lists every server with the operation's full URL), or
 * none with the reason (the caller decides whether that is a failure: a test of a broken page expects it). The
 * selector is the first menu button of the request panel, rendered with the panel's samples: a panel whose
 * samples show without one has none, known at once instead of after a wait.
 */
async function listServerChoices(page: Page, section: string): Promise<{ choices: string[]; problem?: string }> {
  await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
  const panel = page.locator(`[data-section-id="${section}"] .panel-request-samples`);
  try {
    await panel.locator("pre").first().waitFor();
    const selector = panel.locator('button[aria-haspopup="menu"]').first();
    if ((await selector.count()) === 0)
      return { choices: [], problem: `server selector of ${section}: the request panel has no menu button` };
    await selector.click();
    // Redoc keeps other operations' closed menus in the page: only the open one is visible.
    await page.locator('[role="menuitem"]:visible').first().waitFor();
    const texts = await page.locator('[role="menuitem"]:visible', { hasText: "://" }).allInnerTexts();
    await page.keyboard.press("Escape");
    return { choices: texts.map((text) => text.replace(/\s+/g, " ").trim()) };
  } catch (error) {
    return { choices: [], problem: `server selector of ${section}: ${String(error)}` };
  }
}

/** Runs in the page: the title's lines, the top's text, the Servers panel's text and words cut in two. */
function measureTop(guides: string) {
  const info = document.querySelector<HTMLElement>('[data-section-id="/"]');
  const title = info?.querySelector("h1");
  const range = document.createRange();
  if (title) range.selectNodeContents(title);
  const lineTops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
  // A line break between two letters or digits inside a table cell of the guides is a word cut in two.
  const brokenWords: string[] = [];
  for (const cell of document.querySelectorAll(`${guides} td, ${guides} th`)) {
    const chars: { char: string; top: number | null; height: number }[] = [];
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let i = 0; i < node.data.length; i += 1) {
        const char = document.createRange();
        char.setStart(node, i);
        char.setEnd(node, i + 1);
        const rect = char.getClientRects()[0];
        chars.push({ char: node.data[i]!, top: rect ? rect.top : null, height: rect ? rect.height : 0 });
      }
    }
    for (let i = 1; i < chars.length; i += 1) {
      const a = chars[i - 1]!;
      const b = chars[i]!;
      if (a.top === null || b.top === null || !/[A-Za-z0-9]/.test(a.char) || !/[A-Za-z0-9]/.test(b.char)) continue;
      if (b.top - a.top > Math.max(a.height, 1) / 2) {
        const text = chars.map((c) => c.char).join("");
        const start = text.slice(0, i).search(/[^\s]*$/);
        const end = i + text.slice(i).search(/\s|$/);
        brokenWords.push(`${text.slice(start, i)}|${text.slice(i, end)}`);
      }
    }
  }
  const servers = document.querySelector<HTMLElement>('[data-testid="panel-servers"]');
  return {
    titleLines: title ? new Set(lineTops).size : 0,
    infoText: info?.innerText ?? "",
    serversText: servers?.innerText ?? "",
    brokenWords,
  };
}

/**
 * Runs in the page: every request and response sample block of one operation section must neither scroll
 * sideways nor stick out of its panel, and its copy button must not cover its text; and the width measured at.
 */
function measureSamples(section: string) {
  const root = document.querySelector(`[data-section-id="${section}"]`);
  const overflowing: string[] = [];
  const copyOverlaps: string[] = [];
  let blocks = 0;
  for (const pre of root?.querySelectorAll(".panel-request-samples pre, .panel-response-samples pre") ?? []) {
    if (pre.getClientRects().length === 0) continue;
    blocks += 1;
    const panel = pre.closest(".panel-request-samples, .panel-response-samples")!;
    const name = `${section} ${panel.classList.contains("panel-request-samples") ? "request" : "response"} sample`;
    const column = panel.getBoundingClientRect();
    let scroller: Element | null = null;
    for (
      let element: Element | null = pre;
      element && element !== panel.parentElement;
      element = element.parentElement
    ) {
      if (element.scrollWidth > element.clientWidth + 1) {
        scroller = element;
        break;
      }
    }
    if (scroller || pre.getBoundingClientRect().right > column.right + 1) {
      const measured = scroller ?? pre;
      overflowing.push(
        `${name} (scrollWidth ${measured.scrollWidth}, clientWidth ${measured.clientWidth}, ` +
          `panel ${Math.round(column.width)})`,
      );
    }
    const button = pre
      .closest('[data-component-name="CodeBlock/CodeBlock"]')
      ?.querySelector('[data-testid="copy-button"]');
    if (button && button.getClientRects().length > 0) {
      const b = button.getBoundingClientRect();
      const text = document.createRange();
      text.selectNodeContents(pre);
      const covered = [...text.getClientRects()].some(
        (r) =>
          r.width > 0 && r.left < b.right - 1 && r.right > b.left + 1 && r.top < b.bottom - 1 && r.bottom > b.top + 1,
      );
      if (covered) copyOverlaps.push(name);
    }
  }
  const request = root?.querySelector(".panel-request-samples pre");
  const requestText = request?.textContent?.slice(0, 80) ?? "";
  return { blocks, overflowing, copyOverlaps, requestText, viewportWidth: window.innerWidth };
}

/**
 * Expands a tag section and brings each of its operations into view, recording each operation's
 * rendered heading and text. Returns null when the page has no such section (stepTowardsSection).
 */
async function showSection(page: Page, heading: string): Promise<RenderedOperation[] | null> {
  const handle = await page.waitForFunction(stepTowardsSection, heading, { polling: 60 });
  const found = (await handle.jsonValue()) as RenderedOperation[] | "missing";
  return found === "missing" ? null : found;
}

/**
 * Runs in the page, one step per poll: find the tag section (scrolling down, sections render lazily),
 * expand it, scroll each operation section into view and record it once rendered (Redoc may unmount
 * sections far from the viewport again). Resolves to the recorded operations when none is pending, or to
 * "missing" when the page has no such section.
 */
function stepTowardsSection(heading: string): RenderedOperation[] | "missing" | false {
  const page = window as unknown as { __docsSeen?: Record<string, RenderedOperation> };
  const seen = (page.__docsSeen ??= {});
  const sections = [...document.querySelectorAll<HTMLElement>("[data-section-id]")];
  const headingOf = (element: Element) => element.querySelector("h1, h2")?.textContent?.trim();
  const tag = sections.find((element) => headingOf(element) === heading);
  if (!tag) {
    // Redoc's markup comes with the page (it hydrates it): every tag is in the navigation from the start, and a
    // heading that is neither a section's nor in the navigation never renders. A page without sections is loading.
    const listed = document.querySelector(".menu-content")?.textContent?.includes(heading) ?? false;
    if (sections.length > 0 && !listed) return "missing";
    const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    window.scrollTo(0, atBottom ? 0 : window.scrollY + window.innerHeight * 0.8);
    return false;
  }
  const show = [...tag.querySelectorAll("button")].find((button) => button.textContent?.trim() === "+ Show");
  if (show) {
    show.click();
    return false;
  }
  const idOf = (element: Element) => element.getAttribute("data-section-id") ?? "";
  const operations = sections.filter((element) => idOf(element).startsWith(`${idOf(tag)}/`));
  for (const element of operations) {
    const title = seen[idOf(element)] ? undefined : headingOf(element);
    const text = title ? element.innerText : "";
    if (title && text.includes(title)) seen[idOf(element)] = { heading: title, text };
  }
  const pending = operations.find((element) => !seen[idOf(element)]);
  if (pending) {
    pending.scrollIntoView();
    return false;
  }
  return operations.length > 0 ? operations.map((element) => seen[idOf(element)]!) : false;
}
