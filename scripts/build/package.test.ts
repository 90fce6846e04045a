/**
 * The package works after install: `npm pack` (the built dist/ inside), install the tarball with msw into an
 * empty project (offline, from the npm cache), type-check a consumer of "./client" and "./msw" with tsc,
 * and run it under msw/node. The client export stays free of server code.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildClient, buildMsw, CONSUMER_COMPILER_OPTIONS } from "./build.js";
import { repoRoot } from "../generate.js";

const MSW_VERSION = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).devDependencies.msw as string;
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

const CONSUMER_TS = `
import { createTalentGraphClient } from "talent-graph-api-contract/client";
import { createMockHandlers, createSandboxHandlers } from "talent-graph-api-contract/msw";
import { setupServer } from "msw/node";

const sandbox = createSandboxHandlers({ baseUrl: "http://app.test/v1", seed: 7 });
const server = setupServer(...sandbox.handlers, ...createMockHandlers({ baseUrl: "http://mock.test/v1" }).handlers);
server.listen({ onUnhandledFrame: "error" });
const key: string = sandbox.keys[0]!.key;
const client = createTalentGraphClient({ baseUrl: "http://app.test/v1", apiKey: key });
const found = await client.GET("/people", { params: { query: { limit: 2 } } });
const first: string | null | undefined = found.data?.data[0]?.slug;
// @ts-expect-error unknown path of the API
void client.GET("/nope");
// @ts-expect-error persist takes a boolean, a storage key or a StateStorage
export const wrong = () => createSandboxHandlers({ persist: 42 });
const mock = await fetch("http://mock.test/v1/people?view=compact", { headers: { authorization: "Bearer any" } });
console.log(JSON.stringify({ status: found.response.status, first, count: found.data?.data.length, mock: mock.status }));
server.close();
sandbox.close();
`;

describe("the installed package", () => {
  let dir = "";
  let stage = "";
  /** `npm pack --json`'s report of the tarball it wrote (its file list is what ships). */
  let packed = "";
  beforeAll(async () => {
    // The package is staged (package.json + a fresh dist/) so the checkout's dist/ is never touched while
    // other tests watch it; inside dist/.test-build-* so openapi-fetch and msw still resolve for the build.
    mkdirSync(path.join(repoRoot, "dist"), { recursive: true });
    stage = mkdtempSync(path.join(repoRoot, "dist", ".test-build-package-"));
    copyFileSync(path.join(repoRoot, "package.json"), path.join(stage, "package.json"));
    // Emit only: npm run typecheck checks the sources; the consumer check below checks what ships.
    buildClient({ outDir: path.join(stage, "dist"), typeCheck: false });
    await buildMsw({ outDir: path.join(stage, "dist"), typeCheck: false });
    dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-package-"));
    packed = npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir], stage);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    npm(["install", "--prefer-offline", "--ignore-scripts", `./${tarball}`, `msw@${MSW_VERSION}`], dir);
    writeFileSync(path.join(dir, "consumer.ts"), CONSUMER_TS);
  }, 60_000);
  afterAll(() => {
    for (const d of [dir, stage]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it("ships the built exports, the bundled spec and no sources or tests", () => {
    const names = (JSON.parse(packed) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(names).toEqual(
      expect.arrayContaining([
        "package.json",
        "dist/client/index.js",
        "dist/client/index.d.ts",
        "dist/msw/index.js",
        "dist/mocks/sandbox/hosts/msw.d.ts",
      ]),
    );
    expect(names.filter((n) => !n.startsWith("dist/") && n !== "package.json")).toEqual([]);
    expect(names.filter((n) => /\.test\.|\.ts$/.test(n) && !n.endsWith(".d.ts"))).toEqual([]);
    // The spec travels inside the bundle: its server URL is the default base URL.
    expect(readFileSync(path.join(dir, "node_modules/talent-graph-api-contract/dist/msw/index.js"), "utf8")).toContain(
      "{origin}/v1",
    );
  });

  it("type-checks a consumer of ./client and ./msw with tsc (and rejects wrong calls)", () => {
    const program = ts.createProgram([path.join(dir, "consumer.ts")], CONSUMER_COMPILER_OPTIONS);
    const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages).toEqual([]);
    // The declarations resolved (an unresolved module would type the calls as any and pass silently).
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(path.join(dir, "consumer.ts"))!;
    const handlers = source.statements.find(
      (s) => ts.isVariableStatement(s) && s.getText().includes("const sandbox"),
    )! as ts.VariableStatement;
    const type = checker.typeToString(checker.getTypeAtLocation(handlers.declarationList.declarations[0]!.name));
    expect(type).toBe("SandboxHandlers");
  });

  it("runs under msw/node: the typed client reaches the in-process sandbox, the mock answers examples", () => {
    const js = ts.transpileModule(CONSUMER_TS, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(path.join(dir, "consumer.mjs"), js);
    const out = execFileSync("node", ["consumer.mjs"], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({
      status: 200,
      first: expect.any(String),
      count: 2,
      mock: 200,
    });
  });

  it("keeps ./client free of server code and hides everything not exported", () => {
    const clientFiles = readdirSync(path.join(dir, "node_modules/talent-graph-api-contract/dist/client"));
    for (const file of clientFiles.filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(path.join(dir, "node_modules/talent-graph-api-contract/dist/client", file), "utf8");
      expect(text, file).not.toMatch(/from "(msw|fastify|ajv)|\/mocks\//);
    }
    const hidden = `import("talent-graph-api-contract/dist/mocks/sandbox/hosts/msw.d.ts").catch((e) => console.log(e.code))`;
    expect(execFileSync("node", ["--input-type=module", "-e", hidden], { cwd: dir, encoding: "utf8" }).trim()).toBe(
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
    );
  });
});
