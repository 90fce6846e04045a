/** Which Chromium the browser tests launch: the packaged one by default, `CHROMIUM_PATH` when set. */
import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, resolveChromium } from "./browser.js";

describe("resolveChromium", () => {
  it("uses the Chromium inside @sparticuz/chromium, unpacked once into a folder of its version", async () => {
    // Two at once, as parallel test files do: both get the same complete binary.
    const [chromium, again] = await Promise.all([resolveChromium({}), resolveChromium({})]);
    expect(chromium.source).toBe("@sparticuz/chromium");
    expect(chromium.path).toBe(path.join(os.tmpdir(), "talent-graph-chromium-153.0.0", "chromium"));
    expect(again).toEqual(chromium);
    expect(statSync(chromium.path).mode & 0o100).toBeTruthy();
    expect(chromium.args).toEqual(expect.arrayContaining(CHROMIUM_ARGS));
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
