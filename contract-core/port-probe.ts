/**
 * A server's port, checked before its slow start-up work (Prism's load, the sandbox's graph): a port that is
 * taken is found in milliseconds, not after the graph is built, and the message names the process holding it
 * where the system says (Linux's /proc; elsewhere the message just says to stop it or pick another port).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import { describeListenError } from "./cli.js";
import { escapeLogText } from "./request-log.js";

/** Resolves when `host:port` can be bound now (port 0 always can); rejects with describeListenError's line. */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    const holder = (error as NodeJS.ErrnoException).code === "EADDRINUSE" ? portHolder(port) : undefined;
    const line = describeListenError(error, port, host);
    throw new Error(holder ? line.replace("stop the process using it", `stop ${holder}`) : line, { cause: error });
  } finally {
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  }
}

/** `pid 123 (node mocks/prism/start.ts ...)` listening on `port`, or undefined where /proc does not say. */
export function portHolder(port: number): string | undefined {
  try {
    const inodes = new Set<string>();
    for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
      let text = "";
      try {
        text = readFileSync(table, "utf8");
      } catch {
        continue;
      }
      for (const row of text.split("\n").slice(1)) {
        const cols = row.trim().split(/\s+/);
        // local_address is "ADDR:PORT" in hex; state 0A is LISTEN; column 9 is the socket's inode.
        if (cols.length > 9 && cols[3] === "0A" && parseInt(cols[1]!.split(":")[1]!, 16) === port) inodes.add(cols[9]!);
      }
    }
    if (inodes.size === 0) return undefined;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        let target = "";
        try {
          target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
          const shown = cmd.length > 80 ? `${cmd.slice(0, 77)}...` : cmd;
          return `pid ${pid}${shown ? ` (${escapeLogText(shown)})` : ""}`;
        }
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}
