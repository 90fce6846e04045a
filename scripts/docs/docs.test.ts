/**
 * Browser test of the published reference: the packaged Chromium (playwright-core, headless, fresh
 * profile) opens dist/docs/index.html served from 127.0.0.1, every tag section is expanded and every
 * operation brought into view; no request may leave the machine, the console must stay free of errors,
 * and a full-page screenshot is saved next to the page. At 1280 and 1440 px no guide table or code block
 * may overflow its column, and a screenshot of the guides is saved per width. The docs are (re)built first
 * when missing or older than the bundle or the build scripts.
 */
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertChromium, inspectDocs, launchChromium, type Inspection, type LaunchedChromium } from "./browser.js";
import { assertOffline, buildDocs, DEFAULT_OUT, DEFAULT_SPEC, readBundle } from "./build.js";
import { isObject, listOperations, type OpenApiDoc } from "./openapi.js";
import { prepareDocsSpec, SHAPE_NOTICE_TITLE } from "./prepare-spec.js";

const SCREENSHOT = path.join(path.dirname(DEFAULT_OUT), "screenshot.png");
const GUIDE_WIDTHS = [1280, 1440];
const GUIDES_SCREENSHOT = path.join(path.dirname(DEFAULT_OUT), "guides-{width}.png");
const HERE = path.dirname(fileURLToPath(import.meta.url));
const BUILD_INPUTS = [
  DEFAULT_SPEC,
  ...["code-samples.ts", "build.ts", "openapi.ts", "prepare-spec.ts", "../../contract-core/redocly.ts"].map((f) =>
    path.join(HERE, f),
  ),
];

async function ensureBuilt(): Promise<"built" | "up to date"> {
  const newestInput = Math.max(...BUILD_INPUTS.map((file) => statSync(file).mtimeMs));
  if (existsSync(DEFAULT_OUT) && statSync(DEFAULT_OUT).mtimeMs >= newestInput) return "up to date";
  await buildDocs();
  return "built";
}

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

// One Chromium for the whole file: each inspection opens its own tab in it.
let browser: LaunchedChromium;
beforeAll(async () => {
  assertChromium();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe("published API reference in Chromium", () => {
  let doc: OpenApiDoc;
  let headings: Map<string, string>;
  let inspection: Inspection;
  let shapeNotShown: Map<string, string[]>;

  beforeAll(async () => {
    assertChromium();
    expect(existsSync(DEFAULT_SPEC), `${DEFAULT_SPEC} is missing: run \`npm run generate\``).toBe(true);
    const state = await ensureBuilt();
    doc = await readBundle(DEFAULT_SPEC);
    headings = tagHeadings(doc);
    shapeNotShown = prepareDocsSpec(doc).shapeNotShown;
    inspection = await inspectDocs({
      htmlFile: DEFAULT_OUT,
      screenshot: SCREENSHOT,
      guideWidths: GUIDE_WIDTHS,
      guidesScreenshot: GUIDES_SCREENSHOT,
      sections: [...headings.values()].map((heading) => ({ heading })),
      browser,
    });
    const { size } = await stat(DEFAULT_OUT);
    console.log(
      `docs (${state}): ${DEFAULT_OUT} ${size} bytes; ${inspection.requests.length} request(s), ` +
        `${inspection.external.length} external; screenshot ${SCREENSHOT}`,
    );
  }, 240_000);

  it("renders every operation in its tag section, headed by its summary", () => {
    const operations = listOperations(doc);
    expect(operations).toHaveLength(29);
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

  it("shows one base URL, with /v1, in the guides and the servers", () => {
    const servers = doc.servers as {
      url: string;
      variables: Record<string, { default: string }>;
      description: string;
    }[];
    const base = servers[0]!.url.replace("{origin}", servers[0]!.variables.origin!.default);
    expect(base).toBe("https://api.talent-graph.example/v1");
    const guides = String((doc.info as { description: string }).description);
    const urls = new Set([...guides.matchAll(/https?:\/\/[^\s`"')]+/g)].map((m) => m[0]));
    expect([...urls]).toEqual([base]);
    expect(servers[0]!.description).toContain(base);
    expect((doc.info as { contact?: { url?: string } }).contact?.url).toBeUndefined();
  });

  it("is one self-contained file", async () => {
    const html = await readFile(DEFAULT_OUT, "utf8");
    expect(() => assertOffline(html)).not.toThrow();
  });
});

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
        '<img src="https://cdn.redoc.ly/redoc/logo-mini.svg"><script>console.error("boom")</script></body></html>',
    );
    inspection = await inspectDocs({
      htmlFile: page,
      screenshot: path.join(dir, "shot.png"),
      guideWidths: [1280],
      guidesScreenshot: path.join(dir, "guides-{width}.png"),
      sections: [{ heading: "No such section" }],
      timeoutMs: 1_500,
      browser,
    });
  }, 60_000);

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

  it("reports a section that never renders", () => {
    expect(inspection.sections.get("No such section")).toBeNull();
  });
});
