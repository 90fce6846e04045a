/**
 * The package works after install: the staged package (pack.ts: the built dist/, the package README, a
 * package.json without scripts) packed, installed with msw into an empty project (offline, from the npm
 * cache); a consumer of "./client" and "./msw" type-checks with tsc and runs under msw/node; the bin starts the
 * sandbox, which answers the README's curl, and explains the mock's missing Prism. The client export stays free
 * of server code.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSUMER_COMPILER_OPTIONS } from "./build.js";
import { stagePackage } from "./pack.js";
import { repoRoot } from "../generate.js";

const MSW_VERSION = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).devDependencies.msw as string;
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

/** npm's whole output (warnings go to stderr), failing on a non-zero exit. */
function npmLog(args: string[], cwd: string, loglevel: string): string {
  const run = spawnSync("npm", [...args, "--no-audit", "--no-fund", `--loglevel=${loglevel}`], {
    cwd,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  return run.stdout + run.stderr;
}

const CONSUMER_TS = `
import { createTalentGraphClient } from "talent-graph-api-contract/client";
import { validateAnswers } from "talent-graph-api-contract/client/validate";
import { createMockHandlers, createSandboxHandlers } from "talent-graph-api-contract/msw";
import { setupServer } from "msw/node";

const sandbox = createSandboxHandlers({ baseUrl: "http://app.test/v1", seed: 7 });
const server = setupServer(...sandbox.handlers, ...createMockHandlers({ baseUrl: "http://mock.test/v1" }).handlers);
server.listen({ onUnhandledFrame: "error" });
const key: string = sandbox.keys.acme;
const client = createTalentGraphClient({ baseUrl: "http://app.test/v1", apiKey: key });
// Every answer below is checked against the spec by the package's ./client/validate (a mismatch throws).
client.use(validateAnswers());
const found = await client.GET("/people", { params: { query: { limit: 2 } } });
const first: string | null | undefined = found.data?.data[0]?.slug;
// @ts-expect-error unknown path of the API (sent anyway: ./client/validate refuses its answer)
const refused = await client.GET("/nope").then(() => "", (e: Error) => e.name);
// @ts-expect-error persist takes a boolean, a storage key or a StateStorage
export const wrong = () => createSandboxHandlers({ persist: 42 });
const mock = await fetch("http://mock.test/v1/people?view=compact", { headers: { authorization: "Bearer any" } });
const out = { status: found.response.status, first, count: found.data?.data.length, mock: mock.status, refused };
console.log(JSON.stringify(out));
server.close();
sandbox.close();
`;

/** A CommonJS consumer (Node 22.12+ loads ES modules with require when the exports allow it). */
const CONSUMER_CTS = `
import { createTalentGraphClient } from "talent-graph-api-contract/client";
import { createSandboxHandlers } from "talent-graph-api-contract/msw";

const sandbox = createSandboxHandlers({ baseUrl: "http://app.test/v1", timers: false });
const client = createTalentGraphClient({ baseUrl: "http://app.test/v1", apiKey: sandbox.keys.acme });
console.log(JSON.stringify({ client: typeof client.GET, handlers: sandbox.handlers.length }));
sandbox.close();
`;

describe("the installed package", () => {
  let dir = "";
  let stage = "";
  /** `npm pack --json`'s report of the tarball it wrote (its file list is what ships). */
  let packed = "";
  /** What npm said while installing the tarball (warnings included). */
  let installLog = "";
  const installed = (...parts: string[]) => path.join(dir, "node_modules/talent-graph-api-contract", ...parts);
  beforeAll(async () => {
    // The package is staged (package.json, README, a fresh dist/) so the checkout's dist/ is never touched while
    // other tests watch it; inside dist/.test-build-* so openapi-fetch and msw still resolve for the build.
    mkdirSync(path.join(repoRoot, "dist"), { recursive: true });
    stage = mkdtempSync(path.join(repoRoot, "dist", ".test-build-package-"));
    // Emit only: npm run typecheck checks the sources; the consumer check below checks what ships.
    await stagePackage(stage, { typeCheck: false });
    dir = mkdtempSync(path.join(os.tmpdir(), "talent-graph-package-"));
    packed = npm(["pack", "--json", "--ignore-scripts", "--pack-destination", dir], stage);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    installLog = npmLog(
      ["install", "--prefer-offline", `./${tarball}`, `msw@${MSW_VERSION}`, "--foreground-scripts"],
      dir,
      "warn",
    );
    writeFileSync(path.join(dir, "consumer.ts"), CONSUMER_TS);
    writeFileSync(path.join(dir, "consumer.cts"), CONSUMER_CTS);
  });
  /**
   * One tsc program over both consumers (an ES module and a CommonJS one: NodeNext reads each file's format from
   * its extension), so the package's declarations, msw's and the libraries are read and checked once; each test
   * reads the diagnostics of its own file.
   */
  let program: ts.Program | undefined;
  const consumerDiagnostics = (file: string) => {
    program ??= ts.createProgram(
      ["consumer.ts", "consumer.cts"].map((f) => path.join(dir, f)),
      CONSUMER_COMPILER_OPTIONS,
    );
    const source = program.getSourceFile(path.join(dir, file));
    if (!source) throw new Error(`${file} is not in the consumers' program`);
    return {
      source,
      messages: ts
        .getPreEmitDiagnostics(program, source)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    };
  };
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
        "dist/mocks/sandbox/hosts/msw/msw.d.ts",
        "dist/bin/talent-graph-api-contract.js",
        "dist/generated/openapi.json",
        "README.md",
      ]),
    );
    expect(names.filter((n) => !n.startsWith("dist/") && n !== "package.json" && n !== "README.md")).toEqual([]);
    // Every file the shipped package.json points at (each export condition, the bin) is in the tarball.
    const manifest = JSON.parse(readFileSync(installed("package.json"), "utf8")) as { exports: unknown; bin: unknown };
    const targets = (value: unknown): string[] =>
      typeof value === "string" ? [value.replace(/^\.\//, "")] : Object.values(value as object).flatMap(targets);
    const pointed = [...targets(manifest.exports), ...targets(manifest.bin)];
    expect(pointed.length).toBeGreaterThan(0);
    expect(pointed.filter((target) => !names.includes(target))).toEqual([]);
    expect(names.filter((n) => /\.test\.|\.ts$/.test(n) && !n.endsWith(".d.ts"))).toEqual([]);
    // The spec travels inside the bundles: its server URL is the default base URL.
    const msw = path.join(dir, "node_modules/talent-graph-api-contract/dist/msw");
    for (const bundle of ["sandbox.js", "mock.js"])
      expect(readFileSync(path.join(msw, bundle), "utf8"), bundle).toContain("{origin}/v1");
    // index.js only re-exports: the stateless handlers from mock.js, the rest from sandbox.js.
    expect(readFileSync(path.join(msw, "index.js"), "utf8")).toMatch(
      /^export \{ createMockHandlers \} from "\.\/mock\.js";\nexport \{ [^}]*createSandboxHandlers[^}]* \} from "\.\/sandbox\.js";\n$/,
    );
  });

  it("type-checks a consumer of ./client, ./client/validate and ./msw with tsc (and rejects wrong calls)", () => {
    const { source, messages } = consumerDiagnostics("consumer.ts");
    expect(messages).toEqual([]);
    // The declarations resolved (an unresolved module would type the calls as any and pass silently).
    const checker = program!.getTypeChecker();
    const handlers = source.statements.find(
      (s) => ts.isVariableStatement(s) && s.getText().includes("const sandbox"),
    )! as ts.VariableStatement;
    const type = checker.typeToString(checker.getTypeAtLocation(handlers.declarationList.declarations[0]!.name));
    expect(type).toBe("SandboxHandlers");
  });

  it("runs under msw/node: the typed client reaches the in-process sandbox, the mock answers examples, answers validated", () => {
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
      refused: "ContractMismatchError",
    });
  });

  it("a CommonJS project type-checks and requires ./client and ./msw", () => {
    expect(consumerDiagnostics("consumer.cts").messages).toEqual([]);
    const js = ts.transpileModule(CONSUMER_CTS, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    expect(js).toContain('require("talent-graph-api-contract/msw")');
    writeFileSync(path.join(dir, "consumer.cjs"), js);
    const out = execFileSync("node", ["consumer.cjs"], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ client: "function", handlers: 1 });
  });

  it("keeps ./client free of server code and hides everything not exported", () => {
    const clientFiles = readdirSync(path.join(dir, "node_modules/talent-graph-api-contract/dist/client"));
    for (const file of clientFiles.filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(path.join(dir, "node_modules/talent-graph-api-contract/dist/client", file), "utf8");
      expect(text, file).not.toMatch(/from "(msw|fastify|ajv)|\/mocks\//);
    }
    const hidden = `import("talent-graph-api-contract/dist/mocks/sandbox/hosts/msw/msw.d.ts").catch((e) => console.log(e.code))`;
    expect(execFileSync("node", ["--input-type=module", "-e", hidden], { cwd: dir, encoding: "utf8" }).trim()).toBe(
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
    );
  });

  it("ships a package.json without scripts or devDependencies, declaring its Node and its bin", () => {
    const manifest = JSON.parse(readFileSync(installed("package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.engines).toEqual({ node: expect.stringContaining("22.12") });
    expect(manifest.bin).toEqual({ "talent-graph-api-contract": "dist/bin/talent-graph-api-contract.js" });
    expect(installLog).not.toMatch(/script/i);
  });

  it("ships the package README, whose links all resolve inside the package", () => {
    const readme = readFileSync(installed("README.md"), "utf8");
    expect(readme).toContain("npx talent-graph-api-contract sandbox");
    expect(readme).not.toMatch(/npm run |examples\/|\.\.\//);
    for (const [, target] of readme.matchAll(/\]\(([^)]+)\)/g)) {
      expect(target, "a link outside the package").not.toMatch(/^[a-z]+:/i);
      if (!target!.startsWith("#")) expect(existsSync(installed(target!.split("#")[0]!)), target).toBe(true);
    }
  });

  it("runs the bin: --help of each command, the mock's missing Prism explained, an unknown command refused", () => {
    // `npx talent-graph-api-contract` (the README's way) once; the other calls run the link npm installed in
    // node_modules/.bin, which is what npx runs, without an npm process each.
    const bin = (args: string[], via: "npx" | "link" = "link") => {
      const [cmd, ...prefix] =
        via === "npx"
          ? ["npx", "talent-graph-api-contract"]
          : [path.join(dir, "node_modules/.bin/talent-graph-api-contract")];
      try {
        return {
          code: 0,
          out: execFileSync(cmd!, [...prefix, ...args], {
            cwd: dir,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
          }),
        };
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string };
        return { code: failed.status, out: failed.stdout + failed.stderr };
      }
    };
    expect(bin(["--help"], "npx")).toMatchObject({ code: 0, out: expect.stringContaining("Commands:") });
    expect(bin(["sandbox", "--help"])).toMatchObject({
      code: 0,
      out: expect.stringContaining("Usage: talent-graph-api-contract sandbox [options]"),
    });
    expect(bin(["mock", "--help"])).toMatchObject({
      code: 0,
      out: expect.stringContaining("Usage: talent-graph-api-contract mock [options]"),
    });
    expect(bin(["mock"])).toMatchObject({
      code: 2,
      out: expect.stringContaining("npm install --save-dev @stoplight/prism-http@5.16.0"),
    });
    expect(bin(["serve"])).toMatchObject({ code: 2, out: expect.stringContaining('unknown command "serve"') });
  });

  it("starts the sandbox from the installed package, and it answers the README's curl", async () => {
    const readme = readFileSync(installed("README.md"), "utf8");
    const curl = /curl -H 'Authorization: Bearer (tgsb_\w+)' 'http:\/\/127\.0\.0\.1:4011\/v1(\/people\?limit=2)'/.exec(
      readme,
    );
    expect(curl).not.toBeNull();
    const child = spawn(
      installed("dist/bin/talent-graph-api-contract.js"),
      ["sandbox", "--port", "0", "--people", "300"],
      {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      let out = "";
      child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /Base URL: (\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${baseUrl}${curl![2]}`, { headers: { authorization: `Bearer ${curl![1]}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(2);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
