// The ./client/validate export built (esbuild bundle + declarations): it runs from the built file alone (the
// spec and the checker inside, no import of the project's sources), and the package export points at it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClientValidate } from "../../scripts/build/build.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("npm run build: ./client/validate", () => {
  let outDir = "";
  let files: string[] = [];
  beforeAll(async () => {
    mkdirSync(path.join(ROOT, "dist"), { recursive: true });
    outDir = mkdtempSync(path.join(ROOT, "dist", ".test-build-"));
    files = (await buildClientValidate({ outDir, typeCheck: false })).files;
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("writes the files the package export points at", async () => {
    const { default: pkg } = await import("../../package.json", { with: { type: "json" } });
    const target = pkg.exports["./client/validate"];
    expect(files).toContain(path.posix.relative("dist", target.types));
    expect(files).toContain(path.posix.relative("dist", target.default));
    expect(pkg.files).toContain("dist/client-validate/");
  });

  it("runs from the built bundle, which imports nothing", async () => {
    const bundle = path.join(outDir, "client-validate", "index.js");
    expect(readFileSync(bundle, "utf8")).not.toMatch(/^import\s|from\s*"/m);
    const built = await import(pathToFileURL(bundle).href);
    const middleware = built.validateAnswers();
    const check = (body: unknown) =>
      middleware.onResponse({
        request: new Request("https://api.talent-graph.example/v1/me"),
        response: Response.json(body),
        schemaPath: "/me",
      });
    await expect(check({ data: 1 })).rejects.toThrow(
      /^getAccount \(GET \/me\) answered 200, which breaks the contract at \/data/,
    );
  });
});
