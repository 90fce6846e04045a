/**
 * `npm run build [-- --out <dir>]` (also `prepack`, so `npm pack` and git installs get it): the package's
 * exports and bin in <dir> (default dist/); `npm run build:client` (scripts/build/build-client.ts) builds ./client
 * alone; `npm run pack` (pack.ts) stages and packs the package.
 *   ./client  client/ compiled to ESM + declarations in <dir>/client (openapi-fetch stays a dependency).
 *   ./msw     mocks/sandbox/hosts/msw/msw.ts bundled by esbuild into <dir>/msw/index.js with the sandbox, its
 *             spec JSON and its schema checker inside (msw stays an external peer), declarations under <dir>/mocks/.
 *   ./client/validate  client/validate/index.ts bundled by esbuild into <dir>/client-validate/index.js with its spec
 *             JSON and schema checker inside, declarations under <dir>/client/validate/ (validation for development).
 *   bin       scripts/build/bin-entry.ts bundled into <dir>/bin/ (buildBin), the spec at <dir>/generated/openapi.json.
 * The declarations import the generated OpenAPI types (generated/schema.d.ts); tsc does not emit .d.ts
 * inputs, so every declaration file of the project they use is copied to the same relative place under <dir>.
 * The whole build (buildPackage) compiles the three exports in one tsc program, so what they share is read,
 * type-checked and emitted once.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type ts from "typescript";
import { isMain, runCommand, type CommandSpec } from "../../contract-core/index.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The compiler and esbuild load on the first build, not on import: `--help` and importers that never build stay fast.
const require = createRequire(import.meta.url);
const compiler = (): typeof ts => require("typescript") as typeof ts;
const CONFIG = path.join(ROOT, "client", "tsconfig.build.json");
const PROJECT_PACKAGE_URL = pathToFileURL(path.join(ROOT, "package.json")).href;
export const MSW_ENTRY = "mocks/sandbox/hosts/msw/msw.ts";
export const VALIDATE_ENTRY = "client/validate/index.ts";

/** How a consumer project type-checks the built declarations (the build and packaging tests use it). */
// The enum values as numbers (the compiler is not loaded yet); the type checks each against its enum member.
export const CONSUMER_COMPILER_OPTIONS: ts.CompilerOptions = {
  module: 199 satisfies ts.ModuleKind.NodeNext,
  moduleResolution: 99 satisfies ts.ModuleResolutionKind.NodeNext,
  target: 9 satisfies ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true, // an unresolved import in the built .d.ts still shows: the calls turn untyped
  types: [],
};

export interface BuildResult {
  outDir: string;
  /** Files written or copied, relative to outDir. */
  files: string[];
}

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return compiler().formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  });
}

function isProjectDeclaration(file: ts.SourceFile): boolean {
  const relative = path.relative(ROOT, file.fileName);
  return file.isDeclarationFile && !relative.startsWith("..") && !relative.split(path.sep).includes("node_modules");
}

export interface BuildOptions {
  /** Default dist/. */
  outDir?: string;
  /**
   * Type-check before emitting (default true). Tests turn it off: `npm run typecheck` already checks
   * these files, and emitting alone is several times faster.
   */
  typeCheck?: boolean;
}

/** One export's share of the tsc output. */
interface Part {
  /** Source files it compiles (default: the config's files). */
  rootNames?: string[];
  /** Keep only the declarations (the code is esbuild's bundle). */
  declarationOnly?: boolean;
  /** Folders of outDir it owns (emptied first). */
  owns: string[];
  required: string[];
}

const CLIENT_PART: Part = {
  owns: ["client", "generated", "contract-core"],
  required: ["client/index.js", "client/index.d.ts"],
};
const VALIDATE_PART: Part = {
  rootNames: [path.join(ROOT, VALIDATE_ENTRY)],
  declarationOnly: true,
  owns: ["client-validate"],
  required: [VALIDATE_ENTRY.replace(/\.ts$/, ".d.ts")],
};
const MSW_PART: Part = {
  rootNames: [path.join(ROOT, MSW_ENTRY)],
  declarationOnly: true,
  owns: ["msw", "mocks"],
  required: [MSW_ENTRY.replace(/\.ts$/, ".d.ts")],
};

/**
 * One tsc program for the parts, with client/tsconfig.build.json's options: the files they share (the generated
 * types, the contract core, the DOM library) are read and type-checked once, and one emit writes them all. A
 * file's JavaScript is written when a part that keeps code reaches it; declarations always. Then the project's
 * .d.ts inputs the program uses, copied.
 */
