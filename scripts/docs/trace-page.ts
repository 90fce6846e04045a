/**
 * The trace page beside the reference page: `npm run docs` writes trace.html (scripts/trace/page.ts) next to
 * index.html, and the reference page's introduction links to it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { referencePath, runTrace } from "../trace/cli.js";
import { renderTracePage } from "../trace/page.js";

/** The sentence the reference page's introduction gains, before its first guide. */
export const TRACE_INTRO =
  "Each statement of the API reference, traced to the part of this description that encodes it and to the " +
  "check that proves it: [the trace](trace.html).";

/** A copy of the bundle whose introduction links to trace.html (once). */
export function withTraceLink<T extends { info?: { description?: string } }>(doc: T): T {
  const description = doc.info?.description ?? "";
  if (description.includes("(trace.html)")) return doc;
  const at = description.search(/^## /m);
  const text =
    at < 0
      ? `${description.trimEnd()}\n\n${TRACE_INTRO}\n`
      : `${description.slice(0, at)}${TRACE_INTRO}\n\n${description.slice(at)}`;
  return { ...doc, info: { ...doc.info, description: text } };
}

/** Writes trace.html beside `indexFile`; returns its path. */
export async function writeTracePage(indexFile: string): Promise<string> {
  const { report, bundle } = runTrace({ reference: referencePath(undefined) });
  const file = path.join(path.dirname(indexFile), "trace.html");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, renderTracePage(report, bundle as Parameters<typeof renderTracePage>[1]));
  return file;
}
