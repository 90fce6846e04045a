/**
 * Start-up snapshots (`npm run sandbox -- --snapshot`): the one-file bundle they are built from, their keys, and
 * real starts: the first one plain while the snapshot builds in the background (the builder stopping with it),
 * later ones restored (the answers those of a plain core on the same graph) and stopping with their parent, and
 * a file Node cannot restore removed, started without and built again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, RUN_TYPESCRIPT, loadSpec, partialFileOf } from "../../../contract-core/index.js";
import { childPids } from "../../../scripts/bench/harness.js";
import { KEYS } from "../auth.js";
import { createSandboxCore } from "../core.js";
import { spawnSandbox, type SandboxChild } from "../testing/child.js";
import { SNAPSHOT_BUILD_HOLD_ENV } from "./snapshot-protocol.js";
import {
  BuildCancelled,
  bundleSnapshotEntry,
  SNAPSHOT_DIR_ENV,
  snapshotFileName,
  startBuild,
  type SnapshotEntry,
} from "./startup-snapshot.js";

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

/** `probe()` once it gives a value (neither undefined nor null nor false), checked every 50 ms; undefined after `timeoutMs`. */
async function until<T>(probe: () => T | undefined | null | false, timeoutMs: number): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > end) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function gone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  return (await until(() => !alive(pid), timeoutMs)) === true;
}

describe("the snapshot's bundle", () => {
  it("is one CommonJS file, the same for the same code, with each file's import.meta.url filled in", async () => {
    const dir = tempDir();
    const first = await bundleSnapshotEntry(dir);
    expect(first.bundled).toBe(true);
    // Made again from the same files (no manifest to find), the same bundle.
    rmSync(first.file.replace(/\.cjs$/, ".json"));
    const second = await bundleSnapshotEntry(dir);
    expect(second).toEqual(first);
    expect(readdirSync(path.join(dir, "entries")).sort()).toEqual(
      [path.basename(first.file), path.basename(first.file).replace(/\.cjs$/, ".json")].sort(),
    );
    const text = readFileSync(first.file, "utf8");
    // esbuild's stand-in for an import.meta a CommonJS bundle lacks.
    expect(text).not.toMatch(/import_meta\d* = \{\}/);
    // contract-core finds the repository and the spec from its own file's URL.
    expect(text).toContain(JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "contract-core", "spec.ts")).href));
    expect(text).not.toMatch(/^module\.exports\s*=/m);
  });

  it("is kept and found again until a file it was made from changes", async () => {
    const dir = tempDir();
    const source = path.join(dir, "entry.ts");
    const dep = path.join(dir, "dep.ts");
    writeFileSync(source, 'import { answer } from "./dep.js";\nconsole.log(answer);\n');
    writeFileSync(dep, "export const answer = 41;\n");
    const made = await bundleSnapshotEntry(dir, source);
    expect(made.bundled).toBe(true);
    const kept = await bundleSnapshotEntry(dir, source);
    expect(kept).toEqual({ ...made, bundled: false });
    // Another entry's manifest is not this one's.
    expect((await bundleSnapshotEntry(dir, dep)).bundled).toBe(true);

    writeFileSync(dep, "export const answer = 42;\n");
    const changed = await bundleSnapshotEntry(dir, source);
    expect(changed.bundled).toBe(true);
    expect(changed.hash).not.toBe(made.hash);
    expect(readFileSync(changed.file, "utf8")).toContain("42");
    expect((await bundleSnapshotEntry(dir, source)).bundled).toBe(false);

    // The same text written again (a checkout, a save): bundled again, to the same bundle.
    const later = new Date(Date.now() + 5_000);
    utimesSync(dep, later, later);
    expect(await bundleSnapshotEntry(dir, source)).toEqual(changed);
    // A manifest naming a file that is gone is not used.
    rmSync(dep);
    await expect(bundleSnapshotEntry(dir, source)).rejects.toThrow();
  });

  it("refuses a bundle that would leave an import.meta it cannot fill in empty", async () => {
    const dir = tempDir();
    const source = path.join(dir, "entry.ts");
    writeFileSync(source, 'console.log(import.meta["resolve"]("./x.js"));\n');
    await expect(bundleSnapshotEntry(dir, source)).rejects.toThrow(/import\.meta empty in .*entry\.ts:1/);
  });
});

