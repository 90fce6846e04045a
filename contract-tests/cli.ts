/**
 * Replays recorded exchanges against the contract.
 *   npm run contract -- <files or folders...> [--json] [--spec <openapi.json>]
 * Exit 0: every exchange valid; 1: at least one invalid; 2: unreadable input or usage error.
 */
import { pathToFileURL } from "node:url";
import { checkRecorded, formatError, formatErrors, getValidator, loadRecordings, type LoadedExchange } from "../contract-core/index.js";
import type { Validator } from "../contract-core/index.js";

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = "usage: npm run contract -- <files or folders...> [--json] [--spec <openapi.json>]";

interface Options {
  paths: string[];
  json: boolean;
  spec?: string;
}

function parseArgs(argv: string[]): Options | string {
  const options: Options = { paths: [], json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") options.json = true;
    else if (arg === "--spec") {
      const value = argv[++i];
      if (!value) return "--spec needs a path";
      options.spec = value;
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else options.paths.push(arg);
  }
  return options.paths.length > 0 ? options : "no recordings given";
}

export function runCli(argv: string[], io: CliIo): number {
  const options = parseArgs(argv);
  if (typeof options === "string") {
    io.err(`${options}\n${USAGE}\n`);
    return 2;
  }
  let validator: Validator;
  let loaded: LoadedExchange[];
  try {
    validator = getValidator(options.spec);
  } catch (error) {
    io.err(`cannot load the spec: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    loaded = loadRecordings(options.paths, validator.basePath);
  } catch (error) {
    io.err(`cannot read recordings: ${(error as Error).message}\n`);
    return 2;
  }
  if (loaded.length === 0) {
    io.err(`no exchanges found in ${options.paths.join(", ")}\n`);
    return 2;
  }
  const results = loaded.map(({ file, exchange }) => ({ file, result: checkRecorded(validator, exchange) }));
  const invalid = results.filter(({ result }) => !result.valid).length;
  if (options.json) {
    const rows = results.map(({ file, result }) => ({ file, ...result, errors: result.errors.map(formatError) }));
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const { file, result } of results) {
      const [headline, ...errors] = formatErrors(result).split("\n");
      io.out(`${headline}  (${file})\n${errors.map((line) => `${line}\n`).join("")}`);
    }
    io.out(`\n${results.length} exchanges: ${results.length - invalid} valid, ${invalid} invalid\n`);
  }
  return invalid === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
