// `npm run mock` as a process: PORT/HOST/SPEC from the environment, one ready line, Ctrl-C stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandLine, RUN_TYPESCRIPT } from "../../contract-core/index.js";
import { MOCK_COMMAND, PROXY_COMMAND, requestLogOption, serverOptions } from "./cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/openapi.yaml", import.meta.url));
const children: ChildProcess[] = [];

/** The options a command line and environment give the mock (or the proxy). */
function cliOptions(env: NodeJS.ProcessEnv, argv: string[] = [], command = MOCK_COMMAND) {
  return serverOptions(command, parseCommandLine(command, argv, env)!);
}

/**
 * Starts a script in its own process group and resolves with its first stdout line. It runs as Node itself with
 * the project's TypeScript hooks, in one process: a launcher (npm, or a loader's own command) would put a parent
 * in between, which on a busy machine can take Ctrl-C before it learns that the script handles it, and exit 130
 * on the script's behalf.
 */
async function launch(script: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, script], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SPEC: FIXTURE },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before its ready line: ${out}`)));
  });
  return { child, line };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) killGroup(child, "SIGKILL");
});

describe("npm run mock", () => {
  it("prints one ready line with the base URL and a working curl, and stops on SIGINT", async () => {
    const { child, line } = await launch("mocks/prism/start.ts");
    const url = /curl -H 'Authorization: Bearer test' '(http:\/\/127\.0\.0\.1:\d+\/v1\/people\?limit=2)'/.exec(
      line,
    )?.[1];
    expect(url, line).toBeDefined();
    expect(line).toContain(url!.replace("/people?limit=2", ""));
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const res = await fetch(url!, { headers: { authorization: "Bearer test" } });
    expect(res.status).toBe(200);
    await (await fetch(url!.replace("limit=2", "limit=101"), { headers: { authorization: "Bearer test" } })).text();
    // One line per request by default; a 4xx names its error.
    await expect.poll(() => out).toMatch(/^GET \/v1\/people\?limit=101 400 [\d.]+ ms invalid_request: /m);
    expect(out).toMatch(/^GET \/v1\/people\?limit=2 200 [\d.]+ ms$/m);
    const exited = once(child, "exit");
    killGroup(child, "SIGINT");
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(code === 0 || signal === "SIGINT", `code ${code} signal ${signal}`).toBe(true);
    await expect(fetch(url!)).rejects.toThrow();
  });
});

describe("--quiet", () => {
  it("turns the request lines off", () => {
    expect(requestLogOption(false).requestLog).toBeTypeOf("function");
    expect(requestLogOption(true)).toEqual({});
    expect(parseCommandLine(MOCK_COMMAND, ["--quiet"], {})?.values.quiet).toBe(true);
  });
});

describe("--port and a busy port", () => {
  it("takes --port over PORT, and on a busy port says which port and how to choose another (exit 1)", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const child = spawn(process.execPath, [...RUN_TYPESCRIPT, "mocks/prism/start.ts", "--port", String(port)], {
        cwd: ROOT,
        env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SPEC: FIXTURE },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let err = "";
      child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(1);
      expect(err).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(err).toContain("--port <n>");
    } finally {
      blocker.close();
    }
  });
});

describe("--help", () => {
  it.each(["mocks/prism/start.ts", "mocks/prism/proxy.ts"])(
    "%s --help prints usage without loading Prism",
    async (script) => {
      // NODE_DEBUG=module names every CommonJS module Node loads (Prism's packages are CommonJS).
      const child = spawn(process.execPath, [...RUN_TYPESCRIPT, script, "--help"], {
        cwd: ROOT,
        env: { ...process.env, NODE_DEBUG: "module" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      let err = "";
      child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
      expect(out).toMatch(/^Usage: npm run (mock|proxy)/);
      expect(err).toMatch(/MODULE \d+: load/); // the check sees module loads at all
      expect(err).not.toContain("@stoplight/prism");
    },
  );
});

describe("PORT and HOST", () => {
  it("default to 127.0.0.1:4010", () => {
    expect(cliOptions({})).toEqual({ port: 4010, host: "127.0.0.1" });
    expect(cliOptions({ PORT: "5000", HOST: "0.0.0.0", SPEC: "x.json", MOCK_VALIDATE: "1" })).toEqual({
      port: 5000,
      host: "0.0.0.0",
      spec: "x.json",
      validateResponses: true,
    });
  });

  it("--allowed-host names the hosts answered besides loopback names and IP addresses", () => {
    expect(cliOptions({}, ["--allowed-host", "mock.test,api.internal"])).toEqual({
      port: 4010,
      host: "127.0.0.1",
      allowedHosts: ["mock.test", "api.internal"],
    });
  });

  it("--no-memo has Prism answer every call; the proxy has no such option", () => {
    expect(cliOptions({}, ["--no-memo"])).toEqual({ port: 4010, host: "127.0.0.1", memoize: false });
    expect(() => cliOptions({}, ["--no-memo"], PROXY_COMMAND)).toThrow(/no-memo/);
  });

  it.each(["abc", "-1", "70000", "1.5"])("reject PORT=%s", (port) => {
    expect(() => cliOptions({ PORT: port })).toThrow(/PORT must be an integer/);
  });
});
