/**
 * `npm test`: lint, the drift check of generated/, typecheck, the trace of the API reference (spec/trace.yaml)
 * and `vitest run`, and nothing else. vitest runs beside the other four, which run in turn; vitest prints as it
 * goes, each other check prints its output in one piece when it ends. Exit code 1 when any of them failed.
 * Lint and typecheck run in this process on one TypeScript program: tsc's check computes the types, and ESLint's
 * type-aware rules read them from the same checker instead of computing them again in a program of their own.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { stripVTControlCharacters } from "node:util";
import type { Program } from "typescript";
import { colourEnv, isMain, runCommand, type CommandSpec } from "../contract-core/index.js";
import { checkResult, COMMANDS, runCheck, type CheckResult } from "./gate/checks.js";
import { lint } from "./lint/lint.js";
import { projectProgram, typecheckProgram } from "./typecheck.js";

export const TEST_COMMAND: CommandSpec = {
  name: "npm test",
  summary:
    "Lint, the drift check of generated/, typecheck, the trace of the API reference and the vitest suite (vitest beside the other four).",
  notes: ["One test file: npx vitest run <file>. The pull-request gate, with the breaking-change check: npm run gate."],
};

/** `npm run lint` and `npm run typecheck` as their commands would report them, from one program. */
export async function lintAndTypecheck(): Promise<{ lint: CheckResult; typecheck: CheckResult }> {
  const failed = (name: "lint" | "typecheck", err: unknown) =>
    checkResult(name, `${err instanceof Error ? err.message : String(err)}\n`, 1);
  let typecheck: CheckResult;
  let program: Program | undefined;
  try {
    program = await projectProgram();
    const { ok, output } = await typecheckProgram(program);
    typecheck = checkResult("typecheck", output, ok ? 0 : 1);
  } catch (err) {
    typecheck = failed("typecheck", err);
  }
  const lines: string[] = [];
  let lintResult: CheckResult;
  try {
    const code = await lint({ ...(program ? { program } : {}), log: (line) => lines.push(line) });
    // Plain text, as the commands print into a pipe.
    lintResult = checkResult("lint", stripVTControlCharacters(lines.map((l) => `${l}\n`).join("")), code);
  } catch (err) {
    lintResult = failed("lint", err);
  }
  return { lint: lintResult, typecheck };
}

async function checksInTurn(): Promise<boolean> {
  let ok = true;
  const inProcess = await lintAndTypecheck();
  for (const name of ["lint", "drift", "typecheck", "trace"] as const) {
    const result =
      name === "lint" || name === "typecheck" ? inProcess[name] : await runCheck(name, COMMANDS[name], process.cwd());
    const title = COMMANDS[name].filter((arg) => arg !== "--silent").join(" ");
    process.stderr.write(`\n── ${title}: ${result.note} ──\n${result.output.trimEnd()}\n`);
    ok &&= result.status === "pass";
  }
  return ok;
}

async function vitest(): Promise<boolean> {
  const [cmd = "", ...args] = COMMANDS.tests;
  // Colour only on a terminal: `npm test > log` writes plain text (NO_COLOR and FORCE_COLOR are honoured).
  const child = spawn(cmd, args, { stdio: "inherit", env: colourEnv() });
  const [code] = (await once(child, "close").catch(() => [1])) as unknown[];
  return code === 0;
}

if (isMain(import.meta.url))
  await runCommand(TEST_COMMAND, async () => {
    const results = await Promise.all([vitest(), checksInTurn()]);
    return results.every(Boolean) ? 0 : 1;
  });
