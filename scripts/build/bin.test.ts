// The package's bin in-process: its help, an unknown or missing command, the mock without Prism.
import { describe, expect, it } from "vitest";
import { BIN_USAGE, runBin, type BinIo } from "./bin.js";

function io(resolves = true) {
  const seen = { out: "", err: "" };
  const handle: BinIo = {
    out: (t) => void (seen.out += t),
    err: (t) => void (seen.err += t),
    resolves: () => resolves,
  };
  return { seen, handle };
}

describe("talent-graph-api-contract", () => {
  it("prints its usage for --help", async () => {
    const { seen, handle } = io();
    expect(await runBin(["--help"], handle)).toBe(0);
    expect(seen.out).toBe(BIN_USAGE);
  });

  it.each([
    [[], "no command given"],
    [["serve"], 'unknown command "serve"'],
  ])("refuses %j with exit 2", async (argv, message) => {
    const { seen, handle } = io();
    expect(await runBin(argv, handle)).toBe(2);
    expect(seen.err).toContain(message);
    expect(seen.err).toContain("the commands are sandbox and mock.");
  });

  it("names the package to install when the mock's Prism is missing", async () => {
    const { seen, handle } = io(false);
    expect(await runBin(["mock", "--port", "0"], handle, "5.16.0")).toBe(2);
    expect(seen.err).toContain("npm install --save-dev @stoplight/prism-http@5.16.0");
  });
});
