/**
 * Start-up snapshots (`npm run sandbox -- --snapshot`): the one-file bundle they are built from, their keys, and
 * real starts from one: built once, restored after (the answers those of a plain core on the same graph), the
 * restored sandbox stopping with its parent, and a file Node cannot restore removed and started without.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, loadSpec } from "../../../contract-core/index.js";
import { childPids } from "../../../scripts/bench/harness.js";
import { KEYS } from "../auth.js";
import { createSandboxCore } from "../core.js";
import { spawnSandbox, type SandboxChild } from "../testing/child.js";
import { bundleSnapshotEntry, SNAPSHOT_DIR_ENV, snapshotFileName } from "./startup-snapshot.js";

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tg-snapshot-test-"));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.pid) kill(child.pid, "SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  return existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
}

async function gone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("the snapshot's bundle", () => {
  it("is one CommonJS file, the same for the same code, with each file's import.meta.url filled in", async () => {
    const dir = tempDir();
    const first = await bundleSnapshotEntry(dir);
    const second = await bundleSnapshotEntry(dir);
    expect(second).toEqual(first);
    expect(readdirSync(path.join(dir, "entries"))).toEqual([path.basename(first.file)]);
    const text = readFileSync(first.file, "utf8");
    // esbuild's stand-in for an import.meta a CommonJS bundle lacks.
    expect(text).not.toMatch(/import_meta\d* = \{\}/);
    // contract-core finds the repository and the spec from its own file's URL.
    expect(text).toContain(JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "contract-core", "spec.ts")).href));
    expect(text).not.toMatch(/^module\.exports\s*=/m);
  });

  it("refuses a bundle that would leave an import.meta it cannot fill in empty", async () => {
    const dir = tempDir();
    const source = path.join(dir, "entry.ts");
    writeFileSync(source, 'console.log(import.meta["resolve"]("./x.js"));\n');
    await expect(bundleSnapshotEntry(dir, source)).rejects.toThrow(/import\.meta empty in .*entry\.ts:1/);
  });
});

describe("snapshotFileName", () => {
  const graph = { people: 500_000, companies: 320, seed: 7 };
  it("names the people count and changes with the graph and with the code", () => {
    const name = snapshotFileName(graph, "aaaa");
    expect(name).toMatch(/^500000-people-[0-9a-f]{24}\.blob$/);
    expect(snapshotFileName({ ...graph }, "aaaa")).toBe(name);
    for (const other of [
      snapshotFileName({ ...graph, seed: 8 }, "aaaa"),
      snapshotFileName({ ...graph, companies: 321 }, "aaaa"),
      snapshotFileName(graph, "aaab"),
    ])
      expect(other).not.toBe(name);
  });
});

describe("npm run sandbox -- --snapshot", () => {
  const dir = tempDir();
  const env = { [SNAPSHOT_DIR_ENV]: dir };
  const args = ["--snapshot", "--people", "300", "--companies", "40"];
  const start = async (): Promise<SandboxChild> => {
    const started = await spawnSandbox(args, { env, timeoutMs: 60_000 });
    children.push(started.child);
    return started;
  };
  const blobs = () => readdirSync(path.join(dir, "blobs"));
  const headers = { authorization: `Bearer ${KEYS[0]!.key}` };
  const paths = ["/people?limit=5&skills=python", "/people/priya-raman", "/companies?limit=3"];

  it("builds the snapshot once, answers as a plain core on the same graph, and stops with its parent", async () => {
    const first = await start();
    expect(first.output()).toMatch(/Building the start-up snapshot of 300 people/);
    expect(first.output()).toMatch(/Start-up snapshot built in [\d.]+ s: .*300-people-[0-9a-f]{24}\.blob/);
    expect(first.output()).toMatch(/ready in \d+ ms \(graph \d+ ms: 300 people, 40 companies\)/);
    expect(first.output()).toContain("Graph: from the start-up snapshot (restored, not built)");
    expect(blobs()).toHaveLength(1);

    const core = createSandboxCore({ spec: loadSpec(DEFAULT_SPEC_PATH), people: 300, companies: 40, timers: false });
    try {
      for (const p of paths) {
        const res = await fetch(first.baseUrl + p, { headers });
        const plain = await core.handle({ method: "GET", url: `/v1${p}`, headers });
        expect(res.status, p).toBe(200);
        expect(await res.text(), p).toBe(plain.body);
      }
    } finally {
      core.close();
    }

    // SIGTERM to the parent alone (not its group) reaches the restored process, and both end.
    const [restored] = childPids(first.child.pid!, /--snapshot-blob/);
    expect(restored).toBeGreaterThan(0);
    const exited = new Promise<number | null>((r) => first.child.once("exit", (code) => r(code)));
    kill(first.child.pid!, "SIGTERM");
    expect(await exited).toBe(0);
    expect(await gone(restored!)).toBe(true);
  });

  it("restores the kept snapshot on the next start, and the restored sandbox ends when its parent is killed", async () => {
    const again = await start();
    expect(again.output()).not.toMatch(/Building the start-up snapshot/);
    expect(again.output()).toContain("Graph: from the start-up snapshot (restored, not built)");
    const res = await fetch(`${again.baseUrl}/people/priya-raman`, { headers });
    expect(res.status).toBe(200);
    const [restored] = childPids(again.child.pid!, /--snapshot-blob/);
    kill(again.child.pid!, "SIGKILL");
    expect(await gone(restored!)).toBe(true);
  });

  it("stops building on SIGTERM: the builder ends, no file is left, the exit code says why", async () => {
    const fresh = tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", "mocks/sandbox/start.ts", "--port", "0", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, [SNAPSHOT_DIR_ENV]: fresh },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    let builder: number | undefined;
    for (let waited = 0; builder === undefined && waited < 30_000; waited += 20) {
      await new Promise((r) => setTimeout(r, 20));
      builder = childPids(child.pid!, /--build-snapshot/)[0];
    }
    expect(builder).toBeGreaterThan(0);
    kill(child.pid!, "SIGTERM");
    expect(await exited).toBe(143);
    expect(await gone(builder!)).toBe(true);
    expect(readdirSync(path.join(fresh, "blobs"))).toEqual([]);
  });

  it("starts without a snapshot when none can be kept, saying why", async () => {
    const started = await spawnSandbox(args, { env: { [SNAPSHOT_DIR_ENV]: "/dev/null/snapshots" } });
    children.push(started.child);
    expect(started.output()).toMatch(/No start-up snapshot \(.*\/dev\/null\/snapshots.*\): starting without it\./);
    expect(started.output()).not.toContain("Graph: from the start-up snapshot");
    const res = await fetch(`${started.baseUrl}/people/priya-raman`, { headers });
    expect(res.status).toBe(200);
    const exited = new Promise((r) => started.child.once("exit", r));
    kill(started.child.pid!, "SIGTERM");
    await exited;
  });

  it("removes a snapshot Node cannot restore and starts without it", async () => {
    const [name] = blobs();
    writeFileSync(path.join(dir, "blobs", name!), "not a snapshot");
    const started = await start();
    expect(started.output()).toMatch(/could not be restored \(exit \d+\): removed it, starting without it/);
    expect(started.output()).not.toContain("Graph: from the start-up snapshot");
    expect(blobs()).toEqual([]);
    const res = await fetch(`${started.baseUrl}/people/priya-raman`, { headers });
    expect(res.status).toBe(200);
    const exited = new Promise((r) => started.child.once("exit", r));
    kill(started.child.pid!, "SIGTERM");
    await exited;
  });
});
