// The command-line convention as npm delivers it: these run the real `npm run` (npm's handling of flags before
// `--` and its pre-hooks are what they check). Unknown options exit 2 for the scripts that wrap a tool (typecheck,
// ts, pack), `npm run pack -- --help` builds nothing first, and a flag npm took for itself is named.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./spec.js";

const scratch = mkdtempSync(join(tmpdir(), "npm-run-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      "npm",
      ["run", ...args],
      { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1", PORT: "", HOST: "" } },
      (error, stdout, stderr) =>
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run, as users type it", () => {
  it.each([["typecheck"], ["ts"], ["pack"]])("npm run %s -- --bogus exits 2 naming --bogus", async (name) => {
    const result = await npm([name, "--", "--bogus", ...(name === "pack" ? ["--out", scratch] : [])]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("--bogus");
    expect(result.stderr).toContain("--help");
  });

  it("npm run pack -- --help prints the usage and writes nothing (npm's prepack hook builds nothing first)", async () => {
    const result = await npm(["pack", "--", "--help", "--out", join(scratch, "pack")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run pack\b/m);
    expect(result.stdout).not.toMatch(/build \(/);
    expect(existsSync(join(scratch, "pack"))).toBe(false);
  });

  it("npm run ts runs the file with its own arguments", async () => {
    const result = await npm(["ts", "--", "scripts/gate/cli.ts", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run gate\b/m);
  });

  it("npm run mock --quiet (no --) names the forgotten --", async () => {
    // A bad port after the hint: the mock stops before it starts.
    const result = await npm(["mock", "--quiet", "--", "--port", "nope"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "npm kept --quiet for itself. For this command's --quiet: `npm run mock -- --quiet`.",
    );
  });
});
