/**
 * Runs the locally installed Redocly CLI (no npx, no download) with telemetry off, and the one bundle call
 * every part uses (generate, check:generated, lint, breaking, docs).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pruneCacheFiles, writeFileWhole } from "./cache-files.js";
import { isObj } from "./pointer.js";
import { parseYaml } from "./yaml.js";

const require = createRequire(import.meta.url);
const CLI_PACKAGE = require.resolve("@redocly/cli/package.json");
const CLI = path.join(path.dirname(CLI_PACKAGE), "bin", "cli.js");

export const REDOCLY_ENV = {
  REDOCLY_TELEMETRY: "off",
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
};

export interface RedoclyRun {
  code: number;
  output: string;
}

/** Redocly's output without the Node deprecation banner and progress lines. */
export function redoclyOutput(output: string): string {
  return output
    .split("\n")
    .filter((l) => l.trim() !== "" && !/[║╔╚]/.test(l) && !/^bundling /.test(l))
    .join("\n")
    .trim();
}

export function runRedocly(args: string[], cwd: string): Promise<RedoclyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, ...REDOCLY_ENV },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs Redocly and throws with its output when it fails. */
export async function redocly(args: string[], cwd: string): Promise<string> {
  const { code, output } = await runRedocly(args, cwd);
  const text = redoclyOutput(output);
  if (code !== 0) throw new Error(`redocly ${args[0]} failed (exit ${code}):\n${text}`);
  return text;
}

export class BundleError extends Error {
  override name = "BundleError";
}

/** Redocly's configuration files, looked up in the working directory the CLI runs in. */
const CONFIG_FILES = ["redocly.yaml", "redocly.yml", ".redocly.yaml", ".redocly.yml"];

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
 * The `$ref` values of a YAML or JSON text read off the text (parsing every file of a split spec costs more than
 * the bundle it would save): a key `$ref` with a quoted or plain value that ends its line or flow entry. Null
 * when some "$ref" in the text is not of that form (an escape, a multi-line value, the word in a description):
 * the caller parses the file then.
 */