function emit(outDir: string, typeCheck: boolean, parts: Part[]): { files: string[]; program: ts.Program } {
  const ts = compiler();
  const parsed = ts.getParsedCommandLineOfConfigFile(
    CONFIG,
    { outDir, noCheck: !typeCheck },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(formatDiagnostics([diagnostic]));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${CONFIG}`);
  if (parsed.errors.length > 0) throw new Error(formatDiagnostics(parsed.errors));

  for (const dir of parts.flatMap((p) => p.owns)) rmSync(path.join(outDir, dir), { recursive: true, force: true });
  const rootsOf = (part: Part) => part.rootNames ?? parsed.fileNames;
  // The programs share one parse of each file: the code parts' programs only say which files they reach.
  const host = ts.createCompilerHost(parsed.options);
  const parsedFiles = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => {
    if (!parsedFiles.has(fileName)) parsedFiles.set(fileName, getSourceFile(fileName, ...rest));
    return parsedFiles.get(fileName);
  };
  const program = ts.createProgram([...new Set(parts.flatMap(rootsOf))], parsed.options, host);
  const code = parts.filter((p) => !p.declarationOnly);
  const withCode =
    code.length === parts.length
      ? undefined
      : new Set(
          code.flatMap((p) =>
            ts
              .createProgram(rootsOf(p), parsed.options, host)
              .getSourceFiles()
              .map((f) => f.fileName),
          ),
        );
  const files: string[] = [];
  // Filtered here rather than with emitDeclarationOnly, which skips the whole emit once a JSON module is imported.
  // The JavaScript of a file no code part reaches is not kept (its code is esbuild's bundle): it is emitted from an
  // empty statement list, not transformed and printed in full to be thrown away. Its declarations are emitted whole.
  const result = program.emit(
    undefined,
    (fileName, text, _bom, _onError, sources) => {
      const keep =
        fileName.endsWith(".d.ts") || (withCode ? sources?.some((f) => withCode.has(f.fileName)) : code.length > 0);
      if (!keep) return;
      mkdirSync(path.dirname(fileName), { recursive: true });
      ts.sys.writeFile(fileName, text);
      files.push(path.relative(outDir, fileName));
    },
    undefined,
    false,
    withCode && {
      before: [
        (context) => (file) => (withCode.has(file.fileName) ? file : context.factory.updateSourceFile(file, [])),
      ],
    },
  );
  const diagnostics = [
    ...(typeCheck ? ts.getPreEmitDiagnostics(program) : program.getSyntacticDiagnostics()),
    ...result.diagnostics,
  ];
  if (diagnostics.length > 0 || result.emitSkipped) throw new Error(formatDiagnostics(diagnostics));

  for (const file of program.getSourceFiles().filter(isProjectDeclaration)) {
    const relative = path.relative(ROOT, file.fileName);
    mkdirSync(path.dirname(path.join(outDir, relative)), { recursive: true });
    cpSync(file.fileName, path.join(outDir, relative));
    files.push(relative);
  }
  for (const file of parts.flatMap((p) => p.required)) {
    if (!existsSync(path.join(outDir, file))) throw new Error(`build did not write ${file}`);
  }
  return { files, program };
}

/** The built files without esbuild's legal-comment files, sorted, each once. */
const listed = (files: string[]) => [...new Set(files.filter((f) => !f.endsWith(".LEGAL.txt")))].sort();

export function buildClient({ outDir = path.join(ROOT, "dist"), typeCheck = true }: BuildOptions = {}): BuildResult {
  return { outDir, files: listed(emit(outDir, typeCheck, [CLIENT_PART]).files) };
}

/**
 * The ./msw code (its declarations are the emit's): `index.js` only re-exports, `createMockHandlers` from
 * `mock.js` (the stateless handlers and what they use) and every other export from `sandbox.js`. An app that
 * imports only the stateless handlers gets `mock.js` alone (the package's `sideEffects: false` lets its bundler
 * drop `sandbox.js`), as an app built from the sources does; one bundle would keep the sandbox's top-level code.
 * Returns the three files' paths relative to outDir.
 */
async function bundleMsw(outDir: string, program: ts.Program): Promise<string[]> {
  const entry = path.join(ROOT, MSW_ENTRY);
  // The entry's value exports (types have none at run time), from the program that compiled it: the split
  // never needs a list kept by hand.
  const names = valueExports(program, entry);
  const reexport = (list: string[], from: string) => `export { ${list.join(", ")} } from ${JSON.stringify(from)};\n`;
  const mock = ["createMockHandlers"];
  if (!mock.every((n) => names.includes(n))) throw new Error(`${MSW_ENTRY} does not export ${mock.join(", ")}`);
  const sandbox = names.filter((n) => !mock.includes(n));
  const dir = path.join(outDir, "msw");
  const files: string[] = [];
  for (const [name, list] of [
    ["sandbox.js", sandbox],
    ["mock.js", mock],
  ] as const)
    files.push(await bundleNeutral({ contents: reexport(list, entry) }, path.join(dir, name), ["msw"], outDir));
  writeFileSync(path.join(dir, "index.js"), reexport(mock, "./mock.js") + reexport(sandbox, "./sandbox.js"));
  files.push(path.relative(outDir, path.join(dir, "index.js")));
  return files;
}

/** The names a module of the program exports as values (a class, a function, a constant), sorted. */
function valueExports(program: ts.Program, file: string): string[] {
  const ts = compiler();
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${path.relative(ROOT, file)} is not a module of the build`);
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) !== 0;
    })
    .map((symbol) => symbol.name)
    .sort();
}

