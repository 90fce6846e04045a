/**
 * The gate's command checks: the project's own scripts, each run as a child process whose output is kept
 * and printed in one piece, with one line saying what the check found.
 */
import { spawn } from "node:child_process";
import { markdownCode, markdownText } from "../escape/markdown.js";

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
  /** What failed, one Markdown line each (failureDetails); empty when it passed. */
  details: string[];
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

/** At most this many failures are named per check; the rest are counted. */
const MAX_DETAILS = 10;
const capped = (lines: string[]): string[] =>
  lines.length <= MAX_DETAILS ? lines : [...lines.slice(0, MAX_DETAILS), `… and ${lines.length - MAX_DETAILS} more`];
/** The output's text (test names, messages, files) is data: escaped for the summary (scripts/escape/). */
const code = (text: string) => markdownCode(text);
const squeeze = (text: string) => markdownText(text.trim().replace(/\s{2,}/g, " "));

/** vitest's failed tests (`FAIL  |project| file > suite > test`), each with the first line of its error. */
function failedTests(output: string): string[] {
  const lines = output.split("\n");
  const out: string[] = [];
  let pending: string[] = [];
  for (const raw of lines) {
    const line = raw.trimEnd();
    const fail = /^\s*FAIL\s+(?:\|[^|]*\|\s+)?(.+)$/.exec(line);
    if (fail) {
      pending.push(fail[1]!.trim());
      continue;
    }
    if (pending.length === 0 || line.trim() === "" || /^\s*[❯⎯]/.test(line)) continue;
    // vitest prints one error under the tests that failed with it.
    for (const test of pending) out.push(`${code(test)}: ${squeeze(line)}`);
    pending = [];
  }
  return [...new Set(out)];
}

/** The linters' diagnostics with file and line: Redocly's and ESLint's stylish blocks, Spectral's lines, Prettier's files. */
function lintDiagnostics(output: string, cwd: string): string[] {
  const out: string[] = [];
  let file = "";
  for (const raw of output.split("\n")) {
    const line = raw.trimEnd();
    const prettier = /^\[warn\] (\S+)$/.exec(line);
    if (prettier) {
      const fix = code(`npx prettier --write ${prettier[1]}`);
      out.push(`${code(prettier[1]!)}: not formatted as Prettier writes it (${fix})`);
      continue;
    }
    const spectral = /^\s+(error|warning) (\S+) (\S+:\d+) (.*)$/.exec(line);
    if (spectral) {
      out.push(`${code(spectral[3]!)} ${spectral[1]} ${markdownText(spectral[2]!)}: ${squeeze(spectral[4]!)}`);
      continue;
    }
    const stylish = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*)$/.exec(line);
    if (stylish && file) {
      out.push(`${code(`${file}:${stylish[1]}`)} ${stylish[3]}: ${squeeze(stylish[4]!)}`);
      continue;
    }
    // A stylish block's file: an unindented path (Redocly ends it with a colon).
    if (/^[^\s✔✘[].*\.[a-z]+:?$/i.test(line)) file = line.replace(/:$/, "").replace(`${cwd}/`, "");
  }
  return out;
}

/**
 * What failed, one Markdown line each, for the summary: the failed tests with their assertion messages, the
 * type errors and lint diagnostics with file and line, the drift check's stale files. Empty when the output
 * names none (the summary then shows the check's one line).
 */
export function failureDetails(name: CommandCheck, output: string, cwd = process.cwd()): string[] {
  if (name === "tests") return capped(failedTests(output));
  if (name === "typecheck")
    return capped(
      [
        // npm run typecheck's hints (what a spec change's errors mean) lead, then the errors themselves.
        ...output
          .split("\n")
          .filter((l) => l.startsWith("house rule ("))
          .map(squeeze),
      ].concat(
        [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/gm)].map(
          ([, file, line, ts, message]) => `${code(`${file}:${line}`)} ${ts}: ${squeeze(message!)}`,
        ),
      ),
    );
  if (name === "lint") return capped(lintDiagnostics(output, cwd));
  return capped(
    output
      .split("\n")
      .filter((l) => l.trim().startsWith("✘"))
      .map((l) => squeeze(l.trim().slice(1))),
  );
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
    child.on("error", (e) =>
      done({ status: "fail", note: `could not start ${cmd}: ${e.message}`, output, details: [] }),
    );
    child.on("close", (exitCode, signal) => done(checkResult(name, output, exitCode, signal, cwd)));
  });
}

/** A check's result from its output and how it ended (`npm test` runs lint and typecheck in-process, runCheck the rest). */
export function checkResult(
  name: CommandCheck,
  output: string,
  exitCode: number | null,
  signal: string | null = null,
  cwd = process.cwd(),
): CheckResult {
  const found = findings(name, output);
  if (exitCode === 0) return { status: "pass", note: found ?? "passed", output, details: [] };
  const exit = signal ? `killed by ${signal}` : `exit code ${exitCode}`;
  return {
    status: "fail",
    note: found ? `${found} (${exit})` : exit,
    output,
    details: failureDetails(name, output, cwd),
  };
}
