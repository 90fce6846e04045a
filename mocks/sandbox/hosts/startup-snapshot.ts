/**
 * Start-up snapshots of the sandbox (`npm run sandbox -- --snapshot`). Most of a large sandbox's start goes to
 * making its generated graph and search index. A start-up snapshot is the V8 heap of a process that has made
 * them (hosts/snapshot-entry.ts), written once by Node's `--build-snapshot`; a later start restores that heap
 * (`node --snapshot-blob`) instead of making the graph again, then loads the rest of the sandbox as usual.
 *
 * Snapshots are kept in node_modules/.cache/tg-sandbox-snapshots (TG_SANDBOX_SNAPSHOT_DIR elsewhere), named by a
 * key of the graph's options, the Node version and platform, and the bundled code: a change to any of them
 * builds a new one, and a file Node cannot restore is removed. A start that finds no snapshot starts the sandbox
 * at once, as a plain start, while a child process builds the snapshot in the background.
 * Building runs without V8's optimizing compilers (a snapshot cannot hold optimized code), so it takes a few
 * times longer than a plain start: worth it for a graph that is started again and again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { REPO_ROOT, partialFileOf, pruneCacheFiles, writeFileWhole } from "../../../contract-core/index.js";
import { resolveOptions, type SandboxOptions } from "../options.js";
import { RESTORED_MESSAGE, SNAPSHOT_GRAPH_ENV, type RestoredSnapshot } from "./snapshot-protocol.js";

export const SNAPSHOT_DIR_ENV = "TG_SANDBOX_SNAPSHOT_DIR";
/** Snapshots kept (a 500,000-person one is several hundred MB); past it the least recently used go. */
const SNAPSHOTS_KEPT = 2;
/** Bundles kept (each with its manifest). */
const ENTRIES_KEPT = 4;
/** A build writes its file at its very end; a partial file older than this was left by a crash. */
const PARTIAL_AGE_MS = 10 * 60_000;
const ENTRY_SOURCE = fileURLToPath(new URL("./snapshot-entry.ts", import.meta.url));

/** The folder snapshots are kept in. */
export function snapshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[SNAPSHOT_DIR_ENV] || path.join(REPO_ROOT, "node_modules", ".cache", "tg-sandbox-snapshots");
}

/** The one-file script a snapshot is built from, and the hash of its text (part of every snapshot's key). */
export interface SnapshotEntry {
  file: string;
  hash: string;
  /** False when the kept bundle was used: no input changed since it was made (see keptEntry). */
  bundled: boolean;
}

/**
 * What a kept bundle was made from: its source, and the size and modification time of every file esbuild read
 * for it, plus the files that shape how esbuild reads them (its own version, the TypeScript and package
 * settings, this module's options). Saved beside the bundle as entry-<hash>.json.
 */
interface EntryManifest {
  source: string;
  hash: string;
  inputs: [file: string, size: number, mtimeMs: number][];
}

const THIS_FILE = fileURLToPath(import.meta.url);
const BUNDLE_SETTINGS = [
  THIS_FILE,
  path.join(REPO_ROOT, "package.json"),
  path.join(REPO_ROOT, "tsconfig.json"),
  path.join(REPO_ROOT, "node_modules", "esbuild", "package.json"),
];

function fileStamp(file: string): [file: string, size: number, mtimeMs: number] | null {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? [file, s.size, s.mtimeMs] : null;
}

/**
 * The newest kept bundle of `source` none of whose inputs changed (same size and modification time), so a
 * start skips bundling (about half a second, esbuild's start included). An edit changes the edited file's time,
 * and a new import is an edit of a file already listed; anything unreadable means bundling again.
 */
