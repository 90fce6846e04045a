/**
 * The reference page with "Try it": its size, and in a fresh packaged Chromium per round, the first answer of the
 * in-page sandbox (from the first "Send", pressed as the panel opens) and the answers after it (distinct
 * operations, each its own first Send); and printed beside it, the first answer when Send comes a second after the
 * panel opens (the sandbox starts as the panel appears). Floors: page <= 3.5 MB, first answer <= 500 ms, later
 * ones <= 50 ms; the job clock's +1 day with 5 watching Targets <= 500 ms.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isLocal, launchChromium } from "../docs/browser.js";
import { buildDocs, DEFAULT_SPEC, readBundle } from "../docs/build.js";
import { sectionId } from "../docs/built-page.js";
import { servePage } from "../docs/http.js";
import { listOperations } from "../docs/openapi.js";
import { alternate, floorLine, summarize } from "./harness.js";

const PAGE_LIMIT = 3_500_000;
/** The first answer, then one answer each of these (distinct requests, none repeated). */
const FIRST = "searchPeople";
const LATER = ["getPerson", "searchCompanies", "listLists", "createList", "getAccount", "suggest"];
const READING_MS = 1000;
/** Watching Targets during the one-day clock advance. */
const CLOCK_TARGETS = 5;

/**
 * Runs in the page: "Try it" of a section, then "Send" at once or after `pauseMs` (a reader reading the form); ms
 * from Send to the announced status.
 */
async function sendAfter({ section, pauseMs }: { section: string; pauseMs: number }): Promise<number> {
  const button = document.querySelector<HTMLButtonElement>(`[data-section-id="${section}"] button.try-it-open`)!;
  button.click();
  if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  const status = document.querySelector("#try-it-status")!;
  status.textContent = "";
  const send = document.querySelector<HTMLButtonElement>('#try-it-panel button[type="submit"]')!;
  return new Promise((resolve) => {
    const started = performance.now();
    new MutationObserver((_, observer) => {
      if (!/^\d{3}\b/.test(status.textContent ?? "")) return;
      observer.disconnect();
      resolve(performance.now() - started);
    }).observe(status, { childList: true, characterData: true, subtree: true });
    send.click();
  });
}

async function oneRound(file: string, sections: Map<string, string>): Promise<Record<string, number>> {
  const body = await readFile(file);
  const server = await servePage(0, () => ({ status: 200, body }));
  const browser = await launchChromium();
  try {
    const open = async () => {
      const page = await browser.context.newPage();
      await page.route(
        (url) => !isLocal(url.href),
        (route) => route.abort("blockedbyclient"),
      );
      await page.goto(`${server.origin}/index.html`, { waitUntil: "load" });
      const answer = async (id: string, pauseMs = 0) => {
        const section = sections.get(id)!;
        await page.evaluate((hash) => (window.location.hash = hash), `#${section}`);
        await page.locator(`[data-section-id="${section}"] button.try-it-open`).waitFor({ timeout: 30_000 });
        return page.evaluate(sendAfter, { section, pauseMs });
      };
      return { page, answer };
    };
    const fresh = await open();
    const first = await fresh.answer(FIRST);
    const later = [];
    for (const id of LATER) later.push(await fresh.answer(id));
    await fresh.page.close();
    // A second tab (the graph is built again): Send after one second of reading.
    const reading = await open();
    const firstAfterReading = await reading.answer(FIRST, READING_MS);
    // The job clock: 5 company Targets watching what they discover (jobs finished with +1 hour), then +1 day.
    await reading.page.evaluate(
      async ({ key, count }) => {
        const json = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        const res = await window.talentGraphSandbox!.fetch("/v1/companies?limit=5", { headers: json });
        const companies = (JSON.parse(await res.text()) as { data: { name: string }[] }).data;
        for (const c of companies.slice(0, count))
          await window.talentGraphSandbox!.fetch("/v1/targets", {
            method: "POST",
            headers: json,
            body: JSON.stringify({ input: c.name, auto_admit: true }),
          });
      },
      { key: await reading.page.locator("#try-it-key").inputValue(), count: CLOCK_TARGETS },
    );
    const clock = (label: string) =>
      reading.page.evaluate(async (label) => {
        const note = document.querySelector("#try-it-panel .try-it-note")!;
        note.textContent = "";
        const button = [...document.querySelectorAll<HTMLButtonElement>("#try-it-panel button")].find(
          (b) => b.textContent === label,
        )!;
        const started = performance.now();
        button.click();
        await new Promise<void>((resolve) => {
          const check = () => (/moved/.test(note.textContent ?? "") ? resolve() : requestAnimationFrame(check));
          check();
        });
        return performance.now() - started;
      }, label);
    await clock("+1 hour");
    const day = await clock("+1 day");
    return { first, firstAfterReading, later: summarize(later).median, laterMax: Math.max(...later), day };
  } finally {
    await browser.close();
    await server.close();
  }
}

export async function docsFloors(rounds: number): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "talent-graph-docs-bench-"));
  try {
    const file = join(dir, "index.html");
    const { bytes } = await buildDocs({ outFile: file });
    const doc = await readBundle(DEFAULT_SPEC);
    const sections = new Map(
      listOperations(doc).map((op) => [
        String(op.operation.operationId),
        sectionId(String((op.operation.tags as string[])[0]), String(op.operation.operationId)),
      ]),
    );
    const runs = await alternate(rounds, { now: () => oneRound(file, sections) });
    return [
      floorLine({
        name: "the reference page with Try it <= 3.5 MB",
        value: summarize([bytes / 1e6]),
        unit: "MB",
        digits: 2,
        compare: "<=",
        target: PAGE_LIMIT / 1e6,
      }),
      floorLine({
        name: "Try it's first answer <= 500 ms after the first Send (fresh Chromium, Send as the panel opens)",
        value: summarize(runs.now.first!),
        unit: "ms",
        compare: "<=",
        target: 500,
      }),
      floorLine({
        name: `Try it's first answer, Send pressed ${READING_MS} ms after the panel opens (a reader reading the form)`,
        value: summarize(runs.now.firstAfterReading!),
        unit: "ms",
        compare: "print",
      }),
      floorLine({
        name: `Try it's later answers <= 50 ms (median of ${LATER.length} distinct operations per round)`,
        value: summarize(runs.now.later!),
        unit: "ms",
        digits: 1,
        compare: "<=",
        target: 50,
        details: [`slowest per round ${runs.now.laterMax!.map((ms) => ms.toFixed(1)).join(", ")} ms`],
      }),
      floorLine({
        name: `Try it's job clock: +1 day with ${CLOCK_TARGETS} watching Targets <= 500 ms (click to the note)`,
        value: summarize(runs.now.day!),
        unit: "ms",
        compare: "<=",
        target: 500,
      }),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
