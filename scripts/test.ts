/**
 * `npm test`: lint, the drift check of generated/, typecheck, the trace of the API reference (spec/trace.yaml)
 * and `vitest run`, and nothing else. vitest runs beside the other four, which run in turn; vitest prints as it
 * goes, each other check prints its output in one piece when it ends. Exit code 1 when any of them failed.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { colourEnv, isMain, runCommand, type CommandSpec } from "../contract-core/index.js";
import { COMMANDS, runCheck } from "./gate/checks.js";

export const TEST_COMMAND: CommandSpec = {
  name: "npm test",
  summary:
    "Lint, the drift check of generated/, typecheck, the trace of the API reference and the vitest suite (vitest beside the other four).",
  notes: ["One test file: npx vitest run <file>. The pull-request gate, with the breaking-change check: npm run gate."],
};

async function checksInTurn(): Promise<boolean> {
  let ok = true;
  for (const name of ["lint", "drift", "typecheck", "trace"] as const) {
    const result = await runCheck(name, COMMANDS[name], process.cwd());
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
