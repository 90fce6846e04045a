/**
 * `npm run ts -- <file.ts> [args...]`: runs one TypeScript file the way the npm scripts do (Node with
 * scripts/typescript-hooks.ts), in this process, with `args` as its command line. Options before the file are
 * this command's own (--help); everything after the file is the file's. An unknown option or a missing file
 * exits 2 naming it.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isMain, runCommand, usageError, type CommandSpec } from "../contract-core/index.js";

export const TS_COMMAND: CommandSpec = {
  name: "npm run ts",
  summary:
    "Runs one TypeScript file of the project the way the npm scripts do (Node with scripts/typescript-hooks.ts).",
  positionals: "<file.ts> [args...]",
  notes: [
    "Everything after the file is the file's own command line: npm run ts -- contract-tests/generate-recordings.ts --help.",
    "Scratch files go in scratch/ (ignored by git): lint, typecheck, the tests and the gate never judge them.",
    "Node's own flags: node --import ./scripts/typescript-hooks.ts <node flags> <file.ts>.",
  ],
};

/** The file to run and its arguments, from this command's argv; throws UsageError. */
export function fileToRun(argv: readonly string[], cwd = process.cwd()): { file: string; args: string[] } {
  const at = argv.findIndex((arg) => !arg.startsWith("-"));
  if (at < 0) throw usageError(TS_COMMAND, "no file given");
  const file = resolve(cwd, argv[at]!);
  if (!existsSync(file)) throw usageError(TS_COMMAND, `no such file: ${argv[at]}`);
  return { file, args: argv.slice(at + 1) };
}

if (isMain(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.findIndex((arg) => !arg.startsWith("-"));
  let target: { file: string; args: string[] } | undefined;
  // This command's options are those before the file; --help and unknown ones are answered before any run.
  await runCommand(TS_COMMAND, () => void (target = fileToRun(argv)), at < 0 ? argv : argv.slice(0, at));
  if (target) {
    process.argv = [process.argv[0]!, target.file, ...target.args];
    await import(pathToFileURL(target.file).href);
  }
}
