import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClient, checkClientEntry, CONSUMER_COMPILER_OPTIONS } from "../scripts/build/build.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const compilerOptions = CONSUMER_COMPILER_OPTIONS;

describe("npm run build:client", () => {
  // Inside the project (dist/ is ignored by git) so that the output resolves openapi-fetch.
  let outDir = "";
  let files: string[] = [];
  beforeAll(() => {
    mkdirSync(path.join(ROOT, "dist"), { recursive: true });
    outDir = mkdtempSync(path.join(ROOT, "dist", ".test-build-"));
    files = buildClient({ outDir, typeCheck: false }).files; // npm run typecheck checks the sources
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it("emits ESM with declarations, and the generated schema types beside them", () => {
    expect(files).toEqual(expect.arrayContaining(["client/index.js", "client/index.d.ts", "generated/schema.d.ts"]));
    expect(files.some((file) => /test|fixtures|bench/.test(file))).toBe(false);
  });

  it("works at runtime from the built files", async () => {
    const built = await import(pathToFileURL(path.join(outDir, "client", "index.js")).href);
    const client = built.createTalentGraphClient({
      baseUrl: "https://api.talent-graph.example/v1",
      apiKey: "k",
      fetch: async () =>
        Response.json(
          { data: { slug: "priya-raman", full_name: "Priya Raman" } },
          { headers: { "x-ratelimit-limit": "300" } },
        ),
    });
    const result = await client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });
    expect(result.data.data.full_name).toBe("Priya Raman");
    expect(result.rateLimit.limit).toBe(300);
  });

  it("gives a consumer typed calls through the built declarations", () => {
    const consumer = path.join(outDir, "consumer.ts");
    writeFileSync(
      consumer,
      [
        'import { createTalentGraphClient } from "./client/index.js";',
        'const client = createTalentGraphClient({ baseUrl: "https://api.talent-graph.example/v1", apiKey: "k" });',
        'export const ok = client.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });',
        "// @ts-expect-error unknown path",
        'export const bad = client.GET("/nope");',
        "export const name = ok.then((r) => r.data?.data.full_name satisfies string | null | undefined);",
      ].join("\n"),
    );
    const program = ts.createProgram([consumer], compilerOptions);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });

  it("writes the files the package export ./client points at (relative to dist/)", async () => {
    const { default: pkg } = await import("../package.json", { with: { type: "json" } });
    const target = pkg.exports["./client"];
    expect(files).toContain(path.posix.relative("dist", target.types));
    expect(files).toContain(path.posix.relative("dist", target.default));
  });

  it("checks the entry of a build outside the project (--out elsewhere) with the project's packages, and fails a broken one", async () => {
    const outside = mkdtempSync(path.join(tmpdir(), "client-build-"));
    try {
      cpSync(outDir, path.join(outside, "good"), { recursive: true });
      mkdirSync(path.join(outside, "bad", "client"), { recursive: true });
      writeFileSync(
        path.join(outside, "bad", "client", "index.js"),
        'import "openapi-fetch";\nexport const other = 1;\n',
      );
      mkdirSync(path.join(outside, "missing", "client"), { recursive: true });
      writeFileSync(path.join(outside, "missing", "client", "index.js"), 'export * from "./gone.js";\n');
      // In this process, as `npm run build:client -- --out <dir>` runs it: the workers import as Node does.
      const check = (dir: string) => checkClientEntry(path.join(outside, dir));
      await expect(check("good")).resolves.toBeUndefined();
      await expect(check("bad")).rejects.toThrow("lacks createTalentGraphClient");
      // A relative import is the build's own file: it is reported where it was looked for, never from the project.
      await expect(check("missing")).rejects.toThrow(path.join(outside, "missing", "client", "gone.js"));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
