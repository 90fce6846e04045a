/**
 * Browser test of the published reference: the packaged Chromium (playwright-core, headless, fresh
 * profile) opens dist/docs/index.html served from 127.0.0.1, every tag section is expanded and every
 * operation brought into view; no request may leave the machine, the console must stay free of errors,
 * and a full-page screenshot is saved next to the page. At 1280 and 1440 px no guide table or code block
 * may overflow its column, and a screenshot of the guides is saved per width. The docs are (re)built first
 * when missing or older than the bundle or the build scripts.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertChromium, inspectDocs, launchChromium, type Inspection, type LaunchedChromium } from "./browser.js";
import { assertOffline, DEFAULT_OUT, DEFAULT_SPEC, readBundle } from "./build.js";
import { ensureBuilt, sectionId } from "./built-page.js";
import { OPERATIONS } from "../../contract-core/index.js";
import { isObject, listOperations, type OpenApiDoc } from "./openapi.js";
import { SAMPLE_LANGUAGES } from "./code-samples.js";
import { prepareDocsSpec, SHAPE_NOTICE_TITLE } from "./prepare-spec.js";

const SCREENSHOT = path.join(path.dirname(DEFAULT_OUT), "screenshot.png");
const GUIDE_WIDTHS = [1280, 1440];
const GUIDES_SCREENSHOT = path.join(path.dirname(DEFAULT_OUT), "guides-{width}.png");
/** Tag headings in reading order: x-tagGroups when present (Redoc shows only grouped tags then). */
function tagHeadings(doc: OpenApiDoc): Map<string, string> {
  const tags = Array.isArray(doc.tags) ? doc.tags.filter(isObject) : [];
  const heading = (name: string) => {
    const tag = tags.find((t) => t.name === name);
    return typeof tag?.["x-displayName"] === "string" ? tag["x-displayName"] : name;
  };
  const groups = Array.isArray(doc["x-tagGroups"]) ? doc["x-tagGroups"].filter(isObject) : [];
  const names =
    groups.length > 0
      ? groups.flatMap((group) => (Array.isArray(group.tags) ? group.tags.map(String) : []))
      : tags.map((t) => String(t.name));
  return new Map(names.map((name) => [name, heading(name)]));
}

/** The operations whose generated samples have the longest lines: the ones most likely to overflow. */
function widestSampleSections(doc: OpenApiDoc, count: number): string[] {
  const widest = (op: ReturnType<typeof listOperations>[number]) =>
    Math.max(
      ...(op.operation["x-codeSamples"] as { source: string }[]).flatMap((s) =>
        s.source.split("\n").map((l) => l.length),
      ),
    );
  return listOperations(doc)
    .sort((a, b) => widest(b) - widest(a))
    .slice(0, count)
    .map((op) => sectionId(String((op.operation.tags as unknown[])[0]), String(op.operation.operationId)));
}

/** Sentences of a text that repeat inside another one (the intro restating the summary, say). */
function repeatedSentences(text: string): string[] {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) =>
      s
        .trim()
        .replace(/[.!?]$/, "")
        .toLowerCase(),
    )
    .filter((s) => s.split(/\s+/).length >= 6);
  return sentences.filter((s, i) => sentences.some((other, j) => j !== i && other.includes(s)));
}

