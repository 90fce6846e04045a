/**
 * Runs the locally installed Redocly CLI (no npx, no download) with telemetry off. The working
 * directory is a scratch folder by default so a redocly.yaml elsewhere in the tree cannot change the
 * docs output; every path passed in must be absolute.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const CLI = path.join(path.dirname(require.resolve("@redocly/cli/package.json")), "bin", "cli.js");

export const REDOCLY_ENV = { REDOCLY_TELEMETRY: "off", NO_COLOR: "1", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

export interface RedoclyRun {
  code: number;
  output: string;
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

/** Runs Redocly and throws with its output (minus the Node deprecation banner) when it fails. */
export async function redocly(args: string[], cwd: string): Promise<string> {
  const { code, output } = await runRedocly(args, cwd);
  const text = output.replace(/^\s*[╔║╚].*$/gm, "").trim();
  if (code !== 0) throw new Error(`redocly ${args[0]} failed (exit ${code}):\n${text}`);
  return text;
}
