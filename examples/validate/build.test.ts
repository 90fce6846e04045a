/**
 * The development-only validation (main.ts) built as an app's bundler builds it: for production (minified,
 * `process.env.NODE_ENV` defined as "production") the output holds no byte of the spec or the schema checker;
 * for development the same entry carries both (so the check can fail). An app that never imports
 * `client/validate` is the production case without the branch.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleApp } from "../app-bundle.js";

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), "main.ts");
/** Bytes only validation brings: the spec's header and an operationId, the checker's output words, its messages. */
const VALIDATION_MARKERS = ["x-generated", "listPersonCoworkers", "keywordLocation", "breaks the contract"];

const bundle = (mode: "production" | "development") => bundleApp(ENTRY, mode);

describe("validation in development only", () => {
  it("the production build holds no spec and no checker; the development build both", async () => {
    const production = await bundle("production");
    const development = await bundle("development");
    for (const marker of VALIDATION_MARKERS) expect(development, `development build has ${marker}`).toContain(marker);
    expect(VALIDATION_MARKERS.filter((marker) => production.includes(marker))).toEqual([]);
    expect(production.length).toBeLessThan(40_000);
    expect(development.length).toBeGreaterThan(100_000);
  });
});