describe("startBuild", () => {
  const graph = { people: 10, companies: 4, seed: 1 };
  /** A stand-in for the bundled entry: the builder runs it as `node --build-snapshot <file>`. */
  function entryOf(dir: string, text: string): SnapshotEntry {
    const file = path.join(dir, "entry.cjs");
    writeFileSync(file, text);
    return { file, hash: "0", bundled: true };
  }

  it("reports a build that fails with the builder's own words, and leaves no file", async () => {
    const dir = tempDir();
    const blob = path.join(dir, "blobs", "x.blob");
    const build = startBuild(entryOf(dir, 'throw new Error("no graph today");\n'), graph, blob);
    await expect(build.done).rejects.toThrow(
      /building the start-up snapshot failed \(exit \d+\):[\s\S]*no graph today/,
    );
    expect(readdirSync(path.join(dir, "blobs"))).toEqual([]);
  });

  it("stops when cancelled, removes its partial file and says it was stopped (nothing to report)", async () => {
    const dir = tempDir();
    const blob = path.join(dir, "blobs", "x.blob");
    const build = startBuild(entryOf(dir, "for (;;);\n"), graph, blob);
    await new Promise((r) => setTimeout(r, 200));
    // What a builder cut short while writing leaves.
    writeFileSync(partialFileOf(blob), "part of a snapshot");
    build.cancel();
    await expect(build.done).rejects.toBeInstanceOf(BuildCancelled);
    expect(readdirSync(path.join(dir, "blobs"))).toEqual([]);
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

  /** Waits until `started` has printed a line matching `line`. */
  async function printed(started: SandboxChild, line: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
    const m = await until(() => line.exec(started.output()), timeoutMs);
    if (m) return m;
    throw new Error(`no line ${line} in ${timeoutMs} ms:\n${started.output()}`);
  }
  async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    kill(child.pid!, signal);
    return exited;
  }

  it("starts at once without a snapshot and builds it in the background; the next start restores it, answering as a plain core on the same graph", async () => {
    const first = await start();
    expect(first.output()).toMatch(/No start-up snapshot of 300 people yet: starting without one, and building it/);
    expect(first.output()).toMatch(/ready in \d+ ms \(graph \d+ ms: 300 people, 40 companies\)/);
    expect(first.output()).not.toContain("Graph: from the start-up snapshot");
    expect((await fetch(`${first.baseUrl}/people/priya-raman`, { headers })).status).toBe(200);
    await printed(first, /Start-up snapshot built in [\d.]+ s: .*300-people-[0-9a-f]{24}\.blob \(\d+ MB\); the next/);
    expect(blobs()).toHaveLength(1);
    expect(await stopped(first.child, "SIGTERM")).toBe(0);

    const second = await start();
    expect(second.output()).not.toMatch(/No start-up snapshot/);
    expect(second.output()).toMatch(/ready in \d+ ms \(graph \d+ ms: 300 people, 40 companies\)/);
    expect(second.output()).toContain("Graph: from the start-up snapshot (restored, not built)");
    const core = createSandboxCore({ spec: loadSpec(DEFAULT_SPEC_PATH), people: 300, companies: 40, timers: false });
    try {
      for (const p of paths) {
        const res = await fetch(second.baseUrl + p, { headers });
        const plain = await core.handle({ method: "GET", url: `/v1${p}`, headers });
        expect(res.status, p).toBe(200);
        expect(await res.text(), p).toBe(plain.body);
      }
    } finally {
      core.close();
    }

    // SIGTERM to the parent alone (not its group) reaches the restored process, and both end.
    const [restored] = childPids(second.child.pid!, /--snapshot-blob/);
    expect(restored).toBeGreaterThan(0);
    expect(await stopped(second.child, "SIGTERM")).toBe(0);
    expect(await gone(restored!)).toBe(true);
  }, 90_000); // two starts and a build: on a busy machine, more than the default 30 s

  it("restores the kept snapshot on the next start, and the restored sandbox ends when its parent is killed", async () => {
    const again = await start();
    expect(again.output()).not.toMatch(/No start-up snapshot/);
    expect(again.output()).toContain("Graph: from the start-up snapshot (restored, not built)");
    const res = await fetch(`${again.baseUrl}/people/priya-raman`, { headers });
    expect(res.status).toBe(200);
    const [restored] = childPids(again.child.pid!, /--snapshot-blob/);
    kill(again.child.pid!, "SIGKILL");
    expect(await gone(restored!)).toBe(true);
  });

  // The builder waits on a timer (no CPU) before it makes the graph, so the build is still running at each
  // signal below without a graph big enough to keep a core busy until then.
  const heldEnv = (folder: string) => ({ [SNAPSHOT_DIR_ENV]: folder, [SNAPSHOT_BUILD_HOLD_ENV]: "60000" });
  /** The first child process of `pid` whose command line matches `command`, once it has started (30 s at most). */
  const started = (pid: number, command: RegExp) => until(() => childPids(pid, command)[0], 30_000);
  const noFiles = (folder: string) => expect(readdirSync(path.join(folder, "blobs"))).toEqual([]);

  it("stops the background build when the sandbox stops: the builder ends and no file is left", async () => {
    const fresh = tempDir();
    const sandbox = await spawnSandbox(args, { env: heldEnv(fresh), timeoutMs: 60_000 });
    children.push(sandbox.child);
    const builder = await started(sandbox.child.pid!, /--build-snapshot/);
    expect(builder, sandbox.output()).toBeGreaterThan(0);
    expect(await stopped(sandbox.child, "SIGTERM")).toBe(0);
    expect(await gone(builder!)).toBe(true);
    expect(sandbox.output()).not.toMatch(/Start-up snapshot built/);
    noFiles(fresh);
  });

  it("a sandbox killed outright (SIGKILL) leaves no builder behind: its watchdog stops it and removes the partial file", async () => {
    const fresh = tempDir();
    const sandbox = await spawnSandbox(args, { env: heldEnv(fresh), timeoutMs: 60_000 });
    children.push(sandbox.child);
    const builder = await started(sandbox.child.pid!, /--build-snapshot/);
    const watchdog = await started(sandbox.child.pid!, /snapshot-build watchdog/);
    expect(builder, sandbox.output()).toBeGreaterThan(0);
    expect(watchdog, sandbox.output()).toBeGreaterThan(0);
    kill(sandbox.child.pid!, "SIGKILL");
    expect(await gone(builder!)).toBe(true);
    expect(await gone(watchdog!)).toBe(true);
    noFiles(fresh);
  });

  it("a signal while the sandbox starts stops the build too", async () => {
    const fresh = tempDir();
    const child = spawn(process.execPath, [...RUN_TYPESCRIPT, "mocks/sandbox/start.ts", "--port", "0", ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...heldEnv(fresh) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const builder = await started(child.pid!, /--build-snapshot/);
    expect(builder).toBeGreaterThan(0);
    // Signals are handled between turns of the event loop, and making the graph is one long turn: the signal
    // lands while the start loads its modules or makes its graph (143, the build stopped) or once the sandbox
    // listens (its own stop, 0). Either way the builder ends with it.
    expect([0, 143]).toContain(await stopped(child, "SIGTERM"));
    expect(await gone(builder!)).toBe(true);
    noFiles(fresh);
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

  it("removes a snapshot Node cannot restore, starts without it and builds it again", async () => {
    const [name] = blobs();
    const damaged = path.join(dir, "blobs", name!);
    writeFileSync(damaged, "not a snapshot");
    const started = await start();
    expect(started.output()).toMatch(/could not be restored \(exit \d+\): removed it\./);
    expect(started.output()).toMatch(/No start-up snapshot of 300 people yet: starting without one, and building it/);
    expect(started.output()).not.toContain("Graph: from the start-up snapshot");
    const res = await fetch(`${started.baseUrl}/people/priya-raman`, { headers });
    expect(res.status).toBe(200);
    await printed(started, /Start-up snapshot built in/);
    expect(readFileSync(damaged, "utf8").length).toBeGreaterThan(1000);
    await stopped(started.child, "SIGTERM");
  });
});
