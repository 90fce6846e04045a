/**
 * For the browser tests of these examples: builds a page (default: the example page) into a temporary
 * directory before the test file's tests and serves it from 127.0.0.1; removed after them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { PageServer } from "../../scripts/docs/http.js";
import { buildExamplePage } from "./build.js";
import { serveExamplePage } from "./page.js";

/** The served page's origin (http://127.0.0.1:<port>), once the test file's beforeAll ran. */
export function servedExamplePage(entry?: string, html?: string): { origin(): string } {
  let dir = "";
  let server: PageServer | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-msw-page-"));
    await buildExamplePage(dir, entry, html);
    server = await serveExamplePage(dir);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return { origin: () => server!.origin };
}
