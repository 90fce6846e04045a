/**
 * Browser test of "Try it" in the built reference: the packaged Chromium opens dist/docs/index.html (from
 * 127.0.0.1, and as a file) with every non-local request aborted and recorded. Every operation's prefilled
 * example, sent to the in-page sandbox, gets a documented status whose body validates against the spec; a
 * List created, filled and read back; a fault chosen in the page is the next answer; a reload keeps the List and
 * Reset removes it; one request by keyboard alone; axe-core with the panel open finds nothing the panel adds;
 * `window.talentGraphSandbox.fetch` answers /v1/me; a live server gets the typed key and nothing else does; a
 * screenshot of the panel after a 400 is saved; and 20 requests answer byte for byte as the Node sandbox does.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContractValidator } from "../../../contract-core/index.js";
import { KEYS } from "../../../mocks/sandbox/contract/auth.js";
import { assertChromium, isLocal, launchChromium, layoutSettled, type LaunchedChromium } from "../browser.js";
import { DEFAULT_OUT, DEFAULT_SPEC, readBundle } from "../build.js";
import { ensureBuilt, sectionId } from "../built-page.js";
import { servePage, type PageServer } from "../http.js";
import { requestUrl, sampleRequest } from "../code-samples.js";
import type { SandboxOptions } from "../../../mocks/sandbox/contract/options.js";
import { startSandbox, type RunningSandbox } from "../../../mocks/sandbox/hosts/node/server.js";
import { listOperations, type OpenApiDoc, type OperationRef } from "../openapi.js";
import { PRESETS } from "./page-sandbox.js";

export const SCREENSHOT_400 = path.join(path.dirname(DEFAULT_OUT), "try-it-400.png");
const ACME = KEYS.find((k) => k.description.startsWith("Acme"))!.key;
const INITECH = KEYS.find((k) => k.description.startsWith("Initech"))!.key;
const GLOBEX = KEYS.find((k) => k.description.startsWith("Globex"))!.key;

const CLOCK = "2026-11-20T09:30:00.000Z";
const NEIGHBOUR = "/another-project/index.html";

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

let browser: LaunchedChromium;
let server: PageServer;
let doc: OpenApiDoc;
let operations: OperationRef[];
const external: string[] = [];
const consoleErrors: string[] = [];

/** A tab on the page with non-local requests aborted (and recorded) and console errors recorded. */
async function openPage(url: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.route(
    (u) => u.protocol !== "file:" && !isLocal(u.href),
    (route) => {
      external.push(route.request().url());
      return route.abort("blockedbyclient");
    },
  );
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(`page error: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  return page;
}

const op = (id: string) => operations.find((o) => o.operation.operationId === id)!;
const section = (o: OperationRef) =>
  sectionId(String((o.operation.tags as string[])[0]), String(o.operation.operationId));

/**
 * Opens the operation's panel ("Try it"). `byButton` true: its section (the hash takes Redoc there) and its
 * button; false: the panel alone, through the page's try-it API (what the button calls), without Redoc scrolling
 * to and rendering the section (a hash navigation re-renders the page: most of what a step costs). Not given: the
 * panel alone once the page has loaded its try-it code, else the button (which loads it), for the steps that
 * prove the panel and not the button (every operation's button is clicked in the test that sends every one).
 */
async function tryIt(page: Page, id: string, byButton?: boolean): Promise<void> {
  const s = section(op(id));
  if (byButton ?? (await page.evaluate(() => window.__talentGraphTryIt === undefined))) {
    await page.evaluate((hash) => (window.location.hash = hash), `#${s}`);
    const button = page.locator(`[data-section-id="${s}"] button.try-it-open`);
    await button.click({ timeout: 0 });
  } else await page.evaluate((id) => window.__talentGraphTryIt!.open(id, document.body), id);
  await page.locator("#try-it-panel").waitFor({ state: "visible", timeout: 0 });
  await expect.poll(() => page.locator("#try-it-title").textContent()).toContain(String(op(id).operation.summary));
}

interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string };
}

/** "Send", then the exchange once the status is announced. */
async function send(page: Page): Promise<Exchange> {
  await page.evaluate(() => {
    window.__talentGraphTryIt!.lastExchange = null;
    document.querySelector("#try-it-status")!.textContent = "";
  });
  await page.locator("#try-it-panel").getByRole("button", { name: "Send", exact: true }).click();
  return answer(page);
}

/**
 * `tryIt` then "Send" in one round trip to the page, for the test that sends every operation (a browser round
 * trip per step is most of what each one costs): the section's "Try it" button (`byButton`: found in its section
 * once the hash took Redoc there, scrolled into view, and clicked where a pointer lands on it, nothing drawn
 * over it) or the try-it API opens the panel on the operation; "Send" once it shows the operation; the exchange
 * once the status is announced.
 */
async function trySend(page: Page, id: string, byButton: boolean): Promise<Exchange> {
  const { exchange, status } = await page.evaluate(
    async ({ id, s, summary, byButton }) => {
      const until = async <T>(found: () => T | null | undefined | false): Promise<T> => {
        for (let value = found(); ; value = found()) {
          if (value) return value;
          await new Promise((next) => requestAnimationFrame(next));
        }
      };
      if (byButton) {
        window.location.hash = `#${s}`;
        const button = await until(() =>
          document.querySelector<HTMLButtonElement>(`[data-section-id="${s}"] button.try-it-open`),
        );
        button.scrollIntoView({ block: "nearest" });
        await until(() => {
          const box = button.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return box.width > 0 && hit !== null && button.contains(hit);
        });
        button.click();
      } else window.__talentGraphTryIt!.open(id, document.body);
      const panel = document.querySelector<HTMLElement>("#try-it-panel")!;
      const title = document.querySelector("#try-it-title")!;
      await until(() => panel.checkVisibility() && title.textContent!.includes(summary));
      const line = document.querySelector("#try-it-status")!;
      window.__talentGraphTryIt!.lastExchange = null;
      line.textContent = "";
      [...panel.querySelectorAll("button")].find((b) => b.textContent === "Send")!.click();
      await until(() => /^\d{3}\b/.test(line.textContent ?? ""));
      // Set by the Send above (TypeScript still sees the null put there before it).
      return { exchange: window.__talentGraphTryIt!.lastExchange as Exchange | null, status: line.textContent };
    },
    { id, s: section(op(id)), summary: String(op(id).operation.summary), byButton },
  );
  expect(status).toMatch(new RegExp(`^${exchange!.response.status}\\b`));
  return exchange!;
}

