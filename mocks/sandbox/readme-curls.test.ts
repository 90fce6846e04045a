// The sandbox README's block of writes, run as written: bash and curl (the shell commands are what this
// checks) against a sandbox listening in this process on a free port. Every write operation of the spec has a
// curl there, and each curl answers the status its comment names.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
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
      execFile("bash", ["-c", script], { timeout: 60_000 }, (error, out, err) =>
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
