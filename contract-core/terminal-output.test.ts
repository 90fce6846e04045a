/**
 * What a command prints from its input is shown, never obeyed by the terminal: a `--state-seed` file whose
 * field names carry ESC/OSC sequences (a cleared screen, a window title, a forged green "ready" line) fails the
 * start with a message whose control characters are escaped as the request log escapes them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fixtureGraphInput } from "../mocks/sandbox/data/fixture.js";
import { buildApp } from "../mocks/sandbox/hosts/node/server.js";
import { runCommand } from "./cli.js";
import { controlCharacters, escapeTerminalText } from "./request-log.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "terminal-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORGED = "\x1b[2J\x1b]0;owned\x07\r\x1b[32mTalent Graph sandbox ready\x1b[0m";

async function printed(main: () => Promise<void>): Promise<string> {
  let out = "";
  const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
  const exitCode = process.exitCode;
  try {
    await runCommand({ name: "npm run sandbox", summary: "test", options: {} }, main, []);
  } finally {
    write.mockRestore();
    process.exitCode = exitCode;
  }
  return out;
}

describe("terminal output from input", () => {
  it("a --state-seed file's field names are printed with their control characters escaped", async () => {
    const file = path.join(dir, "seed.json");
    writeFileSync(file, JSON.stringify({ [FORGED]: [] }));
    const options = { graph: fixtureGraphInput(), jobSpeed: 0, jobFailureRate: 0, rateLimit: false as const };
    const out = await printed(async () => void (await buildApp({ ...options, stateSeed: file })));
    expect(out).toMatch(/^npm run sandbox: --state-seed .*unknown field/);
    expect(controlCharacters(out.slice(0, -1))).toEqual([]);
    expect(out).toContain("\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x1b[32mTalent Graph sandbox ready\\x1b[0m");
  });

  it("keeps line feeds and backslashes of a message, escapes the rest", () => {
    expect(escapeTerminalText("a\\b\nc\x1b[0m\r")).toBe("a\\b\nc\\x1b[0m\\x0d");
  });
});
