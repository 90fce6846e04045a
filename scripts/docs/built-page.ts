/**
 * The built reference page for the browser tests, dist/docs/index.html: (re)built when missing or older than what
 * it is built from (buildInputs), and an operation's section id in the page. The test files that read the page
 * share it: the first to find it stale builds it, the rest read it. Two that find it stale at once (the suite's
 * two workers) both build, each writing a file of its own and renaming it over the page, so a reader gets one
 * whole build or the other, never a mix.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildDocs, DEFAULT_OUT, DEFAULT_SPEC, ROOT } from "./build.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The TypeScript sources under a folder, tests left out. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(file))
    .map((file) => path.join(dir, file));
}

/**
 * What the page is built from: the bundle and generated/, the docs scripts with the try-it panel, the sandbox it
 * carries, the shared core, the changelog, release and escaping code the page takes names and text from, and the
 * lockfile (Redoc's version and the rest). Wider than the imports, never narrower: a file here that the page does
 * not use costs a rebuild, a file missing from here would leave a stale page.
 */
export function buildInputs(): string[] {
  const generated = path.join(ROOT, "generated");
  return [
    DEFAULT_SPEC,
    ...readdirSync(generated).map((file) => path.join(generated, file)),
    path.join(ROOT, "package-lock.json"),
    ...sourcesUnder(HERE),
    ...["contract-core", "mocks/sandbox", "scripts/changelog", "scripts/release", "scripts/escape"].flatMap((dir) =>
      sourcesUnder(path.join(ROOT, dir)),
    ),
  ];
}

export async function ensureBuilt(): Promise<"built" | "up to date"> {
  const newestInput = Math.max(...buildInputs().map((file) => statSync(file).mtimeMs));
  if (existsSync(DEFAULT_OUT) && statSync(DEFAULT_OUT).mtimeMs >= newestInput) return "up to date";
  await buildDocs();
  return "built";
}

/** Redoc's section id of an operation: `/<tag slug>/<operationid>`, e.g. `/people/searchpeople`. */
export const sectionId = (tag: string, operationId: string) =>
  `/${tag.toLowerCase().replace(/\s+/g, "-")}/${operationId.toLowerCase()}`;
