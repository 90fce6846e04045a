/** Which Chromium the browser tests launch: the packaged one by default, `CHROMIUM_PATH` when set. */
import os from "node:os";
import { describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, resolveChromium } from "./browser.js";

describe("resolveChromium", () => {
  it("uses the Chromium inside @sparticuz/chromium, unpacked to the temp folder, when CHROMIUM_PATH is unset", async () => {
    const chromium = await resolveChromium({});
    expect(chromium.source).toBe("@sparticuz/chromium");
    expect(chromium.path.startsWith(os.tmpdir())).toBe(true);
    expect(chromium.path).not.toMatch(/^\/usr\//);
    expect(chromium.args).toEqual(expect.arrayContaining(CHROMIUM_ARGS));
  }, 60_000);

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
