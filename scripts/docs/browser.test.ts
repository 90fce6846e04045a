/** Which Chromium the browser tests launch: the packaged one by default, `CHROMIUM_PATH` when set. */
import { statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, WEB_SECURITY_OFF, launchChromium, resolveChromium } from "./browser.js";

describe("resolveChromium", () => {
  it("uses the Chromium inside @sparticuz/chromium, unpacked once into a folder of its version", async () => {
    // Two at once, as parallel test files do: both get the same complete binary.
    const [chromium, again] = await Promise.all([resolveChromium({}), resolveChromium({})]);
    expect(chromium.source).toBe("@sparticuz/chromium");
    expect(chromium.path).toBe(path.join(os.tmpdir(), "talent-graph-chromium-153.0.0", "chromium"));
    expect(again).toEqual(chromium);
    expect(statSync(chromium.path).mode & 0o100).toBeTruthy();
    expect(chromium.args).toEqual(expect.arrayContaining(CHROMIUM_ARGS));
    for (const arg of WEB_SECURITY_OFF) expect(chromium.args).not.toContain(arg);
  });

  it("keeps the same-origin policy: a page cannot read another origin's answer that sends no CORS header", async () => {
    const listen = (server: Server) =>
      new Promise<number>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
      );
    const other = createServer((_, res) => res.end("secret"));
    const page = createServer((_, res) => res.setHeader("content-type", "text/html").end("<p>page</p>"));
    const [otherPort, pagePort] = [await listen(other), await listen(page)];
    const browser = await launchChromium();
    try {
      const tab = await browser.context.newPage();
      await tab.goto(`http://127.0.0.1:${pagePort}/`);
      const read = (url: string) =>
        tab.evaluate(
          (url) =>
            fetch(url).then(
              (r) => r.text(),
              (e: Error) => `refused: ${e.name}`,
            ),
          url,
        );
      // The same origin reads its own answer; another origin (another port) without CORS headers cannot.
      expect(await read(`http://127.0.0.1:${pagePort}/`)).toContain("page");
      expect(await read(`http://127.0.0.1:${otherPort}/`)).toBe("refused: TypeError");
    } finally {
      await browser.close();
      other.close();
      page.close();
    }
  });

  it("honours CHROMIUM_PATH", async () => {
    const chromium = await resolveChromium({ CHROMIUM_PATH: process.execPath });
    expect(chromium).toEqual({ path: process.execPath, args: CHROMIUM_ARGS, source: "CHROMIUM_PATH" });
  });

  it("names CHROMIUM_PATH when it points at nothing (negative)", async () => {
    await expect(resolveChromium({ CHROMIUM_PATH: "/nonexistent/chrome" })).rejects.toThrow(
      "CHROMIUM_PATH names /nonexistent/chrome, which does not exist.",
    );
  });
});