/** The exchange once the status is announced (waited for in the page), with the status line naming its status. */
async function answer(page: Page): Promise<Exchange> {
  const { exchange, status } = await page.evaluate(async () => {
    const line = document.querySelector("#try-it-status")!;
    while (!/^\d{3}\b/.test(line.textContent ?? "")) await new Promise((next) => requestAnimationFrame(next));
    return { exchange: window.__talentGraphTryIt!.lastExchange, status: line.textContent };
  });
  expect(status).toMatch(new RegExp(`^${exchange!.response.status}\\b`));
  return exchange as Exchange;
}

async function setField(page: Page, id: string, value: string): Promise<void> {
  await page.locator(`#try-it-panel #${id}`).fill(value);
}

/**
 * Create List -> add a member -> read the List: the member is there. The first by its button where the page has
 * not loaded its try-it code yet (the flow runs it then), the others by the panel alone (every operation's button
 * is clicked in the test that sends every operation).
 */
async function listFlow(page: Page, name: string, member: string): Promise<void> {
  await tryIt(page, "createList");
  await setField(page, "try-it-request-body", JSON.stringify({ name }));
  const created = await send(page);
  expect(created.response.status).toBe(201);
  const id = (parse(created.response.body) as { data: { id: string } }).data.id;
  await tryIt(page, "addListMembers", false);
  await setField(page, "try-it-path-id", id);
  await setField(page, "try-it-request-body", JSON.stringify({ urls: [member] }));
  expect((await send(page)).response.status).toBeLessThan(300);
  await tryIt(page, "getList", false);
  await setField(page, "try-it-path-id", id);
  const read = await send(page);
  expect(read.response.status).toBe(200);
  expect(read.response.body).toContain(member);
}

const parse = (text: string) => (text ? (JSON.parse(text) as unknown) : null);

/** The answer validates against the spec, with a status the operation documents. */
function assertDocumented(o: OperationRef, exchange: Exchange): void {
  const statuses = Object.keys(o.operation.responses as object);
  const status = exchange.response.status;
  expect(
    statuses.includes(String(status)) || statuses.includes(`${String(status)[0]}XX`),
    `${String(o.operation.operationId)}: ${status} is not documented (${statuses.join(", ")})`,
  ).toBe(true);
  const result = createContractValidator(DEFAULT_SPEC).validateResponse({
    request: { method: exchange.request.method, url: exchange.request.url, headers: exchange.request.headers },
    response: { ...exchange.response, body: parse(exchange.response.body) },
  });
  expect(result.errors, `${String(o.operation.operationId)} ${status}`).toEqual([]);
}

