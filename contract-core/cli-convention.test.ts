// Every npm script follows the command-line convention: `--help` prints usage on stdout, exits 0, starts
// nothing and writes no file; an unknown option exits 2 naming it and pointing to --help. Each check runs in
// this process: the entry module is imported as if it were the entry point (process.argv names it), which runs
// its command line as `node <file> --help` would; "starts nothing" is no asynchronous resource created by it
// (a file read, a socket, a server, a timer, a child process) up to the turn after its top level ends.
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "./spec.js";

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

/** The file an npm script runs: Node with the project's TypeScript hooks on one file. */
function entryFile(name: string): string {
  const match = /^exec node --import \.\/scripts\/typescript-hooks\.ts (\S+)$/.exec(scripts[name] ?? "");
  if (!match)
    throw new Error(
      `${name}: "${scripts[name]}" is not "exec node --import ./scripts/typescript-hooks.ts <file>" (exec: a signal sent to npm reaches the process itself); list it in SKIPPED with the reason`,
    );
  return match[1]!;
}

/** How the usage text names the command. */
const usageName = (name: string) => (name === "test" ? "npm test" : `npm run ${name}`);

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
    const results: [string, Ran][] = [];
    for (const [name] of commands) {
      const file = join(REPO_ROOT, entryFile(name));
      // Its modules are loaded first (by an unknown option, refused before any work): what a dependency starts as
      // it loads (Playwright's ids, node:dns's channel, MSW's broadcast port) is not the command line's doing.
      await inProcess(file, ["--no-such-option"]);
      results.push([name, await inProcess(file, ["--help", ...out(name)])]);
    }
    const after = listing();
    for (const [name, result] of results) {
      expect({ name, code: result.code ?? 0, stderr: result.stderr, started: result.started }).toEqual({
        name,
        code: 0,
        stderr: "",
        started: [],
      });
      expect(result.stdout, name).toMatch(new RegExp(`^Usage: ${usageName(name).replace(/[:]/g, "\\:")}\\b`, "m"));
      expect(result.stdout, name).toMatch(/--help/);
      expect(existsSync(join(scratch, name)), `${name} wrote its --out`).toBe(false);
    }
    const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
    const removed = [...before.keys()].filter((path) => !after.has(path));
    expect({ changed, removed }).toEqual({ changed: [], removed: [] });
  });

  it("rejects an unknown option with exit 2, naming it and pointing to --help (in this process)", async () => {
    for (const [name] of commands) {
      const file = join(REPO_ROOT, entryFile(name));
      const result = await inProcess(file, ["--no-such-option"]);
      expect({ name, code: result.code }).toEqual({ name, code: 2 });
      expect(result.stderr, name).toContain("--no-such-option");
      expect(result.stderr, name).toContain("--help");
    }
  });
});

/**
 * The exit-code convention for what users get wrong most: a file that is not there, a key variable that is not set.
 * Each row is a script, the arguments that name a missing input, and what its one line must say; exit 2 for all.
 * Run in this process like the unknown options above.
 */
