/**
 * npm run workflows -- --server <base-url> --key <key>: runs every Arazzo workflow of spec/workflows/ with
 * Redocly Respect against one deployment. The key reaches Respect through its input environment variable (not
 * the command line) and Respect masks it, as a `format: password` input, in everything it prints.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const WORKFLOWS_DIR = join(repoRoot, "spec/workflows");
/** The sourceDescription name every workflow file gives the API. */
const SOURCE = "talentGraph";

export const USAGE = `Usage: npm run workflows -- --server <base-url> --key <key> [--json-output <file>]

Runs every spec/workflows/*.arazzo.yaml with Redocly Respect against a deployment.

  --server <base-url>   the deployment's base URL, ending in /v1 (e.g. http://127.0.0.1:4011/v1)
  --key <key>           API key of the organization to run as (masked in all output)
  --json-output <file>  also write Respect's JSON log (requests and responses) to <file>
  --help                print this help`;

export class UsageError extends Error {}

export interface WorkflowsArgs {
  server: string;
  key: string;
  jsonOutput?: string;
}

export function parseWorkflowsArgs(argv: string[]): WorkflowsArgs | "help" {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    const name = arg.replace(/^--/, "");
    if (!arg.startsWith("--") || !["server", "key", "json-output"].includes(name))
      throw new UsageError(`Unknown option: ${arg}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`${arg} needs a value`);
    values[name] = value;
  }
  if (!values.server) throw new UsageError("--server <base-url> is required");
  if (!values.key) throw new UsageError("--key <key> is required");
  if (!/^https?:\/\/\S+$/.test(values.server))
    throw new UsageError(`--server must be an http(s) URL, got ${values.server}`);
  return {
    server: values.server.replace(/\/+$/, ""),
    key: values.key,
    ...(values["json-output"] ? { jsonOutput: values["json-output"] } : {}),
  };
}

/** The runnable workflow files: spec/workflows/*.arazzo.yaml (parts/ holds workflows called by them). */
export function workflowFiles(dir = WORKFLOWS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".arazzo.yaml"))
    .sort()
    .map((f) => join(dir, f));
}

export interface WorkflowsRun {
  code: number;
  output: string;
}

/** Runs Respect on the given files (all by default); resolves with its exit code and combined output. */
export function runWorkflows(
  args: WorkflowsArgs,
  files = workflowFiles(),
  opts: { echo?: boolean } = {},
): Promise<WorkflowsRun> {
  const respectArgs = [
    "respect",
    ...files,
    "--server",
    `${SOURCE}=${args.server}`,
    ...(args.jsonOutput ? ["--json-output", args.jsonOutput] : []),
  ];
  const child = spawn(join(repoRoot, "node_modules/.bin/redocly"), respectArgs, {
    cwd: repoRoot,
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      NO_COLOR: "1",
      REDOCLY_CLI_RESPECT_INPUT: `key=${args.key},baseUrl=${args.server}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (opts.echo) process.stdout.write(chunk);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, output }));
  });
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseWorkflowsArgs>;
  try {
    parsed = parseWorkflowsArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed === "help") {
    console.log(USAGE);
    return;
  }
  const { code } = await runWorkflows(parsed, workflowFiles(), { echo: true });
  process.exit(code);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
