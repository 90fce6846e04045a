// Every npm script follows the command-line convention: `--help` prints usage on stdout, exits 0, starts
// nothing and writes no file; an unknown option exits 2 naming it and pointing to --help. Commands run
// on Node directly (no npm in between), a few at a time.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, RUN_TYPESCRIPT } from "./spec.js";

/** Scripts that are not commands of this project's convention, with the reason. */
const SKIPPED: Record<string, string> = {
  test: "the gate with fixed options (--all --only lint,drift,typecheck,tests); `npm run gate -- --help` covers it",
  typecheck: "plain `tsc --noEmit` (incremental, its build info in node_modules/.cache); tsc has its own --help",
  ts: "runs the TypeScript file it is given (Node with scripts/typescript-hooks.ts): its --help is Node's own",
  prepack:
    "npm's pack hook (also what a git install runs): the same file as `npm run build`, whose --help this test checks",
};
/** Commands that write files and take --out. */
const WRITERS = ["generate", "build", "build:client", "docs", "record"];
/** Other test files write here while this one runs (client build output, docs screenshot and page). */
const WRITTEN_BY_OTHER_TESTS = [/^dist\/\.test-build-/, /^dist\/docs\//];

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

/** `npm run <name> -- ...args` without npm in between: Node with the project's TypeScript hooks, as the script runs it. */
function run(name: string, args: string[]): Promise<Run> {
  const match = /^node --import \.\/scripts\/typescript-hooks\.ts (\S+)$/.exec(scripts[name] ?? "");
  if (!match)
    throw new Error(
      `${name}: "${scripts[name]}" is not "node --import ./scripts/typescript-hooks.ts <file>"; list it in SKIPPED with the reason`,
    );
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [...RUN_TYPESCRIPT, match[1]!, ...args],
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
      expect(result.stdout, name).toMatch(new RegExp(`^Usage: npm run ${name.replace(/[:]/g, "\\:")}\\b`, "m"));
      expect(result.stdout, name).toMatch(/--help/);
      expect(existsSync(join(scratch, name)), `${name} wrote its --out`).toBe(false);
    }
    const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
    const removed = [...before.keys()].filter((path) => !after.has(path));
    expect({ changed, removed }).toEqual({ changed: [], removed: [] });
  }, 240_000);

  it("rejects an unknown option with exit 2, naming it and pointing to --help", async () => {
    const results = await pool(
      commands,
      LIMIT,
      async ([name]) => [name, await run(name, ["--no-such-option"])] as const,
    );
    for (const [name, result] of results) {
      expect({ name, code: result.code }).toEqual({ name, code: 2 });
      expect(result.stderr, name).toContain("--no-such-option");
      expect(result.stderr, name).toContain("--help");
    }
  }, 240_000);
});
