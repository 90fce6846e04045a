/**
 * Starts `npm run sandbox` (mocks/sandbox/start.ts) as a child process for the tests that need a real process:
 * the command line itself, and kill -9 with a state file. Resolves once the child has printed its base URL and
 * every test key, i.e. once it listens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { REPO_ROOT, RUN_TYPESCRIPT } from "../../../contract-core/index.js";

export interface SandboxChild {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** Everything the child printed so far (stdout and stderr). */
  output(): string;
}

export function spawnSandbox(
  args: readonly string[],
  {
    detached = false,
    timeoutMs = 45_000,
    env,
  }: { detached?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<SandboxChild> {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, "mocks/sandbox/start.ts", "--port", "0", ...args], {
    cwd: REPO_ROOT,
    detached,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const output = () => out;
  return new Promise((resolve, reject) => {
    // The keys are printed last: once the revoked one is there, the whole banner is.
    const timer = setTimeout(() => reject(new Error(`sandbox did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Base URL: (\S+)/.exec(out);
      if (m && out.includes("tgsb_revoked_")) {
        clearTimeout(timer);
        resolve({ child, baseUrl: m[1]!, output });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited (${code}) before it was ready:\n${out}`));
    });
  });
}
