/**
 * The gate's command checks: the project's own scripts, each run as a child process whose output is kept
 * and printed in one piece, with one line saying what the check found.
 */
import { spawn } from "node:child_process";

export const COMMAND_CHECKS = ["lint", "drift", "typecheck", "tests", "trace"] as const;
export type CommandCheck = (typeof COMMAND_CHECKS)[number];

export const COMMANDS: Record<CommandCheck, string[]> = {
  lint: ["npm", "run", "--silent", "lint"],
  drift: ["npm", "run", "--silent", "check:generated"],
  typecheck: ["npm", "run", "--silent", "typecheck"],
  tests: ["npx", "vitest", "run"],
  // `npm test` runs it as a command; the gate runs it in-process (trace-check.ts) to list statements to re-read.
  trace: ["npm", "run", "--silent", "trace"],
};

export interface CheckResult {
  status: "pass" | "fail";
  /** One line: what the check found. */
  note: string;
  /** Everything the command printed (stdout and stderr, in order). */
  output: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What a check's output says it found, in one line; undefined when the output names no count. */
export function findings(name: CommandCheck, output: string): string | undefined {
  if (name === "typecheck") {
    const errors = output.match(/error TS\d+/g)?.length ?? 0;
    return errors > 0 ? plural(errors, "type error") : "no type errors";
  }
  if (name === "tests") {
    const files = /^\s*Test Files\s+(.+?)\s*$/m.exec(output)?.[1];
    const tests = /^\s*Tests\s+(.+?)\s*$/m.exec(output)?.[1];
    return tests ? `tests: ${tests}${files ? `; files: ${files}` : ""}` : undefined;
  }
  // Lint and the drift check print one ✔ or ✘ line per step: the failed ones, else how many passed.
  const marked = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^[✔✘]/.test(l));
  const failed = marked.filter((l) => l.startsWith("✘"));
  if (failed.length > 0) return failed.join("; ");
  if (marked.length > 1) return `${marked.length} steps passed`;
  return marked[0];
}

/** Runs `argv` in `cwd` without a shell; resolves when it exits. */
export function runCheck(name: CommandCheck, argv: readonly string[], cwd: string): Promise<CheckResult> {
  const [cmd = "", ...args] = argv;
  return new Promise((done) => {
    let output = "";
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (chunk: Buffer) => void (output += chunk.toString());
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (e) => done({ status: "fail", note: `could not start ${cmd}: ${e.message}`, output }));
    child.on("close", (code, signal) => {
      const found = findings(name, output);
      if (code === 0) return done({ status: "pass", note: found ?? "passed", output });
      const exit = signal ? `killed by ${signal}` : `exit code ${code}`;
      done({ status: "fail", note: found ? `${found} (${exit})` : exit, output });
    });
  });
}
