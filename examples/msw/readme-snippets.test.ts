/**
 * Every TypeScript and JavaScript block of the kit's READMEs (this folder's README.md and the package README,
 * scripts/build/PACKAGE.md) is type-checked as a module of its own, as a project that installed the package
 * would compile it: `talent-graph-api-contract/*` resolves to the sources behind the package's exports, and
 * every other import to this repository's node_modules. A block that does not compile fails with its README
 * line and tsc's message. The Storybook recipe's blocks are also the files storybook.test.ts runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const READMES = ["examples/msw/README.md", "scripts/build/PACKAGE.md"];
/** The package's exports, as the sources they are built from. */
const PACKAGE_PATHS = {
  "talent-graph-api-contract/client": ["client/index.ts"],
  "talent-graph-api-contract/msw": ["mocks/sandbox/hosts/msw/msw.ts"],
  "talent-graph-api-contract/client/validate": ["client/validate/index.ts"],
};

export interface Snippet {
  /** README path and the line its block starts on. */
  where: string;
  lang: "ts" | "js";
  code: string;
}

/** The ```ts / ```js blocks of a Markdown text. */
export function snippetsOf(markdown: string, file: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|typescript|js|javascript|tsx)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== "```") i++;
    const lang = open[1]!.startsWith("j") ? "js" : "ts";
    found.push({ where: `${file}:${start + 1}`, lang, code: lines.slice(start, i + 1).join("\n") });
    i++;
  }
  return found;
}

/** tsc's messages for each snippet (empty when it compiles), with the project's compiler options. */
export function typeCheck(snippets: readonly Snippet[]): Map<string, string[]> {
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile).config as object;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const virtual = new Map<string, Snippet>();
  snippets.forEach((s, i) => {
    // Beside the README, so imports resolve from this repository's node_modules; `export {}` makes a module.
    const dir = path.join(ROOT, path.dirname(s.where.split(":")[0]!));
    virtual.set(path.join(dir, `__readme_snippet_${i}.${s.lang === "js" ? "mjs" : "mts"}`), s);
  });
  const host = ts.createCompilerHost({
    ...options,
    noEmit: true,
    incremental: false,
    allowJs: true,
    checkJs: true,
    baseUrl: ROOT,
    paths: PACKAGE_PATHS,
  });
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const source = host.getSourceFile.bind(host);
  host.readFile = (f) => (virtual.has(f) ? `${virtual.get(f)!.code}\nexport {};\n` : read(f));
  host.fileExists = (f) => virtual.has(f) || exists(f);
  host.getSourceFile = (f, v, onError, create) =>
    virtual.has(f) ? ts.createSourceFile(f, host.readFile(f)!, v, true) : source(f, v, onError, create);
  const program = ts.createProgram({
    rootNames: [...virtual.keys()],
    options: { ...options, noEmit: true, incremental: false, baseUrl: ROOT, paths: PACKAGE_PATHS },
    host,
  });
  const messages = new Map<string, string[]>();
  for (const [file, snippet] of virtual) {
    const sf = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
    messages.set(
      snippet.where,
      diagnostics.map((d) => {
        const line = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line + 1;
        const [readme, first] = snippet.where.split(":");
        return `${readme}:${Number(first) + line - 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  }
  return messages;
}

const snippets = READMES.flatMap((file) => snippetsOf(readFileSync(path.join(ROOT, file), "utf8"), file));
/** A block that does not compile, on line 5 of its README, checked in the same program as the real blocks. */
const BROKEN = snippetsOf(
  [
    "Intro",
    "```ts",
    'import { createSandboxHandlers } from "talent-graph-api-contract/msw";',
    "const sandbox = createSandboxHandlers();",
    "sandbox.keys.umbrella;",
    "```",
  ].join("\n"),
  "examples/msw/README.md",
);
// One program for all: building and checking a second one re-reads the same libraries and types (a few CPU-s).
// Each block is a module of its own, so the broken one changes no other block's messages.
let checked = new Map<string, string[]>();

describe("the kit's README snippets", () => {
  beforeAll(() => {
    checked = typeCheck([...snippets, ...BROKEN]);
  });

  it("every TypeScript/JavaScript block compiles", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(8);
    const broken = snippets.flatMap((s) => checked.get(s.where)!);
    expect(broken).toEqual([]);
  });

  it("a block that does not compile is reported with its README line (the check can fail)", () => {
    expect(BROKEN).toHaveLength(1);
    expect(snippets.map((s) => s.where)).not.toContain(BROKEN[0]!.where);
    expect(checked.get(BROKEN[0]!.where)).toEqual([
      expect.stringMatching(/^examples\/msw\/README\.md:5: Property 'umbrella' does not exist/),
    ]);
  });

  it("the Storybook recipe's blocks are the files the browser test runs", () => {
    const readme = snippets.filter((s) => s.where.startsWith("examples/msw/README.md")).map((s) => s.code);
    for (const name of ["main.ts", "preview.ts"]) {
      const file = readFileSync(path.join(ROOT, "examples/msw/storybook", name), "utf8")
        .replace(/^\/\*\*[\s\S]*?\*\/\n/, "") // the file's header comment
        .replace('"../../../mocks/sandbox/hosts/msw/msw.js"', '"talent-graph-api-contract/msw"')
        .trimEnd();
      expect(readme, `examples/msw/storybook/${name} is a README block`).toContain(`// .storybook/${name}\n${file}`);
    }
  });
});