function keptEntry(entries: string, source: string): SnapshotEntry | null {
  let names: string[];
  try {
    names = readdirSync(entries).filter((n) => /^entry-[0-9a-f]+\.json$/.test(n));
  } catch {
    return null;
  }
  const newest = names
    .map((n) => ({
      file: path.join(entries, n),
      at: statSync(path.join(entries, n), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    }))
    .sort((a, b) => b.at - a.at);
  for (const { file } of newest) {
    let manifest: EntryManifest;
    try {
      manifest = JSON.parse(readFileSync(file, "utf8")) as EntryManifest;
    } catch {
      continue;
    }
    if (manifest.source !== source || !Array.isArray(manifest.inputs)) continue;
    const bundle = path.join(entries, `entry-${manifest.hash}.cjs`);
    if (!existsSync(bundle)) continue;
    const same = manifest.inputs.every(([input, size, mtimeMs]) => {
      const now = fileStamp(input);
      return now !== null && now[1] === size && now[2] === mtimeMs;
    });
    if (same) {
      touch(bundle);
      touch(file);
      return { file: bundle, hash: manifest.hash, bundled: false };
    }
  }
  return null;
}

/**
 * Replaces `import.meta.url` (and `dirname`, `filename`) by each file's own value: a CommonJS bundle has no
 * import.meta, and contract-core finds the repository and the spec from it.
 */
const fileUrls: Plugin = {
  name: "file-urls",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const contents = text
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(path.dirname(args.path)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
      return { contents, loader: /\.[cm]?ts$/.test(args.path) ? "ts" : "js", resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * Bundles snapshot-entry.ts, and everything a restored start loads, into one CommonJS file in `dir`/entries
 * (a snapshot is built from one script; Node's snapshot builder loads no other file), or finds the kept bundle
 * of the same inputs.
 */
export async function bundleSnapshotEntry(
  dir: string = snapshotDir(),
  /** The entry's source (tests bundle others). */
  source: string = ENTRY_SOURCE,
): Promise<SnapshotEntry> {
  const entries = path.join(dir, "entries");
  const kept = keptEntry(entries, source);
  if (kept) return kept;
  const esbuild = await import("esbuild");
  const result = await esbuild
    .build({
      entryPoints: [source],
      absWorkingDir: REPO_ROOT,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node22",
      // Only the parent of a restored process builds snapshots; the restored one never loads esbuild.
      external: ["esbuild"],
      plugins: [fileUrls],
      write: false,
      metafile: true,
      logLevel: "silent",
      legalComments: "none",
    })
    // esbuild's service process would otherwise stay beside the sandbox for as long as it runs.
    .finally(() => esbuild.stop());
  const left = result.warnings.filter((w) => w.id === "empty-import-meta");
  if (left.length > 0) {
    const where = left.map((w) => `${w.location?.file ?? "?"}:${w.location?.line ?? "?"}`).join(", ");
    throw new Error(`the snapshot bundle would leave import.meta empty in ${where}`);
  }
  const text = result.outputFiles[0]!.text;
  const hash = sha256(text).slice(0, 16);
  const file = path.join(entries, `entry-${hash}.cjs`);
  const read = Object.keys(result.metafile.inputs).map((input) => path.resolve(REPO_ROOT, input));
  const inputs = [...new Set([...read, ...BUNDLE_SETTINGS])].map(fileStamp);
  if (existsSync(file)) touch(file);
  else writeFileWhole(file, text);
  // A file that vanished while bundling leaves no manifest: the next start bundles again.
  if (inputs.every((i) => i !== null)) {
    const manifest: EntryManifest = { source, hash, inputs };
    writeFileWhole(path.join(entries, `entry-${hash}.json`), JSON.stringify(manifest));
  }
  pruneCacheFiles(entries, 2 * ENTRIES_KEPT);
  return { file, hash, bundled: true };
}

/** A snapshot's file name: its people count (for a reader of the folder) and its key. */
export function snapshotFileName(graph: RestoredSnapshot, entryHash: string): string {
  const key = sha256(
    JSON.stringify([
      process.version,
      process.platform,
      process.arch,
      entryHash,
      graph.people,
      graph.companies,
      graph.seed,
    ]),
  ).slice(0, 24);
  return `${graph.people}-people-${key}.blob`;
}

/** A snapshot being built by a child process, while this process goes on. */
export interface SnapshotBuild {
  /** Resolves once the file is in place; rejects with the builder's last output when it failed. */
  done: Promise<void>;
  /**
   * Stops the builder and removes its partial file. Synchronous, so an 'exit' listener can call it; a builder
   * that wrote a last block after the removal leaves a partial file the next prune removes.
   */
  cancel(): void;
}

/** How `SnapshotBuild.done` fails after `cancel()`: nothing to report, the caller stopped it. */
export class BuildCancelled extends Error {}

/** The last bytes of a builder's output kept for an error message. */
const OUTPUT_KEPT = 8_000;

/**
 * The builder's watchdog (`node -e`, arguments: the builder's pid and its partial file). Its standard input is
 * a pipe from the process that started the build, and the operating system closes that pipe however the
 * process ends, SIGKILL included, when no listener of its own can run: the watchdog then stops the builder and
 * removes the partial file. The builder cannot watch for this itself: it makes the graph in one long turn of
 * its event loop. The starting process stops the watchdog once the build ends or is cancelled.
 */
const BUILD_WATCHDOG = `// tg-sandbox snapshot-build watchdog
const [, builder, partial] = process.argv;
const stop = () => {
  try { process.kill(Number(builder), "SIGKILL"); } catch {}
  try { require("node:fs").rmSync(partial, { force: true }); } catch {}
  process.exit(0);
};
process.stdin.on("end", stop).on("close", stop).on("error", stop).resume();`;

/** Starts the watchdog of a builder (above); undefined when it cannot start (the build then goes on unwatched). */
function watchBuilder(builder: number, partial: string): ChildProcess | undefined {
  try {
    const watchdog = spawn(process.execPath, ["-e", BUILD_WATCHDOG, String(builder), partial], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    // Nothing is ever written to the pipe; neither the watchdog nor its pipe may end or hold this process.
    watchdog.once("error", () => undefined);
    watchdog.stdin?.on("error", () => undefined);
    watchdog.unref();
    (watchdog.stdin as Socket | null)?.unref();
    return watchdog;
  } catch {
    return undefined;
  }
}

/**
 * Starts building the snapshot of `graph` from `entry` into `blob` (written whole) in a child process, with a
 * watchdog that stops it if this process is killed outright. It runs at normal priority: at a low one, a busy
 * machine (CI, other work on every core) starved it until it never finished, while on a machine with a free
 * core it takes that core and the sandbox keeps its own.
 */
export function startBuild(entry: SnapshotEntry, graph: RestoredSnapshot, blob: string): SnapshotBuild {
  mkdirSync(path.dirname(blob), { recursive: true });
  const partial = partialFileOf(blob);
  const child = spawn(process.execPath, ["--snapshot-blob", partial, "--build-snapshot", entry.file], {
    env: { ...process.env, [SNAPSHOT_GRAPH_ENV]: JSON.stringify(graph) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watchdog = child.pid === undefined ? undefined : watchBuilder(child.pid, partial);
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let cancelled = false;
  const cancel = () => {
    if (cancelled) return;
    cancelled = true;
    child.kill("SIGKILL");
    watchdog?.kill("SIGKILL");
    rmSync(partial, { force: true });
  };
  const done = new Promise<void>((resolve, reject) => {
    child.once("error", (e) => {
      watchdog?.kill("SIGKILL");
      rmSync(partial, { force: true });
      reject(e);
    });
    child.once("close", (code, signal) => {
      watchdog?.kill("SIGKILL");
      if (cancelled) return reject(new BuildCancelled("the build was stopped"));
      if (code !== 0 || !existsSync(partial)) {
        rmSync(partial, { force: true });
        const tail = output.trim().split("\n").slice(-20).join("\n");
        return reject(new Error(`building the start-up snapshot failed (${signal ?? `exit ${code}`}):\n${tail}`));
      }
      try {
        renameSync(partial, blob);
        pruneCacheFiles(path.dirname(blob), SNAPSHOTS_KEPT, PARTIAL_AGE_MS);
        resolve();
      } catch (e) {
        reject(e as Error);
      }
    });
  });
  // A failure is reported by whoever awaits `done`; an unobserved one must not end the process.
  done.catch(() => undefined);
  return { done, cancel };
}

/** How a restored process ended: whether Node restored the snapshot at all, and its exit code. */
export interface RestoredRun {
  restored: boolean;
  code: number;
}

/**
 * Runs the sandbox from `blob` with the command line `argv`, relaying SIGINT and SIGTERM, until it exits.
 * `restored` is false when Node could not restore the file (it exits before the snapshot's main function).
 */
export async function runRestored(blob: string, argv: readonly string[]): Promise<RestoredRun> {
  // Listening before the child is spawned: until a listener is added, a signal's default action ends this
  // process at once and leaves the child running. (Listeners run from the event loop, after `child` is set.)
  const relay = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", relay);
  process.on("SIGTERM", relay);
  const child = spawn(process.execPath, ["--snapshot-blob", blob, "--", ...argv], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  let restored = false;
  child.on("message", (message) => {
    if (message === RESTORED_MESSAGE) restored = true;
  });
  try {
    // 'close' comes after the IPC channel has delivered its messages; 'exit' may come before.
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (c, s) => resolve([c, s]));
    });
    return { restored, code: code ?? (signal ? 1 : 0) };
  } finally {
    process.off("SIGINT", relay);
    process.off("SIGTERM", relay);
  }
}

/**
 * `npm run sandbox -- --snapshot ...`: runs the sandbox from the kept snapshot of this graph, and ends with
 * that sandbox's exit code. Without one (none kept yet, or a file Node cannot restore, which is removed),
 * `startWithout` starts the sandbox here at once while the snapshot is built in the background for the next
 * start; without a usable folder (read-only or full disk, no esbuild), it starts here after saying why.
 */
export async function startFromSnapshot(
  options: Partial<SandboxOptions>,
  argv: readonly string[],
  startWithout: () => Promise<void>,
): Promise<number> {
  const { people, companies, seed } = resolveOptions(options);
  const graph: RestoredSnapshot = { people, companies, seed };
  let entry: SnapshotEntry;
  let blob: string;
  try {
    const dir = snapshotDir();
    entry = await bundleSnapshotEntry(dir);
    blob = path.join(dir, "blobs", snapshotFileName(graph, entry.hash));
  } catch (e) {
    return startedWithout(e, startWithout);
  }
  if (existsSync(blob)) {
    touch(blob);
    const run = await runRestored(blob, argv);
    if (run.restored) return run.code;
    rmSync(blob, { force: true });
    console.error(
      `The start-up snapshot ${path.relative(process.cwd(), blob)} could not be restored (exit ${run.code}): removed it.`,
    );
  }
  return startWhileBuilding(() => startBuild(entry, graph, blob), graph, blob, startWithout);
}

/** Starts the sandbox here, saying why there is no snapshot (a read-only or full disk, no esbuild). */
async function startedWithout(e: unknown, startWithout: () => Promise<void>): Promise<number> {
  console.error(`No start-up snapshot (${(e as Error).message}): starting without it.`);
  await startWithout();
  return 0;
}

/**
 * Starts the build and, at once, the sandbox here. The builder never outlives this process: a signal handled
 * before the sandbox listens (it then handles SIGINT and SIGTERM itself) stops both with 130 or 143, any
 * other end of this process (the sandbox's own stop among them) stops the builder, and when this process is
 * killed outright the build's watchdog does (startBuild).
 */
async function startWhileBuilding(
  begin: () => SnapshotBuild,
  graph: RestoredSnapshot,
  blob: string,
  startWithout: () => Promise<void>,
): Promise<number> {
  // Listening before the builder is spawned: until a listener is added, a signal's default action ends this
  // process at once and leaves the builder running.
  let build: SnapshotBuild | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    build?.cancel();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  try {
    try {
      build = begin();
    } catch (e) {
      return await startedWithout(e, startWithout);
    }
    const { cancel, done } = build;
    process.on("exit", cancel);
    const t0 = performance.now();
    console.log(
      `No start-up snapshot of ${graph.people.toLocaleString("en-US")} people yet: starting without one, and building it in the background (minutes for a large graph) for the next --snapshot start.`,
    );
    done.then(
      () => {
        process.off("exit", cancel);
        const mb = (statSync(blob, { throwIfNoEntry: false })?.size ?? 0) / 1e6;
        console.log(
          `Start-up snapshot built in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${path.relative(process.cwd(), blob)} (${mb.toFixed(0)} MB); the next --snapshot start restores it.`,
        );
      },
      (e: Error) => {
        process.off("exit", cancel);
        if (!(e instanceof BuildCancelled))
          console.error(`No start-up snapshot: ${e.message}\nThe sandbox goes on without one.`);
      },
    );
    try {
      await startWithout();
    } catch (e) {
      cancel();
      throw e;
    }
    return 0;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Marks a kept file as used now, so pruning keeps the ones in use. */
function touch(file: string): void {
  const now = new Date();
  utimesSync(file, now, now);
}
