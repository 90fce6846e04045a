/**
 * The built reference page for the browser tests: (re)built when missing or older than what it is built from
 * (the bundle, the docs build scripts, the try-it panel and the sandbox it carries), and an operation's section
 * id in the page.
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

export function buildInputs(): string[] {
  return [
    DEFAULT_SPEC,
    ...["code-samples.ts", "build.ts", "csp.ts", "openapi.ts", "prepare-spec.ts"].map((f) => path.join(HERE, f)),
    path.join(ROOT, "contract-core", "redocly.ts"),
    ...sourcesUnder(path.join(HERE, "try-it")),
    ...sourcesUnder(path.join(ROOT, "mocks", "sandbox")),
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
