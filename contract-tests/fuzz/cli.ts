/**
 * npm run fuzz -- <base-url> [options]: the spec-driven fuzzer against any deployment, on the project's
 * command-line convention. Exit codes as contract-core's EXIT: 0 every check passed; 1 a check failed; 2 usage;
 * 3 the deployment could not be fuzzed (unreachable, refusing the key, no such base path, or rate-limiting
 * more than a small share of the requests past what Retry-After let the run wait).
 */
import { writeFileSync } from "node:fs";
import {
  COMMON_OPTIONS,
  DEFAULT_SPEC_PATH,
  EXIT,
  flagGiven,
  formatUsage,
  keyFromEnv,
  isMain,
  parseCommandLine,
  STDIO,
  UsageError,
  usageError,
  type CliIo,
  type CommandSpec,
} from "../../contract-core/index.js";
import { KEY_VARIABLE, REVOKED_KEY_VARIABLE } from "./curl.js";
import type { FuzzOptions } from "./runner.js";

export const FUZZ_COMMAND: CommandSpec = {
  name: "npm run fuzz",
  summary:
    "Sends seeded valid and invalid requests for every operation of the spec to a deployment and checks each answer.",
  positionals: "<base-url>",
  options: {
    "key-env": COMMON_OPTIONS.keyEnv(KEY_VARIABLE, "the API key (unset: the mock's key, test)"),
    "revoked-key-env": COMMON_OPTIONS.keyEnv(
      REVOKED_KEY_VARIABLE,
      "a revoked key, to check that it is refused (unset: no such check)",
    ),
    seed: {
      type: "string",
      value: "<n>",
      description: "seed of the request sequence (default: random, printed); the same seed repeats the run",
    },
    requests: { type: "string", value: "<n>", default: "1000", description: "number of requests" },
    concurrency: { type: "string", value: "<n>", default: "8", description: "requests in flight" },
    "time-limit": { type: "string", value: "<seconds>", default: "300", description: "stop sending after this long" },
    operations: {
      type: "string",
      value: "<id,id,...>",
      description: "only these operation ids (default: every operation)",
    },
    report: { type: "string", value: "<file.json>", description: "write the JSON report there" },
    spec: {
      type: "string",
      value: "<file>",
      description: "the bundled OpenAPI document (default generated/openapi.json)",
    },
  },
  secretFlags: {
    key: `${KEY_VARIABLE} (or name another variable with --key-env NAME)`,
    "revoked-key": `${REVOKED_KEY_VARIABLE} (or name another variable with --revoked-key-env NAME)`,
  },
  notes: [
    "<base-url> is the API including its base path, e.g. http://127.0.0.1:4010/v1.",
    `Keys come from the environment only: ${KEY_VARIABLE}=<key> npm run fuzz -- <base-url>.`,
    "Checks: not_a_server_error, status_code_conformance, response_schema_conformance, negative_data_rejection, error_shape.",
    `Each distinct failure is printed with a curl command that reads $${KEY_VARIABLE}; the key is never printed.`,
    "A 429 with Retry-After is waited out and the request sent again; a run left rate-limited exits 3 naming --no-rate-limit.",
    "Exit 0: no failure; 1: a check failed; 2: usage error; 3: the deployment could not be fuzzed (unreachable, key refused, rate-limited).",
  ],
};

export const USAGE = formatUsage(FUZZ_COMMAND);

export interface CliOptions extends Omit<FuzzOptions, "timeLimitMs" | "checkTarget"> {
  /** The variable the key came from, for messages. */
  keySource: string;
  timeLimit: number;
  report?: string;
}

function integer(flag: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = String(value);
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || n < min || n > max)
    throw usageError(FUZZ_COMMAND, `--${flag} must be an integer from ${min} to ${max}, got ${text}`);
  return n;
}

/** The options of a run, or undefined after printing the usage (--help); throws UsageError. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv, out: (text: string) => void): CliOptions | undefined {
  const parsed = parseCommandLine(FUZZ_COMMAND, argv, env, out);
  if (!parsed) return undefined;
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw usageError(
      FUZZ_COMMAND,
      positionals.length === 0 ? "no base URL given" : `one base URL expected, got ${positionals.join(" ")}`,
    );
  const base = positionals[0]!;
  const url = URL.parse(base);
  if (!url) throw usageError(FUZZ_COMMAND, `not a URL: ${base}`);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw usageError(FUZZ_COMMAND, `the base URL must be http(s), got ${base}`);
  const keyVariable = String(values["key-env"]);
  const key = keyFromEnv(values, "key-env", env);
  if (key === undefined && flagGiven(argv, "key-env"))
    throw usageError(FUZZ_COMMAND, `the environment variable ${keyVariable} (named by --key-env) is not set.`);
  const options: CliOptions = {
    baseUrl: base.replace(/\/+$/, ""),
    key: key ?? "test",
    keySource: key === undefined ? `${keyVariable} (unset, so the mock's key "test" was sent)` : keyVariable,
    seed:
      values.seed === undefined
        ? Math.floor(Math.random() * 2 ** 31)
        : integer("seed", values.seed, -(2 ** 31), 2 ** 31 - 1),
    requests: integer("requests", values.requests, 1),
    concurrency: integer("concurrency", values.concurrency, 1, 1000),
    timeLimit: integer("time-limit", values["time-limit"], 1),
    spec: typeof values.spec === "string" ? values.spec : DEFAULT_SPEC_PATH,
  };
  const revokedKey = keyFromEnv(values, "revoked-key-env", env);
  if (revokedKey !== undefined) options.revokedKey = revokedKey;
  if (typeof values.report === "string") options.report = values.report;
  if (typeof values.operations === "string")
    options.operations = values.operations
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
  return options;
}

export async function runCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: CliOptions | undefined;
  let report;
  // The runner brings fast-check and the validator: loaded after the command line is known to ask for a run.
  let runner: typeof import("./runner.js");
  try {
    options = parseCli(argv, env, io.out);
    if (!options) return 0;
    runner = await import("./runner.js");
    const { FuzzConfigError, FuzzTargetError, runFuzz } = runner;
    try {
      report = await runFuzz({
        ...options,
        timeLimitMs: options.timeLimit * 1000,
        checkTarget: { keySource: options.keySource },
      });
    } catch (error) {
      if (error instanceof FuzzConfigError) throw usageError(FUZZ_COMMAND, error.message);
      if (error instanceof FuzzTargetError) {
        io.err(`${FUZZ_COMMAND.name}: ${error.message}\n`);
        return EXIT.target;
      }
      throw error;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n`);
    return EXIT.usage;
  }
  io.out(runner.formatReport(report));
  if (options.report) {
    writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
    io.out(`report written to ${options.report}\n`);
  }
  const rateLimited = runner.rateLimitProblem(report);
  if (rateLimited) {
    io.err(`${FUZZ_COMMAND.name}: ${rateLimited}\n`);
    return EXIT.target;
  }
  return Object.values(report.checks).some((c) => c.failed > 0) ? EXIT.failures : EXIT.ok;
}

if (isMain(import.meta.url)) process.exitCode = await runCli(process.argv.slice(2), STDIO);