// One Chromium for the whole file: each inspection opens its own tab in it.
let browser: LaunchedChromium;
beforeAll(async () => {
  assertChromium();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("published API reference in Chromium", () => {
  let doc: OpenApiDoc;
  let headings: Map<string, string>;
  let inspection: Inspection;
  let shapeNotShown: Map<string, string[]>;
  let sampleSections: string[];

  beforeAll(async () => {
    assertChromium();
    expect(existsSync(DEFAULT_SPEC), `${DEFAULT_SPEC} is missing: run \`npm run generate\``).toBe(true);
    const state = await ensureBuilt();
    doc = await readBundle(DEFAULT_SPEC);
    headings = tagHeadings(doc);
    const prepared = prepareDocsSpec(doc);
    shapeNotShown = prepared.shapeNotShown;
    sampleSections = widestSampleSections(prepared.doc, 3);
    inspection = await inspectDocs({
      htmlFile: DEFAULT_OUT,
      screenshot: SCREENSHOT,
      guideWidths: GUIDE_WIDTHS,
      guidesScreenshot: GUIDES_SCREENSHOT,
      sampleSections,
      sampleLanguages: SAMPLE_LANGUAGES.map((l) => l.label),
      sections: [...headings.values()].map((heading) => ({ heading })),
      browser,
    });
    const { size } = await stat(DEFAULT_OUT);
    console.log(
      `docs (${state}): ${DEFAULT_OUT} ${size} bytes; ${inspection.requests.length} request(s), ` +
        `${inspection.external.length} external; screenshot ${SCREENSHOT}`,
    );
  });

  it("renders every operation in its tag section, headed by its summary", () => {
    const operations = listOperations(doc);
    expect(operations).toHaveLength(OPERATIONS.length);
    for (const [tag, heading] of headings) {
      const rendered = inspection.sections.get(heading);
      expect(rendered, `section "${heading}" never rendered its operations`).toBeTruthy();
      const expected = operations
        .filter((op) => (op.operation.tags as unknown[])[0] === tag)
        .map((op) => String(op.operation.summary));
      expect(rendered?.map((op) => op.heading).sort(), heading).toEqual(expected.sort());
    }
    const shown = [...inspection.sections.values()].flatMap((ops) => ops ?? []).map((op) => op.heading);
    for (const op of operations) expect(shown, `${op.method.toUpperCase()} ${op.path}`).toContain(op.operation.summary);
  });

  it("marks each operation with a shape the reference does not show, visibly", () => {
    const rendered = new Map(
      [...inspection.sections.values()].flatMap((ops) => ops ?? []).map((op) => [op.heading, op.text]),
    );
    expect(shapeNotShown.size).toBeGreaterThan(0);
    for (const op of listOperations(doc)) {
      const id = String(op.operation.operationId);
      if (!shapeNotShown.has(id)) continue;
      expect(rendered.get(String(op.operation.summary)), id).toContain(
        `${SHAPE_NOTICE_TITLE}: ${shapeNotShown.get(id)?.join("; ")}`,
      );
    }
  });

  it("makes no request to any host but its own", () => {
    expect(inspection.requests).toContain(inspection.url);
    expect(inspection.external).toEqual([]);
    for (const url of inspection.requests) expect(new URL(url).hostname).toBe("127.0.0.1");
  });

  it("logs no console errors", () => {
    expect(inspection.consoleErrors).toEqual([]);
  });

  it("saves a full-page screenshot next to the page", async () => {
    const png = await readFile(SCREENSHOT);
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1280);
    expect(png.readUInt32BE(20)).toBeGreaterThan(2000);
  });

  it.each(GUIDE_WIDTHS)("at %i px, no guide table or code block overflows its column", (width) => {
    const check = inspection.guides.find((g) => g.width === width);
    // The guides hold the errors table and the getting-started curl block at least.
    expect(check?.blocks).toBeGreaterThanOrEqual(2);
    expect(check?.overflowing).toEqual([]);
  });

  it.each(GUIDE_WIDTHS)("saves a screenshot of the guides at %i px", async (width) => {
    const png = await readFile(GUIDES_SCREENSHOT.replace("{width}", String(width)));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(width);
  });

  it("shows one production base URL, with /v1, in the guides and the servers", () => {
    const servers = doc.servers as { url: string; variables?: Record<string, { default: string }> }[];
    const base = servers[0]!.url.replace("{origin}", servers[0]!.variables!.origin!.default);
    expect(base).toBe("https://api.talent-graph.example/v1");
    const guides = String((doc.info as { description: string }).description);
    const urls = new Set([...guides.matchAll(/https?:\/\/[^\s`"')]+/g)].map((m) => m[0]));
    expect([...urls]).toEqual([base]);
    expect((doc.info as { contact?: { url?: string } }).contact?.url).toBeUndefined();
  });

  it.each(GUIDE_WIDTHS)("at %i px, the title fits one line and the intro says nothing twice", (width) => {
    const layout = inspection.layout.find((l) => l.width === width);
    expect(layout?.titleLines).toBe(1);
    const summary = String((doc.info as { summary: string }).summary).replace(/\.$/, "");
    expect(layout?.infoText.split(summary)).toHaveLength(2);
    expect(repeatedSentences(layout?.infoText ?? "")).toEqual([]);
  });

  it.each(GUIDE_WIDTHS)("at %i px, no word of the guides' tables breaks mid-word", (width) => {
    const layout = inspection.layout.find((l) => l.width === width);
    // The errors table holds the longest identifier; it may wrap at its underscores only.
    expect(layout?.infoText).toBeDefined();
    expect(layout?.brokenWords).toEqual([]);
  });

  it("lists production, then the local sandbox and mock, each with its description and URL", () => {
    const servers = doc.servers as { url: string; description: string }[];
    expect(servers.map((s) => s.url)).toEqual(["{origin}/v1", "http://127.0.0.1:4011/v1", "http://127.0.0.1:4010/v1"]);
    const text = inspection.layout[0]?.serversText ?? "";
    const urls = ["https://api.talent-graph.example/v1", ...servers.slice(1).map((s) => s.url)];
    const at = servers.map((server, i) => text.indexOf(`${server.description}\n${urls[i]}`));
    expect(
      at.every((index) => index >= 0),
      text,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The server selector above each sample offers the operation's URL on every server.
    expect(inspection.serverChoices, inspection.serverChoicesProblem).toHaveLength(3);
    for (const [i, url] of urls.entries()) expect(inspection.serverChoices[i]).toContain(url);
    expect(inspection.serverChoices[1]).toContain(servers[1]!.description);
  });

  it.each(GUIDE_WIDTHS)("at %i px, the right panel's code samples fit, clear of their copy button", (width) => {
    const samples = inspection.layout.find((l) => l.width === width)?.samples ?? [];
    expect(samples).toHaveLength(sampleSections.length * SAMPLE_LANGUAGES.length);
    for (const sample of samples) {
      const label = `${sample.section} (${sample.language})`;
      expect(sample.viewportWidth, label).toBe(width);
      expect(sample.blocks, label).toBeGreaterThanOrEqual(2);
      expect(sample.requestText, label).toMatch(sample.language === "curl" ? /^curl / : /^import /);
      expect(sample.overflowing, label).toEqual([]);
      expect(sample.copyOverlaps, label).toEqual([]);
    }
  });

  it("is one self-contained file", async () => {
    const html = await readFile(DEFAULT_OUT, "utf8");
    expect(() => assertOffline(html)).not.toThrow();
  });
});

/** A page with each layout defect the browser test looks for, in the markup Redoc renders. */
const BROKEN_LAYOUT =
  '<div data-section-id="/"><h1 style="width:120px;font-size:28px">Talent Graph API (1.0.0)</h1>' +
  "<p>HTTP JSON API over a graph of people and companies.</p>" +
  "<p>The service is an HTTP JSON API over a graph of people and companies.</p></div>" +
  '<div data-section-id="/section/errors" style="width:400px"><table style="table-layout:fixed;width:100%"><tr>' +
  '<td style="width:60px;overflow-wrap:anywhere">certification_target_unsupported</td><td>Target create</td></tr></table></div>' +
  '<div data-section-id="/x/op">' +
  ["request", "response"]
    .map(
      (panel) =>
        `<div class="panel-${panel}-samples" style="width:300px"><div data-component-name="CodeBlock/CodeBlock" style="position:relative">` +
        '<button data-testid="copy-button" style="position:absolute;right:0;top:0;width:30px;height:20px">c</button>' +
        (panel === "request"
          ? "<pre style=\"margin:0;overflow:auto\">curl -sS 'https://api.talent-graph.example/v1/people?nl=senior+backend'"
          : '<pre style="margin:0;white-space:pre-wrap">{ "note": "words that wrap across the panel, under its copy button" }') +
        "</pre></div></div>",
    )
    .join("") +
  "</div>";

describe("the browser check catches a leaking page (negative)", () => {
  let dir = "";
  let inspection: Inspection;

  beforeAll(async () => {
    assertChromium();
    dir = await mkdtemp(path.join(os.tmpdir(), "docs-leak-"));
    const page = path.join(dir, "index.html");
    await writeFile(
      page,
      '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><h1>Leaky</h1>' +
        '<div data-section-id="/section/wide" style="width:400px"><pre style="overflow:auto">' +
        "x".repeat(300) +
        '</pre><table style="width:600px"><tr><td>cut</td></tr></table></div>' +
        BROKEN_LAYOUT +
        '<img src="https://cdn.redoc.ly/redoc/logo-mini.svg"><script>console.error("boom")</script></body></html>',
    );
    inspection = await inspectDocs({
      htmlFile: page,
      screenshot: path.join(dir, "shot.png"),
      guideWidths: [1280],
      guidesScreenshot: path.join(dir, "guides-{width}.png"),
      sections: [{ heading: "No such section" }],
      sampleSections: ["/x/op"],
      browser,
    });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("records and aborts requests to other hosts instead of hanging", () => {
    expect(inspection.external).toEqual(["https://cdn.redoc.ly/redoc/logo-mini.svg"]);
  });

  it("records console errors", () => {
    expect(inspection.consoleErrors).toContain("boom");
  });

  it("reports a guide code block that scrolls and a table that sticks out of its column", () => {
    const blocks = inspection.guides[0]?.overflowing.map((o) => o.block) ?? [];
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(/^\/section\/wide pre \(scrollWidth \d+, clientWidth \d+, column 400\)$/);
    expect(blocks[1]).toMatch(/^\/section\/wide table /);
  });

  it("reports a wrapped title, a repeated intro sentence and a word broken mid-word in a guide table", () => {
    const layout = inspection.layout[0];
    expect(layout?.titleLines).toBeGreaterThan(1);
    expect(repeatedSentences(layout?.infoText ?? "")).toEqual(["http json api over a graph of people and companies"]);
    // The word is cut once per line it spans; each entry marks one cut.
    expect(layout?.brokenWords.length).toBeGreaterThan(0);
    for (const word of layout?.brokenWords ?? []) {
      expect(word).toMatch(/^\w+\|\w+$/);
      expect(word.replace("|", "")).toBe("certification_target_unsupported");
    }
  });

  it("reports a code sample that scrolls sideways, and a copy button over sample text", () => {
    const [sample] = inspection.layout[0]?.samples ?? [];
    expect(sample?.blocks).toBe(2);
    expect(sample?.overflowing).toHaveLength(1);
    expect(sample?.overflowing[0]).toMatch(/^\/x\/op request sample \(scrollWidth \d+, clientWidth \d+, panel 300\)$/);
    expect(sample?.copyOverlaps).toContain("/x/op response sample");
  });

  it("reports a section that never renders", () => {
    expect(inspection.sections.get("No such section")).toBeNull();
  });

  it("says why a page has no server selector, printing nothing", () => {
    expect(inspection.serverChoices).toEqual([]);
    expect(inspection.serverChoicesProblem).toMatch(/^server selector of \/x\/op: /);
  });
});
