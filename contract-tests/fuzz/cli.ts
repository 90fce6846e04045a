/**
 * npm run fuzz -- <base-url> [options]: the spec-driven fuzzer against any deployment.
 * Exit 0: every check passed; 1: at least one check failed; 2: usage error or unreadable spec.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { KEY_VARIABLE, REVOKED_KEY_VARIABLE } from "./curl.js";
import { formatReport, runFuzz, UsageError, type FuzzOptions } from "./runner.js";

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const USAGE = `usage: npm run fuzz -- <base-url> [options]

  <base-url>              the API including its base path, e.g. http://127.0.0.1:4010/v1
  --key <key>             the API key (default: $${KEY_VARIABLE}, else "test", the mock's key)
  --revoked-key <key>     a revoked key, to check that it is refused (default: $${REVOKED_KEY_VARIABLE}, else none)
  --seed <n>              seed of the request sequence (default: random, printed); the same seed repeats the run
  --requests <n>          number of requests (default 1000)
  --concurrency <n>       requests in flight (default 8)
  --time-limit <s>        stop sending after this many seconds (default 300)
  --operations <a,b,...>  only these operation ids (default: every operation)
  --report <file.json>    write the JSON report there
  --spec <openapi.json>   the bundled spec (default generated/openapi.json)
  --help                  this text

Checks: not_a_server_error, status_code_conformance, response_schema_conformance, negative_data_rejection,
error_shape. Exit 0: no failure; 1: a check failed; 2: usage error.
Each distinct failure is printed with a curl command that uses $${KEY_VARIABLE} (the key is never printed).
`;

const NUMERIC = {
  "--seed": "seed",
  "--requests": "requests",
  "--concurrency": "concurrency",
  "--time-limit": "timeLimit",
} as const;

export interface CliOptions extends Omit<FuzzOptions, "timeLimitMs"> {
  timeLimit: number;
  report?: string;
  help?: boolean;
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliOptions | string {
  const options: Partial<CliOptions> = {
    key: env[KEY_VARIABLE] || "test",
    requests: 1000,
    concurrency: 8,
    timeLimit: 300,
  };
  if (env[REVOKED_KEY_VARIABLE]) options.revokedKey = env[REVOKED_KEY_VARIABLE];
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return { ...(options as CliOptions), help: true };
    if (!arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const known = ["--key", "--revoked-key", "--report", "--spec", "--operations", ...Object.keys(NUMERIC)];
    if (!known.includes(flag)) return `unknown option ${flag}`;
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return `${flag} needs a value`;
    if (flag in NUMERIC) {
      const n = Number(value);
      const min = flag === "--seed" ? -(2 ** 31) : 1;
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || (flag === "--seed" && n >= 2 ** 31))
        return `${flag} must be an integer${flag === "--seed" ? " (32-bit)" : " of at least 1"}, got ${value}`;
      options[NUMERIC[flag as keyof typeof NUMERIC]] = n;
    } else if (flag === "--key") options.key = value;
    else if (flag === "--revoked-key") options.revokedKey = value;
    else if (flag === "--report") options.report = value;
    else if (flag === "--operations")
      options.operations = value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean);
    else options.spec = value;
  }
  if (positional.length !== 1)
    return positional.length === 0 ? "no base URL given" : `one base URL expected, got ${positional.join(" ")}`;
  let url: URL;
  try {
    url = new URL(positional[0]!);
  } catch {
    return `not a URL: ${positional[0]}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `the base URL must be http(s), got ${positional[0]}`;
  options.baseUrl = positional[0]!.replace(/\/+$/, "");
  options.seed ??= Math.floor(Math.random() * 2 ** 31);
  return options as CliOptions;
}

export async function runCli(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parseCli(argv, env);
  if (typeof options === "string") {
    io.err(`${options}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    io.out(USAGE);
    return 0;
  }
  let report;
  try {
    report = await runFuzz({ ...options, timeLimitMs: options.timeLimit * 1000 });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n${USAGE}`);
    return 2;
  }
  io.out(formatReport(report));
  if (options.report) {
    writeFileSync(options.report, `${JSON.stringify(report, null, 2)}\n`);
    io.out(`report written to ${options.report}\n`);
  }
  const failed = Object.values(report.checks).some((c) => c.failed > 0);
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
