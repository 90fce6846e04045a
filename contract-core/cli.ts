/**
 * The command-line convention every npm script follows, on `node:util` `parseArgs`: `--help` prints usage on
 * stdout and exits 0 before any work; the same flags name the same options, with environment variables as
 * fallbacks (`--port`/`PORT`, `--host`/`HOST`); an unknown option or a bad value names itself, points to
 * `--help` and exits 2; a busy port names the port and how to choose another. Exit codes: EXIT.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { escapeTerminalText } from "./request-log.js";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** One line for the usage text. */
  description: string;
  /** Environment variable read when the flag is absent. */
  env?: string;
  /** Shown in the usage text; applied when neither the flag nor the variable is set. */
  default?: string | boolean;
  /** Placeholder in the usage text and in the message for a missing value: `--port <n>`. */
  value?: string;
}

export interface CommandSpec {
  /** How it is run: `npm run mock`. */
  name: string;
  /** One sentence: what the command does. */
  summary: string;
  options?: Record<string, OptionSpec>;
  /** Usage of positional arguments, e.g. `[files...]`; without it positionals are rejected. */
  positionals?: string;
  /** Extra lines after the options (examples, notes). */
  notes?: string[];
  /**
   * Flags refused because their value is a secret: flag name -> where the value goes instead, e.g.
   * `key: "TALENT_GRAPH_API_KEY (or --key-env NAME)"`. npm prints a script's command line, so a key given
   * there lands in terminals, CI logs and shell history.
   */
  secretFlags?: Record<string, string>;
}

/** Where a command writes: the process's stdout and stderr (STDIO), or a test's buffers. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const STDIO: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

export type CliValues = Record<string, string | boolean | undefined>;

export interface ParsedCommandLine {
  values: CliValues;
  positionals: string[];
}

/**
 * The exit codes every command follows (the README's npm scripts section says the same): 0 done and nothing
 * found; 1 the command found failures (a check, a test, an invalid exchange); 2 usage (an unknown option, a
 * bad value, an unreadable input); 3 the target could not be tested (unreachable, refusing the key, no such
 * base path, or rate-limiting the run so that it tested nothing).
 */
export const EXIT = { ok: 0, failures: 1, usage: 2, target: 3 } as const;

/** A command-line mistake: the message says what is wrong and points to --help. Exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode = EXIT.usage;
}

/** An input the command cannot read (a missing, unreadable or unparsable file it was given). Exit code 2. */
export class InputError extends Error {
  override name = "InputError";
  readonly exitCode = EXIT.usage;
}

/** The file-system codes that mean "this input cannot be read", on an error or its cause. */
const UNREADABLE = new Set(["ENOENT", "EACCES", "EISDIR", "ENOTDIR", "ELOOP", "EPERM"]);

