// Every npm script follows the command-line convention: `--help` prints usage on stdout, exits 0, starts
// nothing and writes no file; an unknown option exits 2 naming it and pointing to --help. Each entry point
// starts once as a process, with --help (on Node directly, no npm in between, a few at a time): the process is
// what that checks. The unknown option runs in this process: the entry module is imported as if it were the
// entry point (process.argv names it), which runs its command line as `node <file> --no-such-option` would.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT, RUN_TYPESCRIPT } from "./spec.js";

/** Scripts that are not commands of this project's convention, with the reason. */
const SKIPPED: Record<string, string> = {
  prepack:
    "npm's pack hook (also what a git install runs): `npm run build`'s command, whose --help this test checks; " +
    "before `npm run pack` it does nothing (npm-run.test.ts)",
};
/** Commands that write files and take --out. */
const WRITERS = ["generate", "build", "build:client", "docs", "changelog", "record"];
/** Other test files write here while this one runs (client build output, docs screenshot and page, the sandbox suite's coverage log). */
const WRITTEN_BY_OTHER_TESTS = [/^dist\/\.test-build-/, /^dist\/docs\//, /^dist\/coverage\//];

const scripts = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;
const commands = Object.entries(scripts).filter(([name]) => !(name in SKIPPED));
const scratch = mkdtempSync(join(tmpdir(), "cli-convention-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function listing(dir = REPO_ROOT, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === ".git") continue;
    const path = join(dir, entry.name);
    const rel = relative(REPO_ROOT, path);
    if (WRITTEN_BY_OTHER_TESTS.some((re) => re.test(rel))) continue;
    if (entry.isDirectory()) listing(path, out);
    else {
      const s = statSync(path);
      out.set(rel, `${s.size}:${s.mtimeMs}`);
    }
  }
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `task` over `items`, `limit` at a time (the entry points load heavy modules: Prism, Spectral, Redocly). */
async function pool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
const LIMIT = Math.max(2, availableParallelism());

/** The file an npm script runs: Node with the project's TypeScript hooks on one file. */
function entryFile(name: string): string {
  const match = /^node --import \.\/scripts\/typescript-hooks\.ts (\S+)$/.exec(scripts[name] ?? "");
  if (!match)
    throw new Error(
      `${name}: "${scripts[name]}" is not "node --import ./scripts/typescript-hooks.ts <file>"; list it in SKIPPED with the reason`,
    );
  return match[1]!;
}

/** How the usage text names the command. */
const usageName = (name: string) => (name === "test" ? "npm test" : `npm run ${name}`);

/** `npm run <name> -- ...args` without npm in between: Node with the project's TypeScript hooks, as the script runs it. */
function run(name: string, args: string[]): Promise<Run> {
  const file = entryFile(name);
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [...RUN_TYPESCRIPT, file, ...args],
      { cwd: REPO_ROOT, timeout: 90_000, env: { ...process.env, NO_COLOR: "1", PORT: "", HOST: "" } },
      (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe("every npm script takes --help", () => {
  it("covers every script but the listed ones", () => {
    expect(commands.length).toBeGreaterThanOrEqual(13);
    for (const name of [
      "lint",
      "generate",
      "check:generated",
      "contract",
      "record",
      "mock",
      "proxy",
      "build:client",
      "docs",
      "docs:preview",
      "breaking",
      "gate",
      "bench",
    ]) {
      expect(commands.map(([n]) => n)).toContain(name);
    }
  });

  it("prints usage, exits 0, starts nothing and writes no file", async () => {
    const before = listing();
    // --out points into scratch: a command that ignored --help and did its work would create it.
    const out = (name: string) => (WRITERS.includes(name) ? ["--out", join(scratch, name)] : []);
    const results = await pool(
      commands,
      LIMIT,
      async ([name]) => [name, await run(name, ["--help", ...out(name)])] as const,
    );
    const after = listing();
    for (const [name, result] of results) {
      expect({ name, code: result.code, stderr: result.stderr.replace(/^npm warn.*\n/gm, "") }).toEqual({
        name,
        code: 0,
        stderr: "",
      });
      expect(result.stdout, name).toMatch(new RegExp(`^Usage: ${usageName(name).replace(/[:]/g, "\\:")}\\b`, "m"));
      expect(result.stdout, name).toMatch(/--help/);
      expect(existsSync(join(scratch, name)), `${name} wrote its --out`).toBe(false);
    }
    const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
    const removed = [...before.keys()].filter((path) => !after.has(path));
    expect({ changed, removed }).toEqual({ changed: [], removed: [] });
  }, 240_000);

  it("rejects an unknown option with exit 2, naming it and pointing to --help (in this process)", async () => {
    for (const [name] of commands) {
      const file = join(REPO_ROOT, entryFile(name));
      const result = await inProcess(file, ["--no-such-option"]);
      expect({ name, code: result.code }).toEqual({ name, code: 2 });
      expect(result.stderr, name).toContain("--no-such-option");
      expect(result.stderr, name).toContain("--help");
    }
  }, 240_000);
});

/**
 * Runs an entry module's command line in this process: process.argv names the module (so its isMain check
 * holds) and carries `args`; a fresh instance of the module (a query on its URL) runs its top level. What it
 * writes to stderr (directly or through console.error) and the exit code it sets or exits with are returned,
 * and the process is left as it was.
 */
async function inProcess(file: string, args: string[]): Promise<{ code: number | undefined; stderr: string }> {
  const argv = process.argv;
  const exitCode = process.exitCode;
  let stderr = "";
  const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const error = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
    stderr += `${parts.join(" ")}\n`;
  });
  // A command that ends with process.exit(code) stops there: the call throws, and the code is the outcome.
  const exited = { code: undefined as number | undefined };
  const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
    exited.code = Number(code ?? 0);
    throw exited;
  });
  process.argv = [argv[0]!, file, ...args];
  process.exitCode = undefined;
  try {
    await import(`${pathToFileURL(file).href}?convention=${encodeURIComponent(args.join(" "))}`);
    return { code: process.exitCode === undefined ? undefined : Number(process.exitCode), stderr };
  } catch (e) {
    if (e !== exited) throw e;
    return { code: exited.code, stderr };
  } finally {
    process.argv = argv;
    process.exitCode = exitCode;
    write.mockRestore();
    error.mockRestore();
    exit.mockRestore();
  }
}