/**
 * One ESM bundle of `entry` (a path under the checkout, or module text) for browsers and Node (platform
 * neutral); returns its path relative to outDir.
 */
async function bundleNeutral(
  entry: string | { contents: string },
  outfile: string,
  external: string[],
  outDir: string,
): Promise<string> {
  const { build: esbuild } = await import("esbuild");
  await esbuild({
    ...(typeof entry === "string"
      ? { entryPoints: [path.join(ROOT, entry)] }
      : { stdin: { contents: entry.contents, resolveDir: ROOT, sourcefile: "entry.js", loader: "js" as const } }),
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    external,
    legalComments: "linked",
    logLevel: "warning",
  });
  return path.relative(outDir, outfile);
}

/**
 * The ./client/validate export: one ESM bundle with the spec and the checker inside, and its declarations. Built
 * after ./client (whose build empties <dir>/client): it adds declarations there and owns <dir>/client-validate.
 */
export async function buildClientValidate({
  outDir = path.join(ROOT, "dist"),
  typeCheck = true,
}: BuildOptions = {}): Promise<BuildResult> {
  const { files } = emit(outDir, typeCheck, [VALIDATE_PART]);
  return { outDir, files: listed([...files, await bundleValidate(outDir)]) };
}

const bundleValidate = (outDir: string) =>
  bundleNeutral(VALIDATE_ENTRY, path.join(outDir, "client-validate", "index.js"), [], outDir);

/**
 * The whole package into outDir: ./client, ./client/validate and ./msw from one tsc program (their shared
 * sources are type-checked and emitted once), then their bundles and the bin.
 */
export async function buildPackage({
  outDir = path.join(ROOT, "dist"),
  typeCheck = true,
}: BuildOptions = {}): Promise<BuildResult> {
  const { files, program } = emit(outDir, typeCheck, [CLIENT_PART, VALIDATE_PART, MSW_PART]);
  files.push(await bundleValidate(outDir), ...(await bundleMsw(outDir, program)));
  files.push(...(await buildBin({ outDir })).files);
  return { outDir, files: listed(files) };
}

/**
 * Packages the bin loads from the consumer's node_modules instead of carrying them: Fastify (a dependency),
 * Prism (the mock's optional peer), and what only the repository's own options use (yaml for a YAML --spec).
 */
const BIN_EXTERNALS = ["fastify", "@stoplight/prism-http", "esbuild", "yaml", "msw", "typescript"];

/**
 * contract-core/redocly.ts runs the repository's Redocly CLI (bundling a split spec, lint), which the package
 * does not carry: in the bin it is this module, which reads the `$ref`s of a document and refuses to bundle.
 */
const REDOCLY_STAND_IN = `
const refused = () => {
  throw new Error("this needs the repository's Redocly CLI: the package's servers read a bundled JSON spec (--spec)");
};
export const REDOCLY_ENV = {};
export class BundleError extends Error {}
export const redocly = refused, runRedocly = refused, bundleSpec = refused;
export const redoclyOutput = (output) => output;
export function refsOf(node) {
  const refs = [];
  JSON.stringify(node, (key, value) => (key === "$ref" && typeof value === "string" && refs.push(value), value));
  return refs;
}
`;