/** True for an InputError, or an error (or its cause) that a missing or unreadable file raised. */
export function isInputError(error: unknown): boolean {
  for (let e = error as (Error & { code?: unknown; cause?: unknown }) | undefined, depth = 0; e && depth < 4; depth++) {
    if (e instanceof InputError) return true;
    if (typeof e.code === "string" && UNREADABLE.has(e.code) && (e as { syscall?: string }).syscall !== "listen")
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", description: "print this help and exit" };

/** Shared option definitions, so every command spells them the same. */
export const COMMON_OPTIONS = {
  port: (defaultPort: string): OptionSpec => ({
    type: "string",
    value: "<port>",
    env: "PORT",
    default: defaultPort,
    description: "port to listen on (0 = any free port)",
  }),
  host: (defaultHost: string): OptionSpec => ({
    type: "string",
    value: "<host>",
    env: "HOST",
    default: defaultHost,
    description: "interface to bind",
  }),
  allowedHost: (): OptionSpec => ({
    type: "string",
    value: "<names>",
    description:
      "host names to answer besides loopback names, IP addresses and --host, comma-separated (any other Host: a 403)",
  }),
  spec: (defaultPath: string): OptionSpec => ({
    type: "string",
    value: "<file>",
    env: "SPEC",
    default: defaultPath,
    description: "OpenAPI document (JSON or YAML, split or bundled)",
  }),
  out: (defaultPath: string, what: string): OptionSpec => ({
    type: "string",
    value: "<path>",
    default: defaultPath,
    description: what,
  }),
  json: (): OptionSpec => ({ type: "boolean", description: "print machine-readable JSON" }),
  /** The name of the environment variable holding a key (the key itself never goes on a command line). */
  keyEnv: (defaultVariable: string, what = "the API key"): OptionSpec => ({
    type: "string",
    value: "<NAME>",
    default: defaultVariable,
    description: `environment variable holding ${what}`,
  }),
};

/** The key from the variable a `--key-env`-style option names (undefined when the variable is unset or empty). */
export function keyFromEnv(
  values: CliValues,
  option: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const name = values[option];
  const key = typeof name === "string" ? env[name] : undefined;
  return key === "" ? undefined : key;
}

/** The refusal of a secret flag: names the flag and where the value goes, never repeats the value. */
function refuseSecretFlags(spec: CommandSpec, argv: readonly string[]): void {
  for (const [flag, instead] of Object.entries(spec.secretFlags ?? {})) {
    if (!flagGiven(argv, flag)) continue;
    throw usageError(
      spec,
      `--${flag} is refused, because a key on the command line is printed by npm and kept in logs and shell ` +
        `history; put it in the environment variable ${instead}.`,
    );
  }
}

/** Whether `--name` (or `--name=value`) is on the command line. */
export const flagGiven = (argv: readonly string[], name: string) =>
  argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));

/**
 * npm's own shorthands among the flags of our commands: `npm run mock --quiet` sets npm's log level and the
 * script sees only `npm_config_loglevel=warn`, which an `.npmrc` may also set; so it is a hint, not an error.
 */
const NPM_SHORTHANDS: Record<string, { config: string; value: string }> = {
  quiet: { config: "loglevel", value: "warn" },
  verbose: { config: "loglevel", value: "verbose" },
};

/** The variable npm exports for a flag it kept: `--no-rate-limit` is `npm_config_rate_limit=""` (false). */
function npmConfigOf(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const negated = /^no-(.+)$/.exec(name)?.[1];
  if (negated !== undefined) {
    const taken = env[`npm_config_${negated.replace(/-/g, "_")}`];
    return taken === "" || taken === "false" ? "true" : undefined;
  }
  return env[`npm_config_${name.replace(/-/g, "_")}`];
}

const underNpmRun = (spec: CommandSpec, env: NodeJS.ProcessEnv) =>
  env.npm_lifecycle_event !== undefined && (spec.name.startsWith("npm run ") || spec.name === "npm test");

/**
 * The one line for a flag npm may have taken as its own shorthand (`npm run mock --quiet`), or undefined.
 * The command still runs: the same variable may come from the user's npm configuration.
 */
export function npmShorthandHint(
  spec: CommandSpec,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!underNpmRun(spec, env)) return undefined;
  for (const name of Object.keys(spec.options ?? {})) {
    const shorthand = NPM_SHORTHANDS[name];
    if (!shorthand || flagGiven(argv, name) || env[`npm_config_${shorthand.config}`] !== shorthand.value) continue;
    return (
      `${spec.name}: npm's ${shorthand.config} is ${shorthand.value}, as \`--${name}\` before \`--\` sets it: ` +
      `npm kept --${name} for itself. For this command's --${name}: \`${spec.name} -- --${name}\`.`
    );
  }
  return undefined;
}

/**
 * `npm run x --port 4603` (no `--`) gives the flag to npm, which exports it as `npm_config_port` (`true`, or
 * the value of `--port=4603`; `npm_config_rate_limit=""` for `--no-rate-limit`) and passes `4603` to the
 * script as an argument. Names the command the user meant, or undefined when npm took none of this command's
 * flags.
 */
function npmTookFlag(
  spec: CommandSpec,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  stray?: string,
): string | undefined {
  if (!underNpmRun(spec, env)) return undefined;
  for (const [name, option] of Object.entries(spec.options ?? {})) {
    const taken = npmConfigOf(name, env);
    if (taken === undefined || flagGiven(argv, name)) continue;
    const value = option.type === "boolean" ? "" : taken !== "true" ? taken : (stray ?? option.value ?? "<value>");
    const took = stray !== undefined && taken === "true" ? `, so "${stray}" arrived as an argument` : "";
    return (
      `npm kept --${name} for itself${took}: did you mean \`${spec.name} -- --${name}${value ? ` ${value}` : ""}\`? ` +
      "Arguments for the script go after --."
    );
  }
  return undefined;
}

