// The sandbox README's shell blocks, run as written: bash and curl (the shell commands are what this checks)
// against a sandbox listening in this process on a free port. Every write operation of the spec has a curl in
// the block of writes, and each curl answers the status its comment names; the walk-through's curls answer the
// JSON their comments show; the reads block's 429 sends the Retry-After its comment names.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, REPO_ROOT, getValidator } from "../../contract-core/index.js";
import { startSandbox, type RunningSandbox } from "./hosts/node/server.js";

const README = readFileSync(join(REPO_ROOT, "mocks/sandbox/README.md"), "utf8");
const DOCUMENTED_ORIGIN = "http://127.0.0.1:4011";

/** The `sh` block under "### Writes". */
function writesBlock(readme: string): string {
  const section = readme.slice(readme.indexOf("### Writes"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('mocks/sandbox/README.md has no sh block under "### Writes"');
  return block;
}

/** The block's commands (continuation lines joined); a curl's expected status is the first code in its comment. */
function curls(block: string): { command: string; status: number }[] {
  return block
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => /\bcurl /.test(line))
    .map((command) => {
      const status = /#\s*(\d{3})\b/.exec(command)?.[1];
      if (!status) throw new Error(`a README curl names no status in its comment: ${command}`);
      return { command, status: Number(status) };
    });
}

/** The operation a curl command calls: its method (-X, default GET) and URL with the shell's variables filled. */
function operationOf(command: string): string | undefined {
  const method = /-X (\w+)/.exec(command)?.[1] ?? "GET";
  const url = /"\$B(\/[^"]*)"/.exec(command)?.[1];
  if (url === undefined) return undefined;
  const path = url.replace(/\$\w+/g, "x").split("?")[0]!;
  return getValidator().matchRoute(method, `/v1${path}`)?.operationId;
}

describe("the sandbox README's writes", () => {
  const block = writesBlock(README);
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: "127.0.0.1", port: 0, people: 300, companies: 40 });
  });
  afterAll(async () => sandbox?.close());

  it("has a curl for every write operation of the spec", () => {
    const writes = OPERATIONS.filter((op) => op.method !== "GET").map((op) => op.operationId);
    const called = new Set(curls(block).map((c) => operationOf(c.command)));
    expect(writes.filter((id) => !called.has(id))).toEqual([]);
    expect(writes.length).toBeGreaterThanOrEqual(12);
  });

  it("answers each curl with the status its comment names", async () => {
    expect(block).toContain(DOCUMENTED_ORIGIN);
    // Each curl also writes its status to stderr, one line each, in order.
    const script = `curl() { command curl -w '%{stderr}%{http_code}\\n' "$@"; }\n${block.replaceAll(DOCUMENTED_ORIGIN, sandbox.origin)}`;
    const { stderr, stdout } = await new Promise<{ stderr: string; stdout: string }>((done, fail) =>
      execFile("bash", ["-c", script], (error, out, err) =>
        error ? fail(new Error(`${error.message}\n${err}`)) : done({ stdout: out, stderr: err }),
      ),
    );
    const statuses = stderr
      .split("\n")
      .filter((line) => /^\d{3}$/.test(line))
      .map(Number);
    expect(statuses, `${stdout}\n${stderr}`).toEqual(curls(block).map((c) => c.status));
  });
});

/** A fenced block of the README: the first one after `heading` (a line of text that introduces it). */
function blockAfter(readme: string, heading: string, fence = "bash"): string {
  const at = readme.indexOf(heading);
  const block = at < 0 ? undefined : new RegExp("```" + fence + "\\n([\\s\\S]*?)```").exec(readme.slice(at))?.[1];
  if (!block) throw new Error(`mocks/sandbox/README.md has no ${fence} block after "${heading}"`);
  return block;
}

/**
 * Runs a README block with bash; resolves with each curl's output in the order they ran (a curl inside `$(...)`
 * included: each call keeps a copy of its output in a numbered file, since a subshell's count would not return).
 */
async function runBlock(block: string, origin: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "readme-block-"));
  try {
    const script = [
      `curl() { local n; n=$(( $(cat "${dir}/count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "${dir}/count";`,
      `  command curl "$@" | tee "${dir}/out-$n"; }`,
      block.replaceAll(DOCUMENTED_ORIGIN, origin),
    ].join("\n");
    await new Promise<void>((done, fail) =>
      execFile("bash", ["-c", script], (error, _out, err) =>
        error ? fail(new Error(`${error.message}\n${err}`)) : done(),
      ),
    );
    const count = Number(readFileSync(join(dir, "count"), "utf8"));
    return Array.from({ length: count }, (_, i) => readFileSync(join(dir, `out-${i + 1}`), "utf8").trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the sandbox README's walk-through", () => {
  const block = blockAfter(README, "A walk-through with the API");
  // The block starts the sandbox as `npm run sandbox -- <flags> &`: this test starts the same sandbox in-process.
  const start = /^npm run sandbox -- (.*) &$/m.exec(block);
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    expect(start?.[1]).toBe("--job-speed 0");
    sandbox = await startSandbox({ host: "127.0.0.1", port: 0, jobSpeed: 0 });
  });
  afterAll(async () => sandbox?.close());

  it("answers each curl as its comment shows", async () => {
    expect(block).toContain(DOCUMENTED_ORIGIN);
    const commands = block
      .replace(/\\\n/g, " ")
      .split("\n")
      .filter((line) => /\bcurl /.test(line));
    const outputs = await runBlock(block.replace(start![0], ""), sandbox.origin);
    expect(outputs).toHaveLength(commands.length);
    const claimed = commands
      .map((command, i) => ({ command, shown: /#\s*(\{.*\})\s*$/.exec(command)?.[1], got: outputs[i]! }))
      .filter((c) => c.shown !== undefined);
    expect(claimed.length).toBeGreaterThan(0);
    for (const { command, shown, got } of claimed) expect(JSON.parse(got), command).toEqual(JSON.parse(shown!));
  });
});

describe("the sandbox README's reads", () => {
  it("names the Retry-After that a Prefer: code=429 answer sends", async () => {
    const line = README.split("\n").find((l) => l.includes('"Prefer: code=429"'));
    const claimed = /Retry-After: (\d+)/.exec(line ?? "")?.[1];
    expect(claimed, "the README's 429 line names its Retry-After").toBeDefined();
    const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, people: 50 });
    try {
      const res = await fetch(`${sandbox.baseUrl}/people`, {
        headers: { "x-api-key": "tgsb_acme_3f7a91c2d8e64b05", prefer: "code=429" },
      });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe(claimed);
    } finally {
      await sandbox.close();
    }
  });
});