const MISSING = "no-such-input";
const UNREACHABLE = "http://127.0.0.1:9/v1";
const MISSING_INPUTS: [script: string, args: string[], says: string][] = [
  ["mock", ["--spec", `${MISSING}.json`, "--port", "0"], `${MISSING}.json not found`],
  ["proxy", ["--spec", `${MISSING}.json`, "--port", "0", UNREACHABLE], `${MISSING}.json not found`],
  ["sandbox", ["--state-seed", `${MISSING}.json`, "--port", "0", "--people", "10"], `--state-seed ${MISSING}.json`],
  ["trace", ["--reference", `${MISSING}.md`], `reference not found`],
  ["trace", ["--spec", `${MISSING}.json`], `${MISSING}.json`],
  ["trace", ["--trace", `${MISSING}.yaml`], `${MISSING}.yaml`],
  ["docs", ["--spec", `${MISSING}.json`, "--out", join(scratch, "docs-missing")], `${MISSING}.json`],
  ["lint", [`${MISSING}.ts`], `no such file: ${MISSING}.ts`],
  ["contract", [`${MISSING}.json`], `${MISSING}.json`],
  ["contract", ["--spec", `${MISSING}.json`, "contract-tests/recordings"], `${MISSING}.json`],
  ["breaking", [`${MISSING}.json`, "generated/openapi.json"], `${MISSING}.json`],
  ["fuzz", ["--spec", `${MISSING}.json`, UNREACHABLE], `${MISSING}.json`],
  ["fuzz", ["--key-env", "NO_SUCH_KEY_VARIABLE", UNREACHABLE], "NO_SUCH_KEY_VARIABLE"],
  ["workflows", ["--server", UNREACHABLE, "--key-env", "NO_SUCH_KEY_VARIABLE"], "NO_SUCH_KEY_VARIABLE"],
  ["record", ["--base-url", UNREACHABLE, "--no-key", `${MISSING}.json`], `${MISSING}.json`],
  ["record", ["--base-url", UNREACHABLE, "--key-env", "NO_SUCH_KEY_VARIABLE", "x.json"], "NO_SUCH_KEY_VARIABLE"],
  ["ts", [`${MISSING}.ts`], `no such file: ${MISSING}.ts`],
  ["changelog", ["--rev", MISSING, "--out", join(scratch, "changelog-missing")], MISSING],
];

describe("a missing input or key exits 2 with one line naming it", () => {
  it.each(MISSING_INPUTS)("npm run %s %j", async (name, args, says) => {
    const result = await inProcess(join(REPO_ROOT, entryFile(name)), args);
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 2 });
    // The line, and at most the convention's pointer to --help after it: no stack trace, no dump.
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0], result.stderr).toContain(says);
    expect(
      lines.slice(1).filter((line) => !/--help lists the options/.test(line)),
      result.stderr,
    ).toEqual([]);
  });
});

/** Marks the code a command line runs, and all it goes on to run. */
const context = new AsyncLocalStorage<object>();
/** Each run imports a fresh instance of the entry module, so that its top level runs again. */
let instances = 0;

/** Work queued within this process's own turn, not started: promises, nextTick, setImmediate, microtasks. */
const QUEUED = new Set(["PROMISE", "TickObject", "Immediate", "Microtask"]);

interface Ran {
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** The asynchronous resources the command line created (a file read, a socket, a server, a timer). */
  started: string[];
}

/**
 * Runs an entry module's command line in this process: process.argv names the module (so its isMain check
 * holds) and carries `args`; a fresh instance of the module (a query on its URL) runs its top level. What it
 * writes to stdout and stderr (directly or through console.log and console.error), the exit code it sets or exits
 * with, and what it left active are returned, and the process is left as it was.
 */
async function inProcess(file: string, args: string[]): Promise<Ran> {
  const argv = process.argv;
  const exitCode = process.exitCode;
  let stdout = "";
  let stderr = "";
  const outWrite = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => {
    stdout += `${parts.join(" ")}\n`;
  });
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
  // Every asynchronous resource the command line creates, from its import to the turn after: a command that went
  // on past it opens a file, a socket, a server, a child process or a timer. Only what its own code creates is
  // counted (its context, `run`), not what other files' servers and timers in this worker do meanwhile.
  const run = {};
  const created: string[] = [];
  const hook = createHook({
    init: (_id, type) => void (context.getStore() === run && !QUEUED.has(type) && created.push(type)),
  }).enable();
  const started = async () => {
    await context.run(run, () => new Promise((done) => setImmediate(done)));
    hook.disable();
    return [...new Set(created)];
  };
  process.argv = [argv[0]!, file, ...args];
  process.exitCode = undefined;
  try {
    await context.run(run, () => import(`${pathToFileURL(file).href}?convention=${++instances}`));
    const code = process.exitCode === undefined ? undefined : Number(process.exitCode);
    return { code, stdout, stderr, started: await started() };
  } catch (e) {
    if (e !== exited) throw e;
    return { code: exited.code, stdout, stderr, started: await started() };
  } finally {
    hook.disable();
    process.argv = argv;
    process.exitCode = exitCode;
    outWrite.mockRestore();
    log.mockRestore();
    write.mockRestore();
    error.mockRestore();
    exit.mockRestore();
  }
}
