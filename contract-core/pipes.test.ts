// Output in pipes and files: a reader that closes early (`| head`) ends the command quietly with its exit code,
// and colour goes only to a terminal (NO_COLOR and FORCE_COLOR honoured). The pipe case starts a process: the
// closed pipe between two processes is what it tests.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { colourEnv } from "./cli.js";
import { REPO_ROOT, RUN_TYPESCRIPT } from "./spec.js";

describe("a closed pipe", () => {
  it("npm run contract -- --json ... | head: ends with its exit code and no stack trace", async () => {
    const child = spawn(
      process.execPath,
      [...RUN_TYPESCRIPT, "contract-tests/cli.ts", "--json", "contract-tests/recordings"],
      {
        cwd: REPO_ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader goes away before the command is done writing, as `head -c 10` does.
    child.stdout.destroy();
    const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: "" });
  });
});

describe("colour", () => {
  const base = { PATH: "/bin" };
  it("is off for a file or a pipe, on for a terminal", () => {
    expect(colourEnv(base, false)).toEqual({ ...base, NO_COLOR: "1" });
    expect(colourEnv(base, true)).toEqual(base);
  });
  it("NO_COLOR turns it off on a terminal; FORCE_COLOR turns it on for a file", () => {
    expect(colourEnv({ ...base, NO_COLOR: "1" }, true)).toMatchObject({ NO_COLOR: "1" });
    expect(colourEnv({ ...base, FORCE_COLOR: "1" }, false)).toEqual({ ...base, FORCE_COLOR: "1" });
    // FORCE_COLOR=0 is no force: a file still gets plain text, and the 0 is not passed on as a request.
    expect(colourEnv({ ...base, FORCE_COLOR: "0" }, false)).toEqual({ ...base, NO_COLOR: "1" });
  });
});