beforeAll(async () => {
  assertChromium();
  await ensureBuilt();
  doc = await readBundle(DEFAULT_SPEC);
  operations = listOperations(doc);
  const body = await readFile(DEFAULT_OUT);
  // Another page of the same origin, at another path (a neighbouring project site on <owner>.github.io).
  server = await servePage(
    0,
    () => ({ status: 200, body }),
    (pathname, _req, res) => {
      if (pathname !== NEIGHBOUR) return false;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>Neighbour</title><p>another page of the same origin</p>");
      return true;
    },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("Try it, against the sandbox in the page", () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage(`${server.origin}/index.html`);
  });

  it("loads no try-it code and no sandbox with the page: only on the first Try it", async () => {
    const s = section(op("searchPeople"));
    await page.evaluate((hash) => (window.location.hash = hash), `#${s}`);
    await page.locator(`[data-section-id="${s}"] button.try-it-open`).waitFor({ timeout: 0 });
    expect(await page.evaluate(() => window.__talentGraphTryIt === undefined)).toBe(true);
    expect(await page.evaluate(() => typeof window.talentGraphSandbox?.fetch)).toBe("function");
  });

  it("every operation's prefilled request answers its documented success from each starting state", async () => {
    // Spec order, with the deletes last (what they delete the others read); retry after the clock moved (a retry
    // needs a finished job).
    const order = [
      ...operations.filter((o) => o.method !== "delete"),
      ...operations.filter((o) => o.method === "delete"),
    ];
    expect(order).toHaveLength(operations.length);
    const panel = page.locator("#try-it-panel");
    for (const preset of PRESETS) {
      // Each operation's own button from the first state; the panel alone from the others.
      const byButton = preset === PRESETS[0];
      await tryIt(page, "getAccount");
      await page.locator("#try-it-preset").selectOption(preset.name);
      await panel.getByRole("button", { name: "Start from it" }).click();
      await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("Started");
      const seen: string[] = [];
      for (const o of order) {
        const id = String(o.operation.operationId);
        if (id === "retryTarget") {
          await tryIt(page, "getAccount");
          await panel.getByRole("button", { name: "+1 hour" }).click();
          await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("moved 1 hour");
        }
        const exchange = await trySend(page, id, byButton);
        assertDocumented(o, exchange);
        const status = exchange.response.status;
        seen.push(`${id} ${status}`);
        const locked = preset.name === "locked" && id !== "getAccount";
        expect(
          locked ? status === 402 : status >= 200 && status < 300,
          `${preset.name}: ${id} ${status} ${exchange.response.body.slice(0, 300)}`,
        ).toBe(true);
      }
      console.log(`try-it from ${preset.name}: ${seen.join(", ")}`);
      expect(seen).toHaveLength(operations.length);
    }
    await panel.getByRole("button", { name: "Reset the sandbox" }).click();
  });

  it("is stateful: create a List, add a member, read it back; a reload keeps it, Reset removes it", async () => {
    await listFlow(page, "Try-it flow", "priya-raman");
    await page.reload({ waitUntil: "load" });
    await tryIt(page, "listLists");
    expect((await send(page)).response.body).toContain("Try-it flow");
    await page.locator("#try-it-panel").getByRole("button", { name: "Reset the sandbox" }).click();
    await expect.poll(() => page.locator("#try-it-panel .try-it-note").textContent()).toContain("Back to the seed");
    const after = await send(page);
    expect(after.response.status).toBe(200);
    expect(after.response.body).not.toContain("Try-it flow");
  });

  it("keeps a day of the job clock with 5 watching Targets across a reload, more than localStorage would hold", async () => {
    const warnings: string[] = [];
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === "warning") warnings.push(m.text());
    };
    page.on("console", onConsole);
    const panel = page.locator("#try-it-panel");
    try {
      await tryIt(page, "listTargets");
      await panel.getByRole("button", { name: "Reset the sandbox" }).click();
      await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("Back to the seed");
      const call = (method: string, url: string, body?: unknown) =>
        page.evaluate(
          async ({ method, url, body, key }) => {
            const res = await window.talentGraphSandbox!.fetch(url, {
              method,
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: body === undefined ? null : JSON.stringify(body),
            });
            return { status: res.status, body: await res.text() };
          },
          { method, url, body, key: ACME },
        );
      const companies = (JSON.parse((await call("GET", "/v1/companies")).body) as { data: { name: string }[] }).data;
      for (const c of companies.slice(0, 5))
        expect((await call("POST", "/v1/targets", { input: c.name, auto_admit: true })).status).toBe(202);
      for (const [label, words] of [
        ["+1 hour", "1 hour"],
        ["+1 day", "1 day"],
      ]) {
        await panel.getByRole("button", { name: label, exact: true }).click();
        await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain(`moved ${words}`);
      }
      expect((await call("POST", "/v1/lists", { name: "After the day" })).status).toBe(201);
      const seen = async () => ({
        lists: (await call("GET", "/v1/lists")).body,
        targets: (await call("GET", "/v1/targets")).body,
        events: (await call("GET", "/v1/events?limit=100")).body,
      });
      const before = await seen();
      expect(before.lists).toContain("After the day");
      // What the page stored: more characters than Chromium's localStorage holds for an origin (about 5 M).
      const stored = await page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open("talent-graph-reference");
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const get = open.result.transaction("state").objectStore("state").get("talent-graph-reference-sandbox");
              get.onsuccess = () => resolve(String(get.result ?? "").length);
            };
          }),
      );
      expect(stored).toBeGreaterThan(5_300_000);
      await page.reload({ waitUntil: "load" });
      expect(await seen()).toEqual(before);
      expect(warnings.filter((w) => w.startsWith("sandbox:"))).toEqual([]);
    } finally {
      page.off("console", onConsole);
    }
    await tryIt(page, "listTargets");
    await panel.getByRole("button", { name: "Reset the sandbox" }).click();
    await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("Back to the seed");
  });

  it("a state another tab stored since is left as it is: this tab goes on in memory, with one warning", async () => {
    const warnings: string[] = [];
    const onConsole = (m: { type(): string; text(): string }) => {
      if (m.type() === "warning") warnings.push(m.text());
    };
    const createList = (tab: Page, name: string) =>
      tab.evaluate(
        async ({ name, key }) =>
          (
            await window.talentGraphSandbox!.fetch("/v1/lists", {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: JSON.stringify({ name }),
            })
          ).status,
        { name, key: ACME },
      );
    page.on("console", onConsole);
    try {
      expect(await createList(page, "This tab, first")).toBe(201);
      // The shared second tab (the tests further down use it): its sandbox starts from what this one stored.
      const other = await secondPage();
      expect(await createList(other, "From the other tab")).toBe(201);
      expect(warnings).toEqual([]);
      expect(await createList(page, "This tab, after the other")).toBe(201);
      await page.reload({ waitUntil: "load" });
      await tryIt(page, "listLists");
      const lists = (await send(page)).response.body;
      expect(lists).toContain("This tab, first");
      expect(lists).toContain("From the other tab");
      expect(lists).not.toContain("This tab, after the other");
      await expect.poll(() => warnings.length).toBe(1);
      expect(warnings[0]).toMatch(
        /^sandbox: IndexedDB talent-graph-reference\/state\/talent-graph-reference-sandbox was changed by something other than this sandbox .*goes on in memory/,
      );
    } finally {
      page.off("console", onConsole);
    }
    await page.locator("#try-it-panel").getByRole("button", { name: "Reset the sandbox" }).click();
    await expect.poll(() => page.locator("#try-it-panel .try-it-note").textContent()).toContain("Back to the seed");
  });

  it("a fault chosen in the page is the next answer, and only the next", async () => {
    await tryIt(page, "listLists");
    await page.locator("#try-it-fault").selectOption("503");
    await page.locator("#try-it-panel").getByRole("button", { name: "Fail the next call" }).click();
    const failed = await send(page);
    expect(failed.response.status).toBe(503);
    assertDocumented(op("listLists"), failed);
    expect((await send(page)).response.status).toBe(200);
  });

  it("a starting state: the locked trial answers 402, the team preset has Lists", async () => {
    await tryIt(page, "listLists");
    const panel = page.locator("#try-it-panel");
    for (const [preset, check] of [
      ["locked", (e: Exchange) => expect(e.response.status).toBe(402)],
      ["team", (e: Exchange) => expect(e.response.body).toContain("Backend shortlist")],
    ] as const) {
      await page.locator("#try-it-preset").selectOption(preset);
      await panel.getByRole("button", { name: "Start from it" }).click();
      await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("Started");
      check(await send(page));
    }
    await panel.getByRole("button", { name: "Reset the sandbox" }).click();
  });

  it("window.talentGraphSandbox.fetch answers /v1/me with the key's organization", async () => {
    const me = (key: string) =>
      page.evaluate(async (key) => {
        const res = await window.talentGraphSandbox!.fetch("/v1/me", { headers: { "x-api-key": key } });
        return { status: res.status, body: JSON.parse(await res.text()) as { data: { access: { allowed: boolean } } } };
      }, key);
    const acme = await me(ACME);
    expect(acme.status).toBe(200);
    expect(acme.body.data).toMatchObject({ access: { allowed: true }, quota: { watch_slots: { max: 1000 } } });
    // Initech's trial ended: its own account says so.
    expect((await me(INITECH)).body.data.access.allowed).toBe(false);
  });

  it("a 400 shows its status, headers and error body; the screenshot is saved", async () => {
    await tryIt(page, "searchPeople");
    await setField(page, "try-it-query-limit", "0");
    const bad = await send(page);
    expect(bad.response.status).toBe(400);
    expect(await page.locator("#try-it-body").textContent()).toContain('"invalid_request"');
    await page.locator("#try-it-status").scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT_400 });
    // Edits are kept per operation: the next test starts from the prefilled form.
    await setField(page, "try-it-query-limit", "");
  });

  it("works by keyboard alone: open, fill, send, read the answer", async () => {
    await page.keyboard.press("Escape");
    const s = section(op("searchPeople"));
    await page.evaluate((hash) => (window.location.hash = hash), `#${s}`);
    await page.locator(`[data-section-id="${s}"] button.try-it-open`).focus();
    await page.keyboard.press("Enter");
    const inPanel = () => page.evaluate(() => document.activeElement?.closest("#try-it-panel") !== null);
    expect(await inPanel()).toBe(true);
    await page.keyboard.press("Control+a");
    await page.keyboard.type("backend engineers in Berlin");
    await page.evaluate(() => (document.querySelector("#try-it-status")!.textContent = ""));
    await page.keyboard.press("Enter");
    const exchange = await answer(page);
    expect(exchange.response.status).toBe(200);
    expect(exchange.request.url).toContain("nl=backend+engineers+in+Berlin");
    let reached = false;
    for (let i = 0; i < 60 && !reached; i += 1) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement?.id === "try-it-body");
    }
    expect(reached, "Tab reaches the answer's body").toBe(true);
    await page.keyboard.press("Escape");
    expect(await page.locator("#try-it-panel").isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("try-it-open");
  });

  it("the answer's JSON folds and unfolds, by click and by keyboard; its text and its copy stay the JSON", async () => {
    await tryIt(page, "getAccount");
    const exchange = await send(page);
    expect(exchange.response.status).toBe(200);
    const pretty = JSON.stringify(JSON.parse(exchange.response.body), null, 2);
    const body = page.locator("#try-it-body");
    expect(await body.textContent()).toBe(pretty);
    expect(await body.getAttribute("data-text")).toBe(pretty);
    // The root object's button, then the first nested one ("data": the account).
    const folds = body.locator("button.try-it-fold");
    expect(await folds.count()).toBeGreaterThan(1);
    const data = folds.nth(1);
    const inner = data.locator("xpath=following-sibling::*[1]");
    const note = data.locator("xpath=following-sibling::*[2]");
    expect(await inner.getAttribute("class")).toBe("try-it-fold-inner");
    expect(await note.getAttribute("class")).toBe("try-it-fold-note");
    expect(await data.getAttribute("aria-expanded")).toBe("true");
    expect(await note.isVisible()).toBe(false);
    await data.click();
    expect(await data.getAttribute("aria-expanded")).toBe("false");
    expect(await data.getAttribute("aria-label")).toMatch(/^Unfold this object \(\d+ keys?\)$/);
    expect(await inner.isVisible()).toBe(false);
    expect(await note.isVisible()).toBe(true);
    expect(await body.getAttribute("data-text")).toBe(pretty);
    await data.focus();
    await page.keyboard.press("Enter");
    expect(await data.getAttribute("aria-expanded")).toBe("true");
    expect(await inner.isVisible()).toBe(true);
    expect(await note.isVisible()).toBe(false);
    await page.keyboard.press("Space");
    expect(await data.getAttribute("aria-expanded")).toBe("false");
    await folds.first().click();
    expect(await body.locator(".try-it-fold-inner").first().isVisible()).toBe(false);
    await folds.first().click();
    await data.click();
    expect(await inner.isVisible()).toBe(true);
  });

  it("adds no axe-core violation to the page", async () => {
    const axe = await readFile(
      path.join(path.dirname(fileURLToPath(import.meta.resolve("axe-core"))), "axe.min.js"),
      "utf8",
    );
    // Evaluated by the test harness: the page's Content-Security-Policy refuses an added <script> (csp.test.ts).
    await page.evaluate(axe);
    type Found = { id: string; impact: string; targets: string[]; incomplete?: boolean }[];
    type AxeResults = Record<
      "violations" | "incomplete",
      { id: string; impact: string; nodes: { target: string[] }[] }[]
    >;
    // Violations, and the checks axe could not decide (a colour behind an overlapping element, say).
    const run = () =>
      page.evaluate(async () => {
        const result = await (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run();
        const found = (list: AxeResults["violations"], incomplete: boolean) =>
          list.map((v) => ({
            id: v.id,
            impact: v.impact,
            targets: v.nodes.map((n) => n.target.join(" ")),
            incomplete,
          }));
        return [...found(result.violations, false), ...found(result.incomplete, true)];
      });
    // By its button: the section it opens is the page axe reads beside the panel.
    await tryIt(page, "createList", true);
    await send(page);
    // The same page with the panel hidden and nothing else touched (no focus move, no scroll: Redoc renders
    // sections as they come into view): what the panel adds is what only the run with it shown finds.
    const panel = (hidden: boolean) =>
      page.evaluate((hidden) => (document.querySelector<HTMLElement>("#try-it-panel")!.hidden = hidden), hidden);
    // Redoc's own findings come and go as its transitions settle: hidden before and after the shown run.
    await panel(true);
    const before: Found = await run();
    await panel(false);
    const open: Found = (await run()).filter((v) => !v.incomplete);
    await panel(true);
    const after: Found = await run();
    await panel(false);
    const known = new Set([...before, ...after].flatMap((v) => v.targets.map((t) => `${v.id} ${t}`)));
    const added = open.flatMap((v) =>
      v.targets.filter((t) => !known.has(`${v.id} ${t}`)).map((t) => `${v.id} (${v.impact}) ${t}`),
    );
    // The "Try it" buttons are in both runs: none of them, and nothing in the panel, may be a finding.
    const panelOrButtons = open.flatMap((v) =>
      v.targets.filter((t) => /try-it/.test(t)).map((t) => `${v.id} (${v.impact}) ${t}`),
    );
    console.log(`axe with the panel open: ${open.map((v) => `${v.id} ${v.impact} x${v.targets.length}`).join(", ")}`);
    expect(added).toEqual([]);
    expect(panelOrButtons).toEqual([]);
  });

  it("a live server gets the typed key, and only it; no answer is explained in one line; the key stays in memory", async () => {
    const local = "http://127.0.0.1:4011/v1";
    const seen: { url: string; authorization: string | undefined }[] = [];
    let up = true;
    const errorsBefore = consoleErrors.length;
    await page.route(`${local}/**`, (route) => {
      seen.push({ url: route.request().url(), authorization: route.request().headers().authorization });
      if (!up) return route.abort("failed");
      return route.fulfill({
        status: 200,
        headers: { "access-control-allow-origin": "*", "content-type": "application/json" },
        body: '{"data":{"live":true}}',
      });
    });
    try {
      await tryIt(page, "getAccount");
      await page.locator("#try-it-target").selectOption(local);
      await page.locator("#try-it-live-key").fill("tgsb_typed_in_the_page");
      const live = await send(page);
      expect(live.response.body).toContain('"live":true');
      expect(seen).toEqual([{ url: `${local}/me`, authorization: "Bearer tgsb_typed_in_the_page" }]);
      up = false;
      await page.locator("#try-it-panel").getByRole("button", { name: "Send", exact: true }).click();
      await expect
        .poll(() => page.locator("#try-it-status").textContent())
        .toMatch(/^No answer from http:\/\/127\.0\.0\.1:4011\/v1: .*CORS.*$/);
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
      expect(stored).not.toContain("tgsb_typed_in_the_page");
      // The browser's own line for the refused request is the only console error here.
      const failed = consoleErrors.splice(errorsBefore);
      for (const line of failed) expect(line).toMatch(/^Failed to load resource: net::ERR_FAILED/);
    } finally {
      await page.unroute(`${local}/**`);
      await page.locator("#try-it-target").selectOption("page");
    }
  });

  it("sent no request off the machine and logged no console error", () => {
    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});

describe("Try it, in the page opened as a file", () => {
  it("searches, and creates a List, adds a member and reads it back", async () => {
    const page = await openPage(pathToFileURL(DEFAULT_OUT).href);
    try {
      await tryIt(page, "searchPeople");
      const search = await send(page);
      expect(search.response.status).toBe(200);
      assertDocumented(op("searchPeople"), search);
      await listFlow(page, "From a file", "jonas-weber");
      expect(external).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

/**
 * The sandbox in the page answers like `npm run sandbox`: every GET operation's prefilled example (taken by method,
 * never by count), errors, a write and its read-back give byte-identical bodies and the same statuses from
 * `window.talentGraphSandbox.fetch` in the built page and from the Node sandbox's Fastify host started in-process,
 * with the same seed (the default), the same pinned clock and sequential ids.
 */
/** The words of a shell command line as the shell reads them: '…' literal, "…" with $VAR expanded, \\-newline joined. */
export function shellWords(line: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\" && line[i + 1] === "\n") {
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word ??= "";
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      word += line.slice(i + 1, end).replace(/\$([A-Z_]+)/g, (_, name: string) => env[name] ?? "");
      i = end;
    } else word += c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** A curl command line (the options the panel writes) as a fetch against `origin` in place of its base. */
function curlRequest(words: string[], base: string, origin: string) {
  expect(words.slice(0, 2)).toEqual(["curl", "-sS"]);
  let method = "GET";
  let url = "";
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (let i = 2; i < words.length; i++) {
    const w = words[i]!;
    if (w === "-X") method = words[++i]!;
    else if (w === "-H") {
      const [name, ...rest] = words[++i]!.split(":");
      headers[name!.toLowerCase()] = rest.join(":").trim();
    } else if (w === "--data-binary") body = words[++i]!;
    else if (!w.startsWith("-")) url = w;
    else throw new Error(`the curl has an option this test does not read: ${w}`);
  }
  expect(url.startsWith(base)).toBe(true);
  return { url: origin + new URL(base).pathname + url.slice(base.length), init: { method, headers, body } };
}

const NODE_OPTIONS = { port: 0, now: () => Date.parse(CLOCK), ids: "sequential" } as Partial<SandboxOptions>;

describe("the same bytes as npm run sandbox", () => {
  let node: RunningSandbox;
  let requests: Recorded[];
  let page: Page;
  const external: string[] = [];
  beforeAll(async () => {
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const json = { "content-type": "application/json" };
    const gets = listOperations(doc)
      .filter((op) => op.method === "get")
      .map((op): Recorded => ({
        method: "GET",
        url: requestUrl({ ...sampleRequest(doc, op, []), baseUrl: "/v1" }),
        headers: auth(ACME),
      }));
    requests = [
      ...gets,
      { method: "GET", url: "/v1/people?limit=0", headers: auth(ACME) },
      { method: "GET", url: "/v1/people?limit=3&offset=3", headers: auth(GLOBEX) },
      { method: "GET", url: "/v1/me", headers: {} },
      { method: "POST", url: "/v1/lists", headers: { ...auth(ACME), ...json }, body: "{not json" },
      {
        method: "PUT",
        url: "/v1/signals/preferences",
        headers: { ...auth(ACME), ...json },
        body: JSON.stringify({ digest: { frequency: "weekly" } }),
      },
      { method: "GET", url: "/v1/signals/preferences", headers: auth(ACME) },
    ];
    // Created ids carry a random per-instance segment unless both sides ask for sequential ids (the core's `ids`
    // option, which the Node host hands to its core with the rest of its options).
    node = await startSandbox(NODE_OPTIONS);
    // One tab for both tests: the sandbox in it and the Node sandbox get the same requests in the same order.
    page = await browser.context.newPage();
    await page.route(
      (u) => !isLocal(u.href),
      (route) => {
        external.push(route.request().url());
        return route.abort("blockedbyclient");
      },
    );
    await page.addInitScript((now) => {
      (window as unknown as { talentGraphSandboxOptions: object }).talentGraphSandboxOptions = {
        now,
        ids: "sequential",
        persist: false,
      };
    }, CLOCK);
    await page.goto(`${server.origin}/index.html`, { waitUntil: "load" });
  });

  afterAll(async () => {
    await page?.close();
    await node?.close();
  });

  it("every GET and six more requests: the same statuses and byte-identical bodies in the page and from npm run sandbox", async () => {
    expect(requests).toHaveLength(listOperations(doc).filter((op) => op.method === "get").length + 6);
    const inPage = await page.evaluate(async (requests) => {
      const answers = [];
      for (const r of requests) {
        const res = await window.talentGraphSandbox!.fetch(r.url, {
          method: r.method,
          headers: r.headers,
          body: r.body ?? null,
        });
        answers.push({ status: res.status, body: await res.text() });
      }
      return answers;
    }, requests);
    const fromNode = [];
    for (const r of requests) {
      const res = await fetch(node.origin + r.url, { method: r.method, headers: r.headers, body: r.body ?? null });
      fromNode.push({ status: res.status, body: await res.text() });
    }
    const label = (i: number) => `${requests[i]!.method} ${requests[i]!.url}`;
    for (const [i, answer] of inPage.entries()) expect(answer, label(i)).toEqual(fromNode[i]);
    // The requests reach reads, writes and errors alike, with bodies to compare.
    const statuses = new Set(fromNode.map((a) => a.status));
    for (const status of [200, 400, 401, 404]) expect(statuses).toContain(status);
    expect(fromNode.every((a) => a.body.length > 0)).toBe(true);
    expect(external).toEqual([]);
  });

  it("the curl the panel shows after a Send, run against the Node sandbox with the same seed, answers the same body", async () => {
    // Both sides have answered the same requests in the same order (the test above): they stand in the same
    // state, and go on from there.
    // Writes and reads whose ids flow from one answer to the next, on both sides in the same order.
    const flow = ["searchPeople", "createList", "addListMembers", "getList", "createSavedQuery", "getSavedQuery"];
    const compared: string[] = [];
    for (const id of flow) {
      // The first by its button (the page runs the try-it code then), the others by the panel alone.
      const inPage = await trySend(page, id, id === flow[0]);
      const key = await page.locator("#try-it-key").inputValue();
      const curl = (await page.locator("#try-it-curl").textContent())!;
      expect(curl).toContain('"Authorization: Bearer $TALENT_GRAPH_API_KEY"');
      expect(curl).not.toContain(key);
      const { url, init } = curlRequest(
        shellWords(curl, { TALENT_GRAPH_API_KEY: key }),
        "http://127.0.0.1:4011/v1",
        node.origin,
      );
      const res = await fetch(url, init);
      const body = await res.text();
      expect({ id, status: res.status, body }).toEqual({
        id,
        status: inPage.response.status,
        body: inPage.response.body,
      });
      compared.push(`${id} ${res.status}`);
    }
    expect(
      compared.every((line) => / 2\d\d$/.test(line)),
      compared.join(", "),
    ).toBe(true);
    expect(external).toEqual([]);
  });
});

/** A tab on the page (non-local requests aborted) whose uncaught errors and unhandled rejections are kept. */
async function freshPage(url: string, errors: string[]): Promise<Page> {
  const page = await browser.context.newPage();
  await page.route(
    (u) => u.protocol !== "file:" && !isLocal(u.href),
    (route) => route.abort("blockedbyclient"),
  );
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  return page;
}

const offer = (page: Page, use: string) => page.locator(`#try-it-offers button[data-use^="${use}"]`).first();

/**
 * A second tab on the page, opened once and shared, in file order, by the tests below that need no page of
 * their own (axe, the docked panel, the chained flow and the form check, the live servers); its uncaught errors
 * are kept for all of them. A page load (3 MB, Redoc's hydration, the sandbox's graph) is most of a test's cost.
 */
const secondErrors: string[] = [];
let second: Promise<Page> | undefined;
const secondPage = () => (second ??= freshPage(`${server.origin}/index.html`, secondErrors));

describe("Try it: axe-core over the whole page with a panel open, light and dark", () => {
  it("finds no serious or critical violation", async () => {
    const page = await secondPage();
    const axe = await readFile(
      path.join(path.dirname(fileURLToPath(import.meta.resolve("axe-core"))), "axe.min.js"),
      "utf8",
    );
    // By its button: the section it opens is the page axe reads beside the panel.
    await tryIt(page, "createList", true);
    await send(page);
    // The page's CSP refuses an injected script tag; evaluate runs axe as the debugger does.
    await page.evaluate(axe);
    type Results = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const run = () =>
      page.evaluate(async () => {
        const result = await (window as unknown as { axe: { run(): Promise<Results> } }).axe.run();
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .flatMap((v) =>
            v.nodes.map((n) => {
              const data = (n as unknown as { any: { data?: Record<string, unknown> }[] }).any[0]?.data ?? {};
              const node = document.querySelector(n.target.join(" "));
              const detail = `${String(data.fgColor)} on ${String(data.bgColor)} (${String(data.contrastRatio)} < ${String(data.expectedContrastRatio)}; ${node?.className ?? ""} ${node?.parentElement?.className ?? ""})`;
              return `${v.id} (${v.impact}) ${n.target.join(" ")}: ${detail}`;
            }),
          );
      });
    const found: Record<string, string[]> = {};
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
      // The theme's colours change through CSS transitions: axe reads the colours once every one has ended
      // (a state, not a time; on a busy machine they run long).
      await page.waitForFunction(() =>
        document.getAnimations().every((a) => a.constructor.name !== "CSSTransition" || a.playState !== "running"),
      );
      found[theme] = await run();
      await page.screenshot({ path: path.join(path.dirname(DEFAULT_OUT), `try-it-${theme}.png`) });
    }
    console.log(`axe serious/critical: ${JSON.stringify(found, null, 1)}`);
    expect(found).toEqual({ light: [], dark: [] });
  });
});

/**
 * Where the panel's box meets Redoc's content: every heading, paragraph, list item, code block and column Redoc
 * rendered (the panel's own left out) whose box reaches into the panel's, each heading's width and its lines
 * against its words (a heading squeezed to a letter a line has more lines than words), and how many were measured.
 */
const BESIDE_THE_PANEL = [
  "h1",
  "h2",
  "h3",
  "h4",
  "p",
  "li",
  "pre",
  '[data-testid="middle-panel"]',
  '[data-testid="right-panel"]',
  '[data-component-name="CodeBlock/CodeBlock"]',
].join(", ");
async function besideThePanel(page: Page) {
  // Measured once the layout has settled after the last resize, reload or theme switch.
  await layoutSettled(page, `#try-it-panel, ${BESIDE_THE_PANEL}`);
  return page.evaluate((selector) => {
    const panel = document.querySelector("#try-it-panel")!.getBoundingClientRect();
    const under: string[] = [];
    const squeezed: string[] = [];
    const kinds = { heading: 0, samples: 0, code: 0, all: 0 };
    for (const e of document.querySelectorAll<HTMLElement>(selector)) {
      if (e.closest("#try-it-panel")) continue;
      const box = e.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      kinds.all += 1;
      if (/^H[1-3]$/.test(e.tagName) && (e.textContent ?? "").trim() !== "") {
        kinds.heading += 1;
        // The lines its text takes (a link icon beside the text is not a line of it), and their widths added up:
        // the text's width on one line. A heading is as wide as that or at least 160 px (some eight letters at
        // Redoc's heading size), and breaks only between words (at spaces and hyphens).
        const lines = new Set<number>();
        let oneLine = 0;
        const texts = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
        for (let t = texts.nextNode(); t; t = texts.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(t);
          for (const r of range.getClientRects()) {
            if (r.width === 0) continue;
            lines.add(Math.round(r.top));
            oneLine += r.width;
          }
        }
        const pieces = (e.textContent ?? "")
          .trim()
          .split(/[\s-]+/)
          .filter(Boolean).length;
        if (lines.size > pieces || box.width < Math.min(oneLine, 160))
          squeezed.push(`${e.tagName} "${e.textContent}" ${Math.round(box.width)} px, ${lines.size} lines`);
      }
      if (e.matches('[data-testid="right-panel"]')) kinds.samples += 1;
      if (e.matches('[data-component-name="CodeBlock/CodeBlock"]')) kinds.code += 1;
      if (box.right > panel.left + 0.5)
        under.push(
          `${e.tagName} ${Math.round(box.left)}-${Math.round(box.right)}: ${(e.textContent ?? "").slice(0, 40)}`,
        );
    }
    return { panel: { left: panel.left, width: panel.width }, under, squeezed, kinds };
  }, BESIDE_THE_PANEL);
}

describe("Try it: docked beside the page at 1280 px, resizable by keyboard and by drag", () => {
  it("no content under the panel, headings readable, light and dark; the width follows the separator and stays", async () => {
    const page = await secondPage();
    const errors = secondErrors;
    await page.setViewportSize({ width: 1280, height: 800 });
    // Each by its button: the section it opens is what is measured beside the panel.
    await tryIt(page, "createList", true);
    await send(page);
    const separator = page.getByRole("separator", { name: /Panel width/ });
    const width = async () => Number(await separator.getAttribute("aria-valuenow"));
    const check = async (label: string) => {
      const seen = await besideThePanel(page);
      expect(seen.panel.width, label).toBe(await width());
      expect(seen.panel.left, label).toBe(1280 - (await width()));
      expect(seen.under, label).toEqual([]);
      expect(seen.squeezed, label).toEqual([]);
      expect(seen.kinds.heading, label).toBeGreaterThan(0);
      expect(seen.kinds.samples, label).toBeGreaterThan(0);
      expect(seen.kinds.code, label).toBeGreaterThan(0);
      return seen;
    };
    expect(await separator.getAttribute("aria-orientation")).toBe("vertical");
    expect(await width()).toBe(480);
    const [min, max] = [
      Number(await separator.getAttribute("aria-valuemin")),
      Number(await separator.getAttribute("aria-valuemax")),
    ];
    expect(min).toBeLessThan(480);
    expect(max).toBeGreaterThan(480);
    for (const dark of [false, true]) {
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), dark);
      await check(dark ? "dark" : "light");
    }
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    // By keyboard: the separator takes focus; left widens, right narrows, Shift takes bigger steps, Home and End.
    await separator.focus();
    for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowLeft");
    expect(await width()).toBe(480 + 2 * 16);
    await page.keyboard.press("Shift+ArrowRight");
    expect(await width()).toBe(480 + 2 * 16 - 80);
    await check("after the arrow keys");
    await page.keyboard.press("End");
    expect(await width()).toBe(max);
    await check("widest");
    await page.keyboard.press("Home");
    expect(await width()).toBe(min);
    await check("narrowest");
    // By pointer: the separator dragged to x = 780 makes the panel 500 px wide.
    const grip = (await separator.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, 400);
    await page.mouse.down();
    await page.mouse.move(900, 400, { steps: 4 });
    await page.mouse.move(780, 400, { steps: 4 });
    await page.mouse.up();
    expect(await width()).toBe(500);
    await tryIt(page, "listEvents", true);
    await send(page);
    await check("dragged, on another section");
    // Kept for the session: a reload opens the panel at the width it had.
    await page.reload({ waitUntil: "load" });
    await tryIt(page, "getList", true);
    expect(await width()).toBe(500);
    await check("after a reload");
    expect(errors).toEqual([]);
  });
});

describe("Try it: ids flow by clicks, the form checks before sending", () => {
  let page: Page;
  const errors = secondErrors;
  beforeAll(async () => {
    page = await secondPage();
  });

  it("create a List -> add members with the offered id -> read it -> page events with the offered cursor, by clicks alone", async () => {
    const panel = page.locator("#try-it-panel");
    await tryIt(page, "createList");
    await panel.getByRole("button", { name: "Reset the sandbox" }).click();
    await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("Back to the seed");
    const created = await send(page);
    expect(created.response.status).toBe(201);
    const id = (parse(created.response.body) as { data: { id: string } }).data.id;
    await offer(page, `addListMembers:${id}`).click();
    await expect.poll(() => page.locator("#try-it-title").textContent()).toContain(summaryOf("addListMembers"));
    expect(await page.locator("#try-it-path-id").inputValue()).toBe(id);
    const added = await send(page);
    expect(added.response.status).toBeLessThan(300);
    expect(added.request.url).toContain(`/lists/${id}/members`);
    await offer(page, `getList:${id}`).click();
    await expect.poll(() => page.locator("#try-it-title").textContent()).toContain(summaryOf("getList"));
    const read = await send(page);
    expect(read.response.status).toBe(200);
    const members = (parse(added.request.body!) as { urls: string[] }).urls;
    for (const m of members) expect(read.response.body).toContain(m);
    // An hour of the job clock: the List's members change, and the events page.
    await panel.getByRole("button", { name: "+1 hour" }).click();
    await expect.poll(() => panel.locator(".try-it-note").textContent()).toContain("moved 1 hour");
    await tryIt(page, "listEvents");
    const first = await send(page);
    expect(first.response.status).toBe(200);
    const next = (parse(first.response.body) as { meta: { next: string | null } }).meta.next;
    expect(next).toBeTruthy();
    await offer(page, "listEvents:cursor").click();
    expect(await page.locator("#try-it-query-cursor").inputValue()).toBe(next);
    const second = await send(page);
    expect(second.response.status).toBe(200);
    assertDocumented(op("listEvents"), second);
    const ids = (e: Exchange) => (parse(e.response.body) as { data: { id: string }[] }).data.map((d) => d.id);
    expect(ids(second).length).toBeGreaterThan(0);
    expect(ids(second).filter((x) => ids(first).includes(x))).toEqual([]);
    await page.locator("#try-it-offers").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(path.dirname(DEFAULT_OUT), "try-it-chain.png") });
  });

  it("names an invalid enum and broken JSON before sending, in the words of the 400 that sending them gets", async () => {
    await tryIt(page, "createTarget");
    const area = page.locator("#try-it-request-body");
    const check = page.locator("#try-it-check");
    const prefilled = await area.inputValue();
    for (const typed of [
      prefilled.replace(/"kind":\s*"company"/, '"kind": "companyy"'),
      '{"input": "Northwind Labs",',
    ]) {
      expect(typed).not.toBe(prefilled);
      await area.fill(typed);
      await expect.poll(() => check.textContent()).toMatch(/^The sandbox would answer 400: /);
      const named = (await check.textContent())!
        .replace(/^The sandbox would answer 400: /, "")
        .replace(/ \(Send still sends it as it is\.\)$/, "");
      const sent = await send(page);
      expect(sent.response.status).toBe(400);
      expect(sent.request.body).toBe(typed);
      expect((parse(sent.response.body) as { error: { message: string } }).error.message).toBe(named);
    }
    await area.fill(prefilled);
    await expect.poll(() => check.textContent()).toBe("");
    expect(errors).toEqual([]);
  });
});

function summaryOf(id: string): string {
  return String(op(id).operation.summary);
}

/**
 * A hostile live server on 127.0.0.1 (CORS allowed, so the page reads what it sends): /ok answers, /big sends
 * 50 MB, /forever never ends its body, /stall sends the headers and then nothing, /cut cuts the connection after
 * part of the body, /cutearly before any answer.
 */
async function hostileServer(): Promise<{ origin: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
  };
  const server = http.createServer((req, res) => {
    if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
    seen.push(`${req.url} ${req.headers.authorization ?? ""}`);
    const kind = (req.url ?? "").split("/")[1];
    const json = { ...cors, "content-type": "application/json" };
    const chunk = Buffer.alloc(256 * 1024, "a");
    if (kind === "ok") return res.writeHead(200, json).end('{"data":{"live":true}}');
    if (kind === "cutearly") return req.socket.destroy();
    res.writeHead(200, json);
    res.flushHeaders();
    if (kind === "stall") return res.write('{"data":');
    if (kind === "cut") {
      res.write(chunk);
      return setTimeout(() => req.socket.destroy(), 50);
    }
    let sent = 0;
    const limit = kind === "big" ? 50 * 1024 * 1024 : Infinity;
    const pump = () => {
      while (sent < limit && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("Try it against live servers: the key stays in the page, answers are capped and can be stopped", () => {
  const KEY = "tgsb_typed_secret_4f1e";
  let page: Page;
  let hostile: Awaited<ReturnType<typeof hostileServer>>;
  const errors = secondErrors;
  beforeAll(async () => {
    hostile = await hostileServer();
    page = await secondPage();
  });
  afterAll(async () => {
    await hostile?.close();
  });

  const useServer = async (kind: string) => {
    await page.locator("#try-it-custom-url").fill(`${hostile.origin}/${kind}/v1`);
    await expect.poll(() => page.locator("#try-it-key-goes").textContent()).toContain(hostile.origin);
  };
  const sendLive = () => page.locator("#try-it-panel").getByRole("button", { name: "Send", exact: true }).click();
  const ended = async () => {
    await page.waitForFunction(
      () => /^\d{3}\b/.test(document.querySelector("#try-it-status")?.textContent ?? ""),
      null,
      { timeout: 0 },
    );
    return page.locator("#try-it-cut").textContent();
  };

  it("says which server gets the key before sending; only that server gets it; no global or storage holds it after", async () => {
    await tryIt(page, "getAccount");
    await page.locator("#try-it-target").selectOption("custom");
    await page.locator("#try-it-live-key").fill(KEY);
    await useServer("ok");
    expect(await page.locator("#try-it-key-goes").textContent()).toBe(
      `Send gives this key to ${hostile.origin} and to no other server; it is kept in this page's memory only.`,
    );
    await sendLive();
    expect(await ended()).toBe("");
    expect(await page.locator("#try-it-body").textContent()).toContain('"live": true');
    expect(hostile.seen).toEqual([`/ok/v1/me Bearer ${KEY}`]);
    // Every global of the page, walked a few levels deep (the try-it API and its last exchange included); a probe
    // global holding the key first shows the walk finds one.
    const holders = () =>
      page.evaluate((key) => {
        const found: string[] = [];
        const seen = new Set<unknown>();
        const walk = (value: unknown, where: string, depth: number) => {
          if (typeof value === "string") {
            if (value.includes(key)) found.push(where);
            return;
          }
          if (value === null || typeof value !== "object" || depth > 4 || seen.has(value)) return;
          if (value instanceof Node || value === window) return;
          seen.add(value);
          let names: string[];
          try {
            names = Object.getOwnPropertyNames(value);
          } catch {
            return;
          }
          for (const name of names) {
            let child: unknown;
            try {
              child = (value as Record<string, unknown>)[name];
            } catch {
              continue;
            }
            walk(child, `${where}.${name}`, depth + 1);
          }
        };
        for (const name of Object.getOwnPropertyNames(window)) {
          let value: unknown;
          try {
            value = (window as unknown as Record<string, unknown>)[name];
          } catch {
            continue;
          }
          walk(value, `window.${name}`, 0);
        }
        const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
        if (stored.includes(key)) found.push("storage");
        return found;
      }, KEY);
    await page.evaluate((key) => ((window as unknown as { probe: object }).probe = { deep: [{ key }] }), KEY);
    expect(await holders()).toEqual(["window.probe.deep.0.key"]);
    await page.evaluate(() => delete (window as unknown as { probe?: object }).probe);
    expect(await holders()).toEqual([]);
    expect(await page.evaluate(() => window.__talentGraphTryIt!.lastExchange!.request.headers.authorization)).toBe(
      "Bearer $TALENT_GRAPH_API_KEY",
    );
  });

  it("a page at another path of the same origin reads no key, in another tab or in the same one", async () => {
    const dump = () => page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    const neighbour = await freshPage(`${server.origin}${NEIGHBOUR}`, errors);
    try {
      const there = await neighbour.evaluate(
        () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      );
      expect(there).not.toContain(KEY);
      // The page itself, checked the same way: the negative the neighbour's read depends on.
      expect(await dump()).not.toContain(KEY);
    } finally {
      await neighbour.close();
    }
  });

  it("a 50 MB answer is cut at the cap with a line saying so", async () => {
    await useServer("big");
    await sendLive();
    expect(await ended()).toMatch(/^Cut at 2\.0 MB: the answer is larger, and the rest was not read\.$/);
    expect((await page.locator("#try-it-body").textContent())!.length).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it("a body that never ends is cut at the cap; the tab answers meanwhile", async () => {
    await useServer("forever");
    await sendLive();
    expect(await page.evaluate(() => document.title.length > 0)).toBe(true);
    expect(await ended()).toMatch(/^Cut at 2\.0 MB/);
  });

  it("a stalled answer ends with Stop, in one line", async () => {
    await useServer("stall");
    await sendLive();
    await page.locator("#try-it-stop").waitFor({ state: "visible" });
    await page.locator("#try-it-stop").click();
    expect(await ended()).toMatch(/^Stopped: \d+ kB received\.$/);
    expect(await page.locator("#try-it-stop").isHidden()).toBe(true);
  });

  it("a connection cut mid-body or before any answer ends with one line, and nothing is left unhandled", async () => {
    await useServer("cut");
    await sendLive();
    expect(await ended()).toMatch(/^The connection was cut after \d+ kB: the answer is incomplete\.$/);
    await useServer("cutearly");
    await page.evaluate(() => (document.querySelector("#try-it-status")!.textContent = ""));
    await sendLive();
    await expect
      .poll(() => page.locator("#try-it-status").textContent())
      .toMatch(/^No answer from http:\/\/127\.0\.0\.1:\d+\/cutearly\/v1: /);
    expect(errors).toEqual([]);
  });
});
