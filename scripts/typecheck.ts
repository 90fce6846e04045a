/**
 * `npm run typecheck`: `tsc --noEmit` over the project (incremental, its build info in node_modules/.cache), on
 * the command-line convention: --help prints the usage without compiling, an unknown option exits 2 naming it.
 * Exit 1 when tsc reports an error.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { stripVTControlCharacters } from "node:util";
import { EXIT, REPO_ROOT, isMain, runCommand, type CommandSpec } from "../contract-core/index.js";
import { houseRuleHints } from "./typecheck-hints.js";

export const TYPECHECK_COMMAND: CommandSpec = {
  name: "npm run typecheck",
  summary:
    "Type-checks the project with tsc --noEmit (tsconfig.json; incremental, its build info in node_modules/.cache).",
  notes: ["The files checked are tsconfig.json's include list: a scratch file in scratch/ is not one of them."],
};

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const ARGS = ["--noEmit", "--incremental", "--tsBuildInfoFile", "node_modules/.cache/tsc/tsbuildinfo"];

if (isMain(import.meta.url))
  await runCommand(TYPECHECK_COMMAND, async () => {
    const child = spawn(process.execPath, [TSC, ...ARGS, ...(process.stdout.isTTY ? ["--pretty"] : [])], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, "close")) as [number | null];
    // What a spec change's errors mean comes first (one line each), then tsc's own output.
    const hints = houseRuleHints(stripVTControlCharacters(output));
    process.stdout.write(hints.map((hint) => `${hint}\n`).join("") + (hints.length > 0 ? "\n" : "") + output);
    // tsc says nothing when it finds nothing: one line says what passed.
    if (code === 0) process.stdout.write("✔ tsc --noEmit: no type errors (tsconfig.json's include list)\n");
    return code === 0 ? EXIT.ok : EXIT.failures;
  });
