// Loading node:sqlite for a state file prints no ExperimentalWarning (Node 22 and 24 print one for the module;
// 26 none, so this test can fail only on those, where CI runs the suite too): a fresh process is what this
// checks, since a process prints a warning once.
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, RUN_TYPESCRIPT } from "../../../../contract-core/index.js";

describe("node:sqlite for --state-file", () => {
  it("loads without the experimental warning, and other warnings still print", async () => {
    const code = [
      'const { sqlite } = await import("./mocks/sandbox/hosts/node/node-state-storage.ts");',
      'new (sqlite().DatabaseSync)(":memory:").close();',
      'process.emitWarning("another warning");',
    ].join("\n");
    const stderr = await new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        [...RUN_TYPESCRIPT, "--input-type=module", "-e", code],
        { cwd: REPO_ROOT },
        (error, _out, err) => (error ? fail(new Error(`${error.message}\n${err}`)) : done(err)),
      ),
    );
    expect(stderr).not.toMatch(/ExperimentalWarning|SQLite is an experimental feature/);
    expect(stderr).toContain("another warning");
  });
});
