/**
 * The trace page beside the reference page: `npm run docs` writes trace.html (scripts/trace/page.ts) next to
 * index.html, and the reference page links to it with one small fixed link.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { referencePath, runTrace } from "../trace/cli.js";
import { renderTracePage } from "../trace/page.js";

export const TRACE_LINK = `<a id="trace-link" href="trace.html" style="position:fixed;bottom:8px;left:8px;z-index:100;font:12px sans-serif;background:#fff;padding:2px 6px;border:1px solid #ccc;border-radius:4px">Trace: each statement of the reference to the spec and its checks</a>`;

/** The page with the link to trace.html before `</body>` (once). */
export function withTraceLink(html: string): string {
  return html.includes('id="trace-link"') ? html : html.replace(/<\/body>/i, `${TRACE_LINK}\n</body>`);
}

/** Writes trace.html beside `indexFile`; returns its path. */
export async function writeTracePage(indexFile: string): Promise<string> {
  const { report, bundle } = runTrace({ reference: referencePath(undefined) });
  const file = path.join(path.dirname(indexFile), "trace.html");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, renderTracePage(report, bundle as Parameters<typeof renderTracePage>[1]));
  return file;
}