/**
 * The bin (`talent-graph-api-contract sandbox|mock`): scripts/build/bin-entry.ts bundled by esbuild for Node,
 * split so that each command loads its own code (the mock's Prism import stays out of the sandbox's way), with
 * the bundled spec beside it at <dir>/generated/openapi.json, where the contract core looks for it.
 */
export async function buildBin({ outDir = path.join(ROOT, "dist") }: { outDir?: string } = {}): Promise<BuildResult> {
  const binDir = path.join(outDir, "bin");
  rmSync(binDir, { recursive: true, force: true });
  const { build: esbuild } = await import("esbuild");
  const result = await esbuild({
    entryPoints: { "talent-graph-api-contract": path.join(ROOT, "scripts/build/bin-entry.ts") },
    outdir: binDir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    external: BIN_EXTERNALS,
    plugins: [
      {
        name: "redocly-stand-in",
        setup(build) {
          build.onResolve({ filter: /\/redocly\.js$/ }, (args) =>
            args.importer.endsWith(path.join("contract-core", "spec.ts")) ||
            args.importer.endsWith(path.join("contract-core", "index.ts"))
              ? { path: "redocly-stand-in", namespace: "redocly-stand-in" }
              : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: "redocly-stand-in" }, () => ({
            contents: REDOCLY_STAND_IN,
            loader: "js",
          }));
        },
      },
    ],
    // Bundled CommonJS (Ajv) calls require for Node's built-ins: give the ESM output one.
    banner: {
      js: 'import { createRequire as __binRequire } from "node:module"; const require = __binRequire(import.meta.url);',
    },
    legalComments: "linked",
    metafile: true,
    logLevel: "warning",
  });
  const spec = path.join(outDir, "generated", "openapi.json");
  mkdirSync(path.dirname(spec), { recursive: true });
  cpSync(path.join(ROOT, "generated", "openapi.json"), spec);
  const files = Object.keys(result.metafile.outputs).map((file) => path.relative(outDir, path.resolve(ROOT, file)));
  return { outDir, files: listed([...files, path.relative(outDir, spec)]) };
}

/** Builds ./client and checks that its entry loads. */
export async function buildClientChecked(outDir?: string): Promise<BuildResult> {
  const result = buildClient({ outDir });
  await checkClientEntry(result.outDir);
  return result;
}

/**
 * Loads the built ./client entry under `outDir` and checks its export. The entry's packages (openapi-fetch)
 * resolve from this project while it loads, as they would from a consumer's node_modules: an --out folder
 * outside the project has none of its own.
 */
export async function checkClientEntry(outDir: string): Promise<void> {
  const hooks = registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (/^[./]|^[a-z]+:/.test(specifier)) throw error;
        return nextResolve(specifier, { ...context, parentURL: PROJECT_PACKAGE_URL });
      }
    },
  });
  try {
    const entry = await import(pathToFileURL(path.join(outDir, "client", "index.js")).href);
    if (typeof entry.createTalentGraphClient !== "function")
      throw new Error("built entry lacks createTalentGraphClient");
  } finally {
    hooks.deregister();
  }
}

export function printBuild(name: string, { outDir, files }: BuildResult): void {
  // One line: `prepack` runs this inside `npm pack` and git installs, where a file list would bury npm's own output.
  console.log(`${name} wrote ${files.length} files to ${path.relative(process.cwd(), outDir) || "."}`);
}

export const OUT_OPTION = {
  out: { type: "string", value: "<dir>", description: "output folder (default dist/)" },
} as const;

export const BUILD_COMMAND: CommandSpec = {
  name: "npm run build",
  summary:
    "Builds the package into dist/: ./client (ESM and declarations), ./msw (one ESM bundle and declarations) and the bin; also run by prepack.",
  options: OUT_OPTION,
};

/** `npm run build` (and npm's prepack hook, prepack.ts). */
export async function runBuildCommand(): Promise<void> {
  await runCommand(BUILD_COMMAND, async ({ values }) => {
    const outDir = typeof values.out === "string" ? path.resolve(values.out) : undefined;
    const result = await buildPackage({ outDir });
    await checkClientEntry(result.outDir);
    printBuild("build", result);
  });
}

if (isMain(import.meta.url)) await runBuildCommand();
