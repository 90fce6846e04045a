/**
 * Start-up snapshots of the sandbox (`npm run sandbox -- --snapshot`). Most of a large sandbox's start goes to
 * making its generated graph and search index. A start-up snapshot is the V8 heap of a process that has made
 * them (hosts/snapshot-entry.ts), written once by Node's `--build-snapshot`; a later start restores that heap
 * (`node --snapshot-blob`) instead of making the graph again, then loads the rest of the sandbox as usual.
 *
 * Snapshots are kept in node_modules/.cache/tg-sandbox-snapshots (TG_SANDBOX_SNAPSHOT_DIR elsewhere), named by a
 * key of the graph's options, the Node version and platform, and the bundled code: a change to any of them
 * builds a new one, and a file Node cannot restore is removed and the start goes on without it. Building runs
 * without V8's optimizing compilers (a snapshot cannot hold optimized code), so the first start takes a few
 * times longer than a plain one: worth it for a graph that is started again and again.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { REPO_ROOT, partialFileOf, pruneCacheFiles, writeFileWhole } from "../../../contract-core/index.js";
import { resolveOptions, type SandboxOptions } from "../options.js";
import { RESTORED_MESSAGE, SNAPSHOT_GRAPH_ENV, type RestoredSnapshot } from "./snapshot-protocol.js";

export const SNAPSHOT_DIR_ENV = "TG_SANDBOX_SNAPSHOT_DIR";
/** Snapshots kept (a 500,000-person one is several hundred MB); past it the least recently used go. */
const SNAPSHOTS_KEPT = 2;
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
 * (a snapshot is built from one script; Node's snapshot builder loads no other file).
 */
export async function bundleSnapshotEntry(
  dir: string = snapshotDir(),
  /** The entry's source (tests bundle others). */
  source: string = ENTRY_SOURCE,
): Promise<SnapshotEntry> {
  const esbuild = await import("esbuild");
  const result = await esbuild
    .build({
      entryPoints: [source],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node22",
      // Only the parent of a restored process builds snapshots; the restored one never loads esbuild.
      external: ["esbuild"],
      plugins: [fileUrls],
      write: false,
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
  const entries = path.join(dir, "entries");
  const file = path.join(entries, `entry-${hash}.cjs`);
  if (existsSync(file)) touch(file);
  else {
    writeFileWhole(file, text);
    pruneCacheFiles(entries, ENTRIES_KEPT);
  }
  return { file, hash };
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

/**
 * Builds the snapshot of `graph` from `entry` into `blob` (written whole). Throws with the builder's output.
 * SIGINT or SIGTERM while it builds stops the builder, removes its partial file and ends this process.
 */
export async function buildSnapshot(entry: SnapshotEntry, graph: RestoredSnapshot, blob: string): Promise<void> {
  mkdirSync(path.dirname(blob), { recursive: true });
  const partial = partialFileOf(blob);
  // Listening before the builder is spawned: until a listener is added, a signal's default action ends this
  // process at once and leaves the builder running. (Listeners run from the event loop, after `child` is set.)
  let interrupted: NodeJS.Signals | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    interrupted = signal;
    child.kill("SIGKILL");
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  const child = spawn(process.execPath, ["--snapshot-blob", partial, "--build-snapshot", entry.file], {
    env: { ...process.env, [SNAPSHOT_GRAPH_ENV]: JSON.stringify(graph) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  }).finally(() => {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  });
  if (interrupted) {
    rmSync(partial, { force: true });
    process.exit(interrupted === "SIGINT" ? 130 : 143);
  }
  if (code !== 0 || !existsSync(partial)) {
    rmSync(partial, { force: true });
    throw new Error(
      `building the start-up snapshot failed (exit ${code}):\n${output.trim().split("\n").slice(-20).join("\n")}`,
    );
  }
  renameSync(partial, blob);
  pruneCacheFiles(path.dirname(blob), SNAPSHOTS_KEPT, PARTIAL_AGE_MS);
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
  // Listening before the child is spawned, as in buildSnapshot: no signal ends this process without it.
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
 * `npm run sandbox -- --snapshot ...`: finds (or builds) the snapshot of this graph and runs the sandbox from
 * it; the process's exit code is the restored sandbox's. A snapshot Node cannot restore is removed, and
 * `startWithout` starts the sandbox here instead.
 */
export async function startFromSnapshot(
  options: Partial<SandboxOptions>,
  argv: readonly string[],
  startWithout: () => Promise<void>,
): Promise<number> {
  let blob: string;
  try {
    blob = await findOrBuild(options);
  } catch (e) {
    // No snapshot is no reason not to start: a read-only or full disk, an install without esbuild.
    console.error(`No start-up snapshot (${(e as Error).message}): starting without it.`);
    await startWithout();
    return 0;
  }
  const run = await runRestored(blob, argv);
  if (run.restored) return run.code;
  rmSync(blob, { force: true });
  console.error(
    `The start-up snapshot ${path.relative(process.cwd(), blob)} could not be restored (exit ${run.code}): removed it, starting without it.`,
  );
  await startWithout();
  return 0;
}

/** The kept snapshot for these options, built first when there is none. */
async function findOrBuild(options: Partial<SandboxOptions>): Promise<string> {
  const { people, companies, seed } = resolveOptions(options);
  const graph: RestoredSnapshot = { people, companies, seed };
  const dir = snapshotDir();
  const entry = await bundleSnapshotEntry(dir);
  const blob = path.join(dir, "blobs", snapshotFileName(graph, entry.hash));
  if (existsSync(blob)) {
    touch(blob);
    return blob;
  }
  console.log(
    `Building the start-up snapshot of ${people.toLocaleString("en-US")} people (once for this graph, code and Node version; minutes for a large graph)...`,
  );
  const t0 = performance.now();
  await buildSnapshot(entry, graph, blob);
  const mb = statSync(blob).size / 1e6;
  console.log(
    `Start-up snapshot built in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${path.relative(process.cwd(), blob)} (${mb.toFixed(0)} MB)`,
  );
  return blob;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Marks a kept file as used now, so pruning keeps the ones in use. */
function touch(file: string): void {
  const now = new Date();
  utimesSync(file, now, now);
}
