/** Loading an OpenAPI document (YAML or JSON, split or bundled) and the repository's default paths. */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { InputError } from "./cli.js";
import { isObj } from "./pointer.js";
import { bundleSpec, refsOf } from "./redocly.js";
import type { OpenApiDocument } from "./servers.js";
import { parseYaml } from "./yaml.js";

/** The repository root (this folder's parent). */
export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
/**
 * Node's arguments that run one of the project's TypeScript files (`node ...RUN_TYPESCRIPT file.ts`): the
 * resolve hook of scripts/typescript-hooks.ts, what every npm script runs its file with.
 */
export const RUN_TYPESCRIPT: readonly string[] = [
  "--import",
  pathToFileURL(`${REPO_ROOT}/scripts/typescript-hooks.ts`).href,
];
/**
 * The bundle `npm run generate` writes: what the mock, the contract tests, the sandbox and the docs read.
 * `CONTRACT_BUNDLE` names another one for a whole run: the trace's prove mode (scripts/trace/prove.ts) runs the
 * checks against a mutated copy this way.
 */
export const DEFAULT_SPEC_PATH =
  process.env.CONTRACT_BUNDLE || fileURLToPath(new URL("../generated/openapi.json", import.meta.url));
/** The root of the split, hand-edited spec. */
export const SPEC_ROOT_PATH = fileURLToPath(new URL("../spec/openapi.yaml", import.meta.url));

/**
 * A spec file that cannot be read, parsed or bundled; the message names the file and the problem. An unreadable
 * input of the command that was given it: exit code 2 (InputError).
 */
export class SpecLoadError extends InputError {
  override name = "SpecLoadError";
}

/**
 * Reads an OpenAPI 3.x document: JSON (`.json`) or YAML (anything else). A split root (a file with
 * `$ref`s to other files) is bundled with Redocly first, so the result has only local `$ref`s.
 */
export function loadSpec(path: string = DEFAULT_SPEC_PATH): OpenApiDocument {
  const { doc, split } = readSpec(path);
  if (!split) return doc;
  try {
    return bundleSpec(path);
  } catch (e) {
    throw new SpecLoadError((e as Error).message);
  }
}

/**
 * A spec file read, parsed and checked as loadSpec does, not bundled: `split` when it has `$ref`s to other files
 * (a caller that can wait bundles it in-process, redocly.ts's bundleFile).
 */
export function readSpec(path: string): { doc: OpenApiDocument; split: boolean } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new SpecLoadError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const json = /\.json$/i.test(path);
  let doc: unknown;
  try {
    doc = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new SpecLoadError(`${path} is not valid ${json ? "JSON" : "YAML"}: ${(e as Error).message.split("\n")[0]}`);
  }
  const spec = openApiDocument(doc, path);
  return { doc: spec, split: !refsOf(spec).every((ref) => ref.startsWith("#")) };
}

/** `doc` when it is an OpenAPI 3.x document; else a SpecLoadError naming `path`. */
export function openApiDocument(doc: unknown, path: string): OpenApiDocument {
  if (!isObj(doc) || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3."))
    throw new SpecLoadError(
      `${path} is not an OpenAPI document (it is not an OpenAPI 3.x document: no "openapi: 3.x" field)`,
    );
  return doc;
}