export function refsInText(text: string): string[] | null {
  const refs: string[] = [];
  for (const m of text.matchAll(REF_ENTRY)) refs.push(m[2] ?? m[3] ?? m[4]!);
  return refs.length === text.split("$ref").length - 1 ? refs : null;
}
const REF_ENTRY =
  /(["']?)\$ref\1[ \t]*:[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s'"#,{}[\]][^\s,{}[\]]*))(?=[ \t]*(?:$|[,}\]]|#))/gm;

let installed: string | undefined;
/**
 * The CLI as installed, as a hash: its package.json and npm's record of the whole installed tree
 * (node_modules/.package-lock.json), so an install that changes any package the CLI loads makes new keys.
 */
function toolchain(): string {
  if (installed === undefined) {
    const tree = path.resolve(path.dirname(CLI_PACKAGE), "..", "..", ".package-lock.json");
    installed = createHash("sha256")
      .update(readFileSync(CLI_PACKAGE))
      .update(existsSync(tree) ? readFileSync(tree) : "")
      .digest("hex");
  }
  return installed;
}

/**
 * What a bundle of `root` is made from, as one hash: the CLI as installed, the configuration it would read, and
 * each file the root reaches through `$ref`s (its path relative to the root's folder, so the same spec checked
 * out in another folder is the same bundle, and its bytes). Null when that cannot be known for certain (a file
 * that cannot be read or parsed, a `$ref` to a URL or to no file): the CLI then runs, and reports the problem.
 */
function bundleKey(root: string): string | null {
  const hash = createHash("sha256");
  hash.update(toolchain());
  for (const name of CONFIG_FILES) {
    const file = path.resolve(name);
    hash.update(`\0${name}\0${existsSync(file) ? readFileSync(file, "utf8") : "-"}`);
  }
  const base = path.dirname(root);
  const seen = new Set<string>();
  const files = [root];
  while (files.length > 0) {
    const file = files.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    let refs: string[] | null;
    try {
      text = readFileSync(file, "utf8");
      refs = refsInText(text) ?? refsOf(parseYaml(text));
    } catch {
      return null;
    }
    hash.update(`\0${path.relative(base, file)}\0${text}`);
    for (const ref of refs) {
      const target = ref.split("#")[0]!;
      if (target === "") continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
      const raw = path.resolve(path.dirname(file), target);
      let decoded = raw;
      try {
        decoded = path.resolve(path.dirname(file), decodeURIComponent(target));
      } catch {
        // not percent-encoded: the raw path is the only candidate
      }
      const found = [raw, decoded].find((candidate) => existsSync(candidate));
      if (!found) return null;
      files.push(found);
    }
  }
  return hash.digest("hex");
}

/**
 * Bundles made in this process, as JSON text, by bundleKey: the gate's checks and the tests bundle the same
 * spec (or the same base commit checked out in a new folder) again and again, and each CLI run costs about half
 * a second of CPU, most of it the CLI's own start-up. A bundle is a function of those inputs alone.
 */
const bundles = new Map<string, string>();
/** Most bundles kept (each is the JSON of one spec). */
const BUNDLES_KEPT = 16;

/**
 * Bundles kept on disk by the same key, for the other processes of a run (the gate's lint and drift checks, the
 * tests' workers and the commands they start): in the install's node_modules/.cache, which `npm ci` empties.
 */
export const BUNDLE_CACHE_DIR = path.resolve(path.dirname(CLI_PACKAGE), "..", "..", ".cache", "tg-bundles");
/** Most bundles kept on disk; past it the least recently written go. */
export const BUNDLE_FILES_KEPT = 64;

let cliBundles = 0;

/** How many times bundleSpec ran the CLI in this process (its tests check that a repeat is not bundled again). */
export function bundleRuns(): number {
  return cliBundles;
}

/** Where a bundle of `root` is kept on disk (whether or not it is there); null when it is never kept. */
export function bundleCacheFile(root: string): string | null {
  const key = bundleKey(path.resolve(root));
  return key === null ? null : path.join(BUNDLE_CACHE_DIR, `${key}.json`);
}

/** Forgets the bundles this process keeps, as a new process starts (tests show the disk cache serving it). */
export function forgetBundles(): void {
  bundles.clear();
}

/** A kept bundle from disk, as text and document; undefined when there is none or it is not JSON. */
function bundleFromDisk(key: string): { text: string; doc: Record<string, unknown> } | undefined {
  try {
    const text = readFileSync(path.join(BUNDLE_CACHE_DIR, `${key}.json`), "utf8");
    return { text, doc: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** Writes a bundle whole (a reader sees the old file or the new one, never part of one); a failure is no error. */
function bundleToDisk(key: string, text: string): void {
  try {
    writeFileWhole(path.join(BUNDLE_CACHE_DIR, `${key}.json`), text);
    pruneCacheFiles(BUNDLE_CACHE_DIR, BUNDLE_FILES_KEPT);
  } catch {
    // A cache that cannot be written (read-only install, full disk) only costs the next process a CLI run.
  }
}

/** Bundles a split root (or any spec file) into one JSON document (all `$ref`s local). Throws BundleError naming the file. */
export function bundleSpec(root: string): Record<string, unknown> {
  const absolute = path.resolve(root);
  const key = bundleKey(absolute);
  if (key === null) return JSON.parse(bundleWithCli(root)) as Record<string, unknown>;
  const kept = bundles.get(key);
  if (kept !== undefined) return JSON.parse(kept) as Record<string, unknown>;
  let found = bundleFromDisk(key);
  if (found === undefined) {
    const text = bundleWithCli(root);
    found = { text, doc: JSON.parse(text) as Record<string, unknown> };
    // Kept only when no file changed while the CLI read them (an editor saving during a preview's rebuild).
    if (bundleKey(absolute) !== key) return found.doc;
    bundleToDisk(key, text);
  }
  if (bundles.size >= BUNDLES_KEPT) bundles.delete(bundles.keys().next().value!);
  bundles.set(key, found.text);
  return found.doc;
}

/** The CLI's bundle of `root`, as JSON text. */
function bundleWithCli(root: string): string {
  cliBundles++;
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
    return readFileSync(out, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
