/**
 * Replays recorded exchanges against the contract.
 *   npm run contract -- <files or folders...> [--verbose] [--json] [--spec <openapi.json>]
 * Prints each invalid exchange with its errors and a total (--verbose: every exchange).
 * Exit 0: every exchange valid; 1: at least one invalid; 2: unreadable input or usage error.
 */
import {
  checkRecorded,
  formatError,
  formatErrors,
  getValidator,
  loadRecordings,
  type LoadedExchange,
} from "../contract-core/index.js";
import {
  COMMON_OPTIONS,
  endQuietlyOnClosedPipe,
  isMain,
  parseCommandLine,
  STDIO,
  usageError,
  UsageError,
  type CliIo,
  type CommandSpec,
  type Validator,
} from "../contract-core/index.js";

export const CONTRACT_COMMAND: CommandSpec = {
  name: "npm run contract",
  summary:
    "Replays recorded exchanges (HAR, JSON recordings, or folders of them) against the contract; exit 1 when one breaks it.",
  options: {
    verbose: { type: "boolean", description: "list every exchange, the valid ones too" },
    json: COMMON_OPTIONS.json(),
    spec: { ...COMMON_OPTIONS.spec("generated/openapi.json"), default: undefined },
  },
  positionals: "<files or folders...>",
};

export function runCli(argv: string[], io: CliIo): number {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(CONTRACT_COMMAND, argv, process.env, io.out);
    if (parsed?.positionals.length === 0)
      throw usageError(CONTRACT_COMMAND, "no recordings given: name at least one file or folder");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n`);
    return 2;
  }
  if (!parsed) return 0;
  const { values, positionals: paths } = parsed;
  let validator: Validator;
  let loaded: LoadedExchange[];
  try {
    validator = getValidator(typeof values.spec === "string" ? values.spec : undefined);
  } catch (error) {
    io.err(`cannot load the spec: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    loaded = loadRecordings(paths, validator.basePath);
  } catch (error) {
    io.err(`cannot read recordings: ${(error as Error).message}\n`);
    return 2;
  }
  if (loaded.length === 0) {
    io.err(`no exchanges found in ${paths.join(", ")}\n`);
    return 2;
  }
  const results = loaded.map(({ file, exchange }) => ({ file, result: checkRecorded(validator, exchange) }));
  const invalid = results.filter(({ result }) => !result.valid).length;
  if (values.json === true) {
    const rows = results.map(({ file, result }) => ({ file, ...result, errors: result.errors.map(formatError) }));
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    const listed = results.filter(({ result }) => values.verbose === true || !result.valid);
    for (const { file, result } of listed) {
      const [headline, ...errors] = formatErrors(result).split("\n");
      io.out(`${headline}  (${file})\n${errors.map((line) => `${line}\n`).join("")}`);
    }
    io.out(
      `${listed.length > 0 ? "\n" : ""}${results.length} exchanges: ${results.length - invalid} valid, ${invalid} invalid\n`,
    );
  }
  return invalid === 0 ? 0 : 1;
}

if (isMain(import.meta.url)) {
  endQuietlyOnClosedPipe();
  process.exitCode = runCli(process.argv.slice(2), STDIO);
}
