// The servers as users start them: `npm run mock` and `npm run sandbox` stop when SIGTERM or SIGINT reaches the
// npm process itself (the scripts `exec` their server, so npm's forwarded signal reaches it), and leave nothing
// listening; a taken port is refused before the slow start-up work, in one line naming who holds it. These start
// processes because the processes (npm, its shell, the server) are what they test.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { portHolder } from "./port-probe.js";
import { REPO_ROOT } from "./spec.js";

const started: ChildProcess[] = [];
const ports: number[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  // A server left behind by a failing run (npm gone, its child orphaned) is stopped too.
  for (const port of ports) {
    const pid = /^pid (\d+)/.exec(portHolder(port) ?? "")?.[1];
    if (pid && Number(pid) !== process.pid) process.kill(Number(pid), "SIGKILL");
  }
});

const SERVERS = [
  { script: "mock", args: ["--quiet"], ready: /Mock ready on http:\/\/127\.0\.0\.1:(\d+)\// },
  { script: "sandbox", args: ["--quiet", "--people", "50"], ready: /Base URL: http:\/\/127\.0\.0\.1:(\d+)\// },
] as const;

function npmRun(script: string, args: readonly string[]): { child: ChildProcess; output: () => string } {
  const child = spawn("npm", ["run", "-s", script, "--", "--port", "0", ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1", PORT: "", HOST: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** Waits for the ready line (a state, not a time: the hang budget of the config bounds it). */
async function readyPort(run: ReturnType<typeof npmRun>, ready: RegExp): Promise<number> {
  for (;;) {
    const match = ready.exec(run.output());
    if (match) {
      ports.push(Number(match[1]));
      return Number(match[1]);
    }
    if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}: ${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True once nothing accepts connections on the port. */
async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ port, host: "127.0.0.1", exclusive: true }, resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.each(SERVERS)("npm run $script", ({ script, args, ready }) => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "stops on %s sent to the npm process, leaving the port free",
    async (signal) => {
      const run = npmRun(script, args);
      const port = await readyPort(run, ready);
      expect(await portFree(port)).toBe(false);
      run.child.kill(signal);
      const [code, killedBy] = (await once(run.child, "exit")) as [number | null, string | null];
      expect({ code, killedBy }, run.output()).toEqual({ code: 0, killedBy: null });
      // The server was npm's own child (exec): with npm gone, nothing may still listen.
      await expect.poll(() => portFree(port), { interval: 100 }).toBe(true);
    },
  );

  it("refuses a taken port in one line naming the holder, before its slow start-up work", async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen({ port: 0, host: "127.0.0.1" }, resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const child = spawn("npm", ["run", "-s", script, "--", "--port", String(port), ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, NO_COLOR: "1", PORT: "", HOST: "" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      started.push(child);
      let stderr = "";
      let stdout = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const [code] = (await once(child, "exit")) as [number];
      expect(code, stderr).toBe(1);
      const lines = stderr.trim().split("\n");
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(lines[0]).toMatch(new RegExp(`stop pid ${process.pid} \\(`));
      // No banner, no graph: the check ran before the work.
      expect(stdout).not.toMatch(/ready|graph/);
    } finally {
      holder.close();
    }
  });
});