export function formatUsage(spec: CommandSpec): string {
  const options = { ...spec.options, help: HELP_OPTION };
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${o.type === "string" ? ` ${o.value ?? "<value>"}` : ""}`;
    const extras = [
      o.env ? `env ${o.env}` : "",
      o.default !== undefined && o.default !== "" ? `default ${String(o.default)}` : "",
    ].filter(Boolean);
    return [flag, `${o.description}${extras.length ? ` (${extras.join(", ")})` : ""}`] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `Usage: ${invocation(spec)}`,
    "",
    spec.summary,
    "",
    "Options:",
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    ...(spec.notes?.length ? ["", ...spec.notes] : []),
    "",
  ].join("\n");
}

/**
 * `npm run x -- [options] <file>`: npm passes a script the arguments after `--`; a bin
 * (`talent-graph-api-contract sandbox`) takes them as they are.
 */
const invocation = (spec: CommandSpec) =>
  `${spec.name}${spec.name.startsWith("npm run ") ? " --" : ""} [options]${spec.positionals ? ` ${spec.positionals}` : ""}`;

/** A UsageError for `spec`: the problem, then the one-line usage. */
export function usageError(spec: CommandSpec, problem: string): UsageError {
  return new UsageError(`${spec.name}: ${problem}\nusage: ${invocation(spec)} (--help lists the options)`);
}

/** Turns parseArgs' error into one that names the argument and says what to do. */
function describeParseError(
  spec: CommandSpec,
  options: Record<string, OptionSpec>,
  error: Error & { code?: string },
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return `unknown argument ${option ?? ""}: not an option of this command`;
  if (error.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const arg = /'([^']*)'/.exec(error.message)?.[1] ?? "";
    return (
      npmTookFlag(spec, argv, env, arg) ?? `unexpected argument "${arg}": this command takes no positional arguments`
    );
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    const name = option.replace(/^-+/, "");
    const spec = options[name] ?? Object.values(options).find((o) => o.short === name);
    if (spec?.type !== "string") return `${option} takes no value`;
    const next = argv[argv.indexOf(option) + 1];
    const dashed =
      next !== undefined && /^-\d/.test(next) ? `; a value that starts with a dash is written ${option}=${next}` : "";
    const placeholder = spec.value ?? "<value>";
    const word = placeholder.replace(/^<|>$/g, "");
    // `<git ref>` reads as words; `<n>`, `<ms>` or `<id,id,...>` do not.
    const what = /^[a-z][a-z -]{2,}$/i.test(word) ? `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}` : "a value";
    return `${option} needs ${what} (${option} ${placeholder})${dashed}`;
  }
  return error.message.replace(/\. To specify a positional argument.*$/s, "");
}

/**
 * Parses `argv` against `spec`. Returns undefined after writing the usage text (to `out`, default stdout)
 * when `--help` or `-h` is given, so the caller does no work; throws UsageError for an unknown option,
 * a missing value or an unexpected argument. Flags win over environment variables, which win over defaults.
 */
export function parseCommandLine(
  spec: CommandSpec,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
  out: (text: string) => void = (text) => void process.stdout.write(text),
): ParsedCommandLine | undefined {
  const options = { ...spec.options, help: HELP_OPTION };
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
  );
  if (argv.includes("--help") || argv.includes("-h")) {
    out(formatUsage(spec));
    return undefined;
  }
  refuseSecretFlags(spec, argv);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: config,
      allowPositionals: spec.positionals !== undefined,
      strict: true,
    });
  } catch (e) {
    throw usageError(spec, describeParseError(spec, options, e as Error & { code?: string }, argv, env));
  }
  const tookFlag = npmTookFlag(
    spec,
    argv,
    env,
    parsed.positionals.length === 1 && spec.positionals === undefined ? parsed.positionals[0] : undefined,
  );
  if (tookFlag) throw usageError(spec, tookFlag);
  const hint = npmShorthandHint(spec, argv, env);
  if (hint) process.stderr.write(`${hint}\n`);
  const values: CliValues = { ...(parsed.values as CliValues) };
  for (const [name, o] of Object.entries(options)) {
    if (values[name] !== undefined) continue;
    const fromEnv = o.env ? env[o.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== "")
      values[name] = o.type === "boolean" ? !/^(0|false|no)$/i.test(fromEnv) : fromEnv;
    else if (o.default !== undefined) values[name] = o.default;
  }
  return { values, positionals: parsed.positionals };
}

/** A port option's value as a number, or a UsageError naming the flag. */
export function portValue(spec: CommandSpec, value: unknown): number {
  const text = String(value ?? "");
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    const env = spec.options?.port?.env;
    throw usageError(
      spec,
      `${env ?? "--port"} must be an integer 0-65535, got "${text}" (set it with --port <n>${env ? ` or ${env}=<n>` : ""}; 0 picks a free port)`,
    );
  }
  return Number(text);
}

/** The message for a failed listen: a busy port names the port and how to choose another. */
/** --allowed-host's names (comma-separated), or undefined when it is absent. */
export function allowedHostsValue(value: unknown): string[] | undefined {
  if (typeof value !== "string") return undefined;
  return value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

export function describeListenError(error: unknown, port: number, host: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE")
    return `port ${port} on ${host} is already in use: stop the process using it, or choose another port with --port <n> (or PORT=<n>); --port 0 picks any free port`;
  if (code === "EACCES")
    return `no permission to listen on port ${port} on ${host}: choose a port above 1023 with --port <n> (or PORT=<n>)`;
  if (code === "EADDRNOTAVAIL")
    return `cannot listen on ${host}: no such local address; choose another with --host <host> (or HOST=<host>)`;
  return `cannot listen on ${host}:${port}: ${(error as Error | undefined)?.message ?? String(error)}`;
}

/**
 * Output into a pipe that closes early (`| head`): the reader has what it wanted, so the command ends quietly with
 * the exit code it had so far, instead of a stack trace for EPIPE. Installed once per process by runCommand.
 */
let pipesGuarded = false;
export function endQuietlyOnClosedPipe(): void {
  if (pipesGuarded) return;
  pipesGuarded = true;
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
}

/**
 * The environment for a child whose output goes where ours goes: colour only when our stdout is a terminal,
 * unless NO_COLOR or FORCE_COLOR says otherwise (NO_COLOR wins over a terminal, FORCE_COLOR over a file).
 */
export function colourEnv(
  env: NodeJS.ProcessEnv = process.env,
  tty = process.stdout.isTTY === true,
): NodeJS.ProcessEnv {
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0";
  if (forced) return { ...env };
  const { FORCE_COLOR: _ignored, ...rest } = env;
  return env.NO_COLOR || !tty ? { ...rest, NO_COLOR: "1" } : { ...env };
}

/**
 * Runs a command's main function with the convention applied: parses the command line (help -> exit 0),
 * reports a UsageError on stderr with exit 2, an unreadable input (isInputError) with its message and exit 2, any
 * other error's message with exit 1 (no stack trace for expected failures).
 */
export async function runCommand(
  spec: CommandSpec,
  main: (args: ParsedCommandLine) => Promise<number | void> | number | void,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  endQuietlyOnClosedPipe();
  try {
    const args = parseCommandLine(spec, argv);
    if (!args) return;
    const code = await main(args);
    if (typeof code === "number" && code !== 0) process.exitCode = code;
  } catch (e) {
    // A message can quote input (a seed file, spec text): its control characters are shown, never sent.
    if (e instanceof UsageError) {
      process.stderr.write(`${escapeTerminalText(e.message)}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${spec.name}: ${escapeTerminalText((e as Error)?.message ?? String(e))}\n`);
    process.exitCode = isInputError(e) ? EXIT.usage : EXIT.failures;
  }
}

/** True when the module at `importMetaUrl` is the entry point (run directly, not imported by a test). */
export function isMain(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && resolve(entry) === fileURLToPath(importMetaUrl);
}
