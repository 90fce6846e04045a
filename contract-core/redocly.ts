/**
 * Runs the locally installed Redocly CLI (no npx, no download) with telemetry off, and the one bundle call
 * every part uses (generate, check:generated, lint, breaking, docs).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
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

interface RedoclyRun {
  code: number;
  output: string;
}

/** Redocly's output without the Node deprecation banner and progress lines. */
function redoclyOutput(output: string): string {
  return output
    .split("\n")
    .filter((l) => l.trim() !== "" && !/[║╔╚]/.test(l) && !/^bundling /.test(l))
    .join("\n")
    .trim();
}

function runRedocly(args: string[], cwd: string): Promise<RedoclyRun> {
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
