/**
 * The dev-only loading pattern (dev-only/main.ts) built as an app's bundler builds it: for production
 * (`process.env.NODE_ENV` defined as "production", minified) the output holds none of the kit: no msw, no
 * sandbox, no spec, no test key; for development the same entry carries all of it (so the check can fail),
 * and no code made from text (`new Function`, `eval`), which a strict Content-Security-Policy would refuse.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleApp } from "../app-bundle.js";

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "dev-only/main.ts");
/** Bytes only the kit brings: msw's worker handshake, the sandbox's keys and control routes, the spec. */
const KIT_MARKERS = [
  "MOCK_ACTIVATE",
  "mockServiceWorker",
  "tgsb_acme_",
  "/__sandbox/",
  "x-generated",
  "onUnhandledFrame",
];

const bundle = (mode: "production" | "development") => bundleApp(ENTRY, mode);

describe("the dev-only loading pattern", () => {
  it("the production build holds none of the kit; the development build all of it", async () => {
    const production = await bundle("production");
    const development = await bundle("development");
    for (const marker of KIT_MARKERS) expect(development, `development build has ${marker}`).toContain(marker);
    expect(KIT_MARKERS.filter((marker) => production.includes(marker))).toEqual([]);
    expect(production.length).toBeLessThan(40_000); // the client and the app: a few KB minified
    expect(development.length).toBeGreaterThan(500_000);
    // No code made from text: a page whose Content-Security-Policy has no 'unsafe-eval' runs the kit.
    expect(development.match(/\bnew Function\b|\beval\s*\(/g)).toBeNull();
  });
});
