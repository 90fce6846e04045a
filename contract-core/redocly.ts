/**
 * Bundling a split spec: in-process with Redocly's openapi-core (bundleFile, what every asynchronous caller uses),
 * and through the locally installed Redocly CLI (bundleSpec, for loadSpec, which is synchronous); both give the
 * same document, key order included (redocly.test.ts). Also runs the CLI (no npx, no download) with telemetry off.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Source } from "@redocly/openapi-core";
import { type Obj, isObj } from "./pointer.js";

const require = createRequire(import.meta.url);
const CLI_PACKAGE = require.resolve("@redocly/cli/package.json");
const CLI = path.join(path.dirname(CLI_PACKAGE), "bin", "cli.js");

export const REDOCLY_ENV = {
  REDOCLY_TELEMETRY: "off",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
};

/** Redocly's output without the Node deprecation banner and progress lines. */
function redoclyOutput(output: string): string {
  return output
    .split("\n")
    .filter((l) => l.trim() !== "" && !/[║╔╚]/.test(l) && !/^bundling /.test(l))
    .join("\n")
    .trim();
}

/** Runs Redocly and throws with its output when it fails. */
export async function redocly(args: string[], cwd: string): Promise<string> {
  const options = { cwd, env: { ...process.env, ...REDOCLY_ENV }, maxBuffer: 64 * 1024 * 1024 };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], options);
    return redoclyOutput(`${stdout}${stderr}`);
  } catch (e) {
    const { code, stdout = "", stderr = "" } = e as { code?: unknown; stdout?: string; stderr?: string };
    const exit = typeof code === "number" ? code : 1;
    const output = redoclyOutput(`${stdout}${stderr}`);
    throw new Error(`redocly ${args[0]} failed (exit ${exit}):\n${output}`, { cause: e });
  }
}

export class BundleError extends Error {
  override name = "BundleError";
}

/** Every `$ref` string value in a parsed document. */
export function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out);
  else if (isObj(node))
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.push(value);
      else refsOf(value, out);
    }
  return out;
}

/**
 * Bundles a split root (or any spec file) into one JSON document (all `$ref`s local) with the installed CLI,
 * every call (a process: about a second; nothing is kept between calls, so an edited file is always read).
 * Synchronous, because loadSpec is: a command given a split root (`--spec spec/openapi.yaml`) bundles it on load.
 * Everything that can wait uses bundleFile. Throws BundleError naming the file.
 */
export function bundleSpec(root: string): Record<string, unknown> {
  const dir = mkdtempSync(path.join(tmpdir(), "tg-bundle-"));
  try {
    const out = path.join(dir, "openapi.json");
    const run = spawnSync(process.execPath, [CLI, "bundle", path.resolve(root), "-o", out, "--ext", "json"], {
      env: { ...process.env, ...REDOCLY_ENV },
      encoding: "utf8",
    });
    if (run.status !== 0) {
      const detail = redoclyOutput(`${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? run.error.message : ""}`)
        .split("\n")
        .slice(0, 20)
        .join("\n");
      throw new BundleError(`cannot bundle ${root}:\n${detail}`);
    }
    return JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Files to bundle from instead of the disk: texts by `/`-separated path relative to `dir` (a git revision's). */
export interface BundleSource {
  dir: string;
  files: ReadonlyMap<string, string>;
}

/**
 * openapi-core's bundle and config loader, and a resolver that reads `$ref`d files from a BundleSource when given
 * one (remote URLs refused) and records each file read. openapi-core loads here, at the first in-process bundle:
 * the servers and CLIs that import the core but never bundle in-process (the mock, the sandbox, every --help)
 * start without it (about 0.1 CPU-s each).
 */
async function redoclyBundler(source: BundleSource | undefined) {
  const { BaseResolver, Source, bundle, loadConfig } = await import("@redocly/openapi-core");
  class RecordingResolver extends BaseResolver {
    /** The absolute references read, in order (the root first). */
    readonly read: string[] = [];

    override async loadExternalRef(absoluteRef: string): Promise<Source> {
      if (!source) {
        this.read.push(absoluteRef);
        return super.loadExternalRef(absoluteRef);
      }
      const rel = path.relative(path.resolve(source.dir), absoluteRef).split(path.sep).join("/");
      const body = source.files.get(rel);
      if (body === undefined) throw new Error(`${rel} does not exist in this revision`);
      this.read.push(absoluteRef);
      return new Source(absoluteRef, body.replace(/\r\n/g, "\n"));
    }
  }
  return { resolver: new RecordingResolver(), bundle, loadConfig };
}

/**
 * The top-level keys of an OpenAPI 3 document that the CLI's `bundle` writes first, in this order, before the
 * others in theirs: its output's key order, which bundleFile gives too.
 */
const CLI_KEY_ORDER = [
  "openapi",
  "info",
  "jsonSchemaDialect",
  "servers",
  "security",
  "tags",
  "externalDocs",
  "paths",
  "webhooks",
  "x-webhooks",
  "components",
];

/** `doc` with its top-level keys in the CLI's order. */
function inCliOrder(doc: Obj): Obj {
  const first = CLI_KEY_ORDER.filter((key) => Object.hasOwn(doc, key)).map((key) => [key, doc[key]] as const);
  return Object.assign(Object.fromEntries(first), doc);
}

/** A bundle, and the files it was made from (absolute paths, the root first). */
export interface Bundle {
  doc: Obj;
  read: string[];
}

/**
 * Bundles `root` in-process (about a tenth of a second, no process) into what bundleSpec gives: the same
 * document, key order included. It reads the disk, or `options.files` (then `root` is a path under its `dir`);
 * the Redocly configuration is redocly.yaml in `options.configDir` (default: the current directory, as the CLI
 * reads it), read on every call like the files. Throws BundleError naming `options.label` (default: `root`) and
 * the first problem when a `$ref` cannot be followed or a file cannot be read or parsed.
 */
export async function bundleFile(
  root: string,
  options: { files?: BundleSource; configDir?: string; label?: string } = {},
): Promise<Bundle> {
  const label = options.label ?? root;
  const configFile = path.join(options.configDir ?? process.cwd(), "redocly.yaml");
  const { resolver, bundle, loadConfig } = await redoclyBundler(options.files);
  let result: Awaited<ReturnType<typeof bundle>>;
  try {
    result = await bundle({
      ref: path.resolve(root),
      config: await loadConfig(existsSync(configFile) ? { configPath: configFile } : {}),
      externalRefResolver: resolver,
    });
  } catch (e) {
    throw new BundleError(`cannot bundle ${label}: ${(e as Error).message}`, { cause: e });
  }
  const errors = result.problems.filter((p) => p.severity === "error");
  const parsed: unknown = result.bundle.parsed;
  if (errors.length > 0 || !isObj(parsed)) {
    const where = errors[0]?.location[0];
    const at = where ? ` (in ${where.source.absoluteRef} at ${where.pointer ?? "#/"})` : "";
    throw new BundleError(`cannot bundle ${label}: ${errors[0] ? `${errors[0].message}${at}` : "not an object"}`);
  }
  return { doc: inCliOrder(parsed), read: resolver.read };
}
