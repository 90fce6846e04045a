/**
 * The typed-client samples in the docs must compile against the project's client: each one is written
 * to a scratch module with `talent-graph-api-contract/client` mapped to client/index.ts and type-checked
 * with the strict compiler options of the project, as the Node programs they are (they read process.env).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_MODULE, type CodeSample } from "./code-samples.js";
import { DEFAULT_SPEC, readBundle, ROOT } from "./build.js";
import { OPERATIONS } from "../../contract-core/index.js";
import { listOperations } from "./openapi.js";
import { prepareDocsSpec } from "./prepare-spec.js";

const CLIENT_ENTRY = path.join(ROOT, "client", "index.ts");

const SAMPLE_COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  // Node's environment: the project's ES2023 and @types/node (fetch and the rest), without the DOM's types: a Node
  // program has no DOM, and the check would parse and bind them for nothing.
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  typeRoots: [path.join(ROOT, "node_modules", "@types")],
  paths: { [CLIENT_MODULE]: [CLIENT_ENTRY] },
};

function typeCheck(files: string[]): string[] {
  const program = ts.createProgram(files, SAMPLE_COMPILER_OPTIONS);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${path.basename(diagnostic.file.fileName)}: ` : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}

const ready = existsSync(CLIENT_ENTRY) && existsSync(DEFAULT_SPEC);

/** A sample that must not compile: proves the check can fail. */
const WRONG_SAMPLE = [
  `import { createTalentGraphClient } from "${CLIENT_MODULE}";`,
  'const client = createTalentGraphClient({ baseUrl: "https://api.talent-graph.example/v1", apiKey: "k" });',
  'await client.GET("/no-such-path", { params: { path: { slug: 1 } } });',
  "export {};",
].join("\n");

describe("typed-client samples compile against the client", () => {
  let dir = "";
  let samples = 0;
  let errors: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "docs-samples-"));
    if (!ready) return;
    const { doc } = prepareDocsSpec(await readBundle(DEFAULT_SPEC));
    const files = [path.join(dir, "wrong.mts")];
    await writeFile(files[0]!, WRONG_SAMPLE);
    for (const op of listOperations(doc)) {
      const sample = (op.operation["x-codeSamples"] as unknown as CodeSample[]).find((s) => s.label === "Typed client");
      const file = path.join(dir, `${String(op.operation.operationId)}.mts`);
      await writeFile(file, `${sample?.source ?? ""}\nexport {};\n`);
      files.push(file);
      samples += 1;
    }
    // One program for all files: loading the client's types is the slow part.
    errors = typeCheck(files);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("has the client and the bundle to check against", () => {
    expect(existsSync(CLIENT_ENTRY), `${CLIENT_ENTRY} is missing`).toBe(true);
    expect(existsSync(DEFAULT_SPEC), `${DEFAULT_SPEC} is missing: run \`npm run generate\``).toBe(true);
  });

  it.runIf(ready)("every operation's sample type-checks", () => {
    expect(samples).toBe(OPERATIONS.length);
    expect(errors.filter((error) => !error.startsWith("wrong.mts: "))).toEqual([]);
  });

  it.runIf(ready)("catches a sample that does not match the client (negative)", () => {
    expect(errors.filter((error) => error.startsWith("wrong.mts: ")).join("\n")).toMatch(/no-such-path/);
  });
});
