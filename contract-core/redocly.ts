/**
 * Runs the locally installed Redocly CLI (no npx, no download) with telemetry off, and the one bundle call
 * every part uses (generate, check:generated, lint, breaking, docs).
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { isObj } from "./pointer.js";

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
 * every call (about a second; nothing is kept between calls, so an edited file is always read). Synchronous,
 * because loadSpec is: a command given a split root (`--spec spec/openapi.yaml`) bundles it on load.
 * Throws BundleError naming the file.
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
