/**
 * TALENT_GRAPH_API_KEY=<key> npm run workflows -- --server <base-url>: runs every Arazzo workflow of
 * spec/workflows/ with Redocly Respect against one deployment. The key comes from the environment, never the
 * command line (npm prints that); it reaches Respect through its input environment variable and Respect masks
 * it, as a `format: password` input, in everything it prints. One probe first names an unreachable server, a
 * refused key or a missing base path in one line.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  EXIT,
  checkTarget,
  COMMON_OPTIONS,
  DEFAULT_SPEC_PATH,
  formatUsage,
  isMain,
  keyFromEnv,
  loadSpec,
  parseCommandLine,
  runCommand,
  serverBasePath,
  usageError,
  type CommandSpec,
  type ParsedCommandLine,
} from "../../contract-core/index.js";

export { UsageError } from "../../contract-core/index.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const WORKFLOWS_DIR = join(repoRoot, "spec/workflows");
/** The sourceDescription name every workflow file gives the API. */
const SOURCE = "talentGraph";
const KEY_VARIABLE = "TALENT_GRAPH_API_KEY";

export const WORKFLOWS_COMMAND: CommandSpec = {
  name: "npm run workflows",
  summary: "Runs every spec/workflows/*.arazzo.yaml with Redocly Respect against a deployment.",
  options: {
    server: {
      type: "string",
      value: "<base-url>",
      description: "the deployment's base URL, ending in /v1 (e.g. http://127.0.0.1:4011/v1); required",
    },
    "key-env": COMMON_OPTIONS.keyEnv(KEY_VARIABLE, "the key of the organization to run as (masked in all output)"),
    "json-output": {
      type: "string",
      value: "<file>",
      description: "also write Respect's JSON log (requests and responses) to <file>",
    },
    verbose: {
      type: "boolean",
      description: "print Respect's whole log as it runs (by default: one summary line per file, the log on failure)",
    },
  },
  secretFlags: { key: `${KEY_VARIABLE} (or name another variable with --key-env NAME)` },
  notes: [`Example: ${KEY_VARIABLE}=<key> npm run workflows -- --server http://127.0.0.1:4011/v1`],
};

export const USAGE = formatUsage(WORKFLOWS_COMMAND);

export interface WorkflowsArgs {
  server: string;
  key: string;
  /** The variable the key came from, for messages. */
  keySource?: string;
  jsonOutput?: string;
}

/** The run's arguments from a parsed command line and the environment; throws UsageError. */
export function workflowsArgs({ values }: ParsedCommandLine, env: NodeJS.ProcessEnv = process.env): WorkflowsArgs {
  const server = typeof values.server === "string" ? values.server : "";
  if (!server) throw usageError(WORKFLOWS_COMMAND, "--server <base-url> is required, e.g. http://127.0.0.1:4011/v1.");
  if (!/^https?:\/\/\S+$/.test(server))
    throw usageError(WORKFLOWS_COMMAND, `--server must be an http(s) URL, and ${server} is not one.`);
  const keySource = String(values["key-env"]);
  const key = keyFromEnv(values, "key-env", env);
  if (key === undefined)
    throw usageError(
      WORKFLOWS_COMMAND,
      `the environment variable ${keySource} is not set; put the key of the organization to run as in it.`,
    );
  return {
    server: server.replace(/\/+$/, ""),
    key,
    keySource,
    ...(typeof values["json-output"] === "string" ? { jsonOutput: values["json-output"] } : {}),
  };
}

/** Parses `argv` (undefined after printing the usage for --help); throws UsageError. */
export function parseWorkflowsArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  out?: (text: string) => void,
): WorkflowsArgs | undefined {
  const parsed = parseCommandLine(WORKFLOWS_COMMAND, argv, env, out);
  return parsed && workflowsArgs(parsed, env);
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

/**
 * What a run without --verbose prints: one line per workflow file from Respect's own summary, and a total; a
 * failed run prints Respect's whole log first, since that is where the failing step and check are.
 */
export function summarize(run: WorkflowsRun, server: string): string {
  const lines: string[] = [];
  const blocks = run.output.split(/^\s*Summary for /m).slice(1);
  for (const block of blocks) {
    const [file = "?", ...rest] = block.split("\n");
    const counts = ["Workflows", "Steps", "Checks"]
      .map((what) => rest.find((line) => line.trim().startsWith(`${what}:`))?.trim())
      .filter(Boolean);
    const failed = counts.some((count) => /\d+ failed/.test(count!));
    lines.push(`${failed ? "✘" : "✔"} ${file.trim()}: ${counts.join("; ")}`);
  }
  const verdict =
    run.code === 0
      ? `✔ ${blocks.length} workflow files passed against ${server} (--verbose prints Respect's log)`
      : `✘ workflows failed against ${server} (exit ${run.code})`;
  return `${run.code === 0 ? "" : `${run.output.trimEnd()}\n\n`}${[...lines, verdict].join("\n")}\n`;
}

if (isMain(import.meta.url))
  await runCommand(WORKFLOWS_COMMAND, async (parsed) => {
    const args = workflowsArgs(parsed);
    const problem = await checkTarget(args.server, args.key, {
      basePath: serverBasePath(loadSpec(DEFAULT_SPEC_PATH)),
      keySource: args.keySource ?? KEY_VARIABLE,
    });
    if (problem) {
      process.stderr.write(`${WORKFLOWS_COMMAND.name}: ${problem}\n`);
      return EXIT.target;
    }
    const verbose = parsed.values.verbose === true;
    const run = await runWorkflows(args, workflowFiles(), { echo: verbose });
    if (!verbose) process.stdout.write(summarize(run, args.server));
    return run.code;
  });
