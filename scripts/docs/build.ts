/**
 * Builds the single-file API reference: bundle -> docs copy (code samples, shape notices) ->
 * `redocly build-docs --inlineBundle` -> offline post-processing -> checks -> atomic write.
 */
import { existsSync } from "node:fs";
import { mkdtemp, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { threadId } from "node:worker_threads";
import path from "node:path";
import { SAMPLE_LANGUAGES } from "./code-samples.js";
import { listOperations, type OpenApiDoc } from "./openapi.js";
import { DEFAULT_SPEC_PATH, InputError, REPO_ROOT, loadSpec, redocly } from "../../contract-core/index.js";
import { prepareDocsSpec } from "./prepare-spec.js";
import { withChangelogLinks } from "./changelog-links.js";
import { versionedTitle, withReleaseInfo } from "./release-info.js";
import { withTraceLink } from "./trace-page.js";
import { bundleTryIt, withTryIt } from "./try-it/bundle.js";
import { CUSTOM_TARGETS, serverOrigins, withReferenceCsp } from "./csp.js";
import { withContrast } from "./contrast.js";
import { withDownloadLinks, writeDownloads } from "./downloads.js";

export const ROOT = REPO_ROOT;
export const DEFAULT_SPEC = DEFAULT_SPEC_PATH;
export const DEFAULT_OUT = path.join(ROOT, "dist", "docs", "index.html");

/** Redoc options (Redoc CE 3); passed explicitly so no redocly.yaml can change the output. */
export const REDOC_OPTIONS = {
  layout: "three-panel",
  jsonSamplesExpandLevel: 3,
  schemasExpansionLevel: 1,
  sortRequiredPropsFirst: true,
  maxDisplayedEnumValues: 12,
  // Redoc 3 shows only the x-codeSamples whose label is in this list; Payload is the request body.
  codeSamples: {
    languages: [...SAMPLE_LANGUAGES.map(({ lang, label }) => ({ lang, label })), { lang: "payload", label: "Payload" }],
  },
};

/**
 * Remote resources the Redoc 3 page fetches on its own. The attribution logo in the sidebar is an
 * <img> with a CDN URL and no option to turn it off, so it is replaced by an inline SVG.
 */
const LOCAL_LOGO =
  "data:image/svg+xml," +
  encodeURIComponent(
    "<svg xmlns='http://www.w3.org/2000/svg' width='44' height='12' viewBox='0 0 44 12'>" +
      "<text x='0' y='10' font-family='sans-serif' font-size='10' font-weight='600' fill='currentColor'>Redocly</text></svg>",
  );
const REMOTE_LOGOS = [/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g];

/** A path relative to the project when inside it, else absolute (for messages). */
export function displayPath(file: string): string {
  const relative = path.relative(ROOT, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : path.resolve(file);
}

export interface BuildOptions {
  specPath?: string;
  /** The bundle itself, instead of reading `specPath`. */
  doc?: OpenApiDoc;
  outFile?: string;
  title?: string;
}

export interface BuildResult {
  outFile: string;
  bytes: number;
  operations: number;
  warnings: string[];
  shapeNotShown: Map<string, string[]>;
}

export async function readBundle(specPath: string): Promise<OpenApiDoc> {
  if (!existsSync(specPath))
    throw new InputError(
      `Spec bundle not found at ${displayPath(specPath)}${path.resolve(specPath) === path.resolve(DEFAULT_SPEC) ? ": run `npm run generate` first" : ""}`,
    );
  return loadSpec(specPath) as OpenApiDoc;
}

export async function buildDocs(options: BuildOptions = {}): Promise<BuildResult> {
  const specPath = path.resolve(options.specPath ?? DEFAULT_SPEC);
  const outFile = path.resolve(options.outFile ?? DEFAULT_OUT);
  const source = options.doc ?? (await readBundle(specPath));
  const { doc, warnings, shapeNotShown } = prepareDocsSpec(
    withReleaseInfo(withDownloadLinks(withTraceLink(withChangelogLinks(source)))),
  );
  const scratch = await mkdtemp(path.join(os.tmpdir(), "talent-graph-docs-"));
  try {
    const input = path.join(scratch, "openapi.json");
    const rawHtml = path.join(scratch, "redoc.html");
    await writeFile(input, JSON.stringify(doc));
    const args = ["build-docs", input, "--inlineBundle", "-o", rawHtml, "--lint-config", "off"];
    args.push("--openapi", JSON.stringify(REDOC_OPTIONS));
    const title = options.title ?? versionedTitle(doc);
    if (title) args.push("--title", title);
    // Try it runs the project's sandbox, which answers the bundle in generated/: a page of another spec has none.
    const ownSpec = options.doc === undefined && specPath === path.resolve(DEFAULT_SPEC);
    const [, tryIt] = await Promise.all([redocly(args, scratch), ownSpec ? bundleTryIt() : null]);
    const page = withContrast(withPageStyles(makeOffline(await readFile(rawHtml, "utf8"))));
    // The policy goes in last: it hashes the page's scripts as they are (scripts/docs/csp.ts).
    const html = withReferenceCsp(tryIt ? withTryIt(page, tryIt) : page, [...serverOrigins(doc), ...CUSTOM_TARGETS]);
    assertOffline(html);
    await mkdir(path.dirname(outFile), { recursive: true });
    // A file per process and thread: builds running at once (the test workers, say) each rename a whole page.
    const partial = `${outFile}.${process.pid}-${threadId}.tmp`;
    await writeFile(partial, html);
    await rename(partial, outFile);
    await writeDownloads(source, path.dirname(outFile));
    return { outFile, bytes: Buffer.byteLength(html), operations: listOperations(doc).length, warnings, shapeNotShown };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export function makeOffline(html: string): string {
  const page = REMOTE_LOGOS.reduce((text, pattern) => text.replace(pattern, LOCAL_LOGO), html);
  // An explicit empty icon keeps browsers from requesting /favicon.ico.
  return /rel=["']?icon/i.test(page) ? page : page.replace(/<head>/i, '<head>\n  <link rel="icon" href="data:," />');
}

/**
 * Layout fixes for the 1280-1440 px widths the browser test checks. Redoc's own styles are injected at runtime
 * after this one, hence `!important`.
 * - The guides (the sections of info.description) sit in the middle column, about 400-460 px wide: their
 *   tables and code blocks wrap inside it instead of scrolling or being cut at its edge.
 * - The title (`[data-section-id="/"]`) fits one line: a smaller size, and the page-actions button moves
 *   below it when both do not fit side by side.
 * - The right panel's code samples (request and response) wrap instead of scrolling sideways, and keep
 *   clear of the copy button in their top-right corner.
 */
export const PAGE_STYLES = `<style id="readable-page">
  [data-section-id^="/section/"] pre { white-space: pre-wrap !important; overflow-wrap: anywhere !important; }
  [data-section-id^="/section/"] pre code { white-space: inherit !important; }
  [data-section-id^="/section/"] table { table-layout: fixed !important; width: 100% !important; }
  [data-section-id^="/section/"] th:first-child { width: 5.5em; overflow-wrap: normal !important; }
  [data-section-id^="/section/"] th, [data-section-id^="/section/"] td { overflow-wrap: anywhere !important; word-break: normal !important; white-space: normal !important; }
  [data-section-id="/"] div:has(> div > h1) { flex-wrap: wrap !important; row-gap: 8px; }
  [data-section-id="/"] h1 { font-size: 28px !important; line-height: 36px !important; }
  :is(.panel-request-samples, .panel-response-samples) pre { white-space: pre-wrap !important; overflow-wrap: anywhere !important; padding-right: 40px !important; }
  :is(.panel-request-samples, .panel-response-samples) pre code { white-space: inherit !important; }
</style>`;

export function withPageStyles(html: string): string {
  return html.includes('id="readable-page"') ? html : html.replace(/<\/head>/i, `${PAGE_STYLES}\n</head>`);
}

/** Static checks on the built page; the browser test is the runtime proof. */
export function assertOffline(html: string): void {
  const problems: string[] = [];
  // Markup only: the inlined bundle legitimately contains these words inside its code.
  const markup = html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, "$1$2");
  if (/<script[^>]+\bsrc\s*=/i.test(markup)) problems.push("a <script src> (the Redoc bundle must be inlined)");
  if (/<link[^>]+\bhref\s*=\s*["']?(?:https?:)?\/\//i.test(markup)) problems.push("a <link> to a remote host");
  if (/<img[^>]+\bsrc\s*=\s*["']?(?:https?:)?\/\//i.test(markup)) problems.push("an <img> from a remote host");
  if (/modulepreload/i.test(markup)) problems.push("a modulepreload of a remote bundle");
  if (!/hydrate\(__redoc_definition/.test(html)) problems.push("no inline Redoc hydration script");
  if (REMOTE_LOGOS.some((pattern) => new RegExp(pattern.source).test(html))) problems.push("the remote Redocly logo");
  if (!/"disableTelemetry":true/.test(html)) problems.push("Redoc telemetry enabled (REDOCLY_TELEMETRY=off missing?)");
  if (problems.length > 0) throw new Error(`The docs page is not self-contained: it has ${problems.join("; ")}`);
}
