/** The command line of `npm run sandbox -- ...` on contract-core's convention: flags (PORT / HOST as fallbacks) to sandbox options. */
import {
  COMMON_OPTIONS,
  allowedHostsValue,
  parseCommandLine,
  usageError,
  type CommandSpec,
  type OptionSpec,
} from "../../../../contract-core/index.js";
import { DEFAULT_OPTIONS, type SandboxOptions } from "../../contract/options.js";

const number = (description: string): OptionSpec => ({ type: "string", value: "<n>", description });

export const SANDBOX_COMMAND: CommandSpec = {
  name: "npm run sandbox",
  summary: "The stateful sandbox: the API on a deterministic graph with organizations, Targets, jobs and events.",
  options: {
    port: {
      type: "string",
      value: "<n>",
      env: "PORT",
      description: `port to listen on (default ${DEFAULT_OPTIONS.port}; 0 = any free port)`,
    },
    host: {
      type: "string",
      value: "<host>",
      env: "HOST",
      description: `interface to bind (default ${DEFAULT_OPTIONS.host})`,
    },
    "allowed-host": COMMON_OPTIONS.allowedHost(),
    "cors-origin": {
      type: "string",
      value: "<origins>",
      description:
        "only these origins (comma-separated, e.g. http://localhost:5173) may call the API from a browser (default: any)",
    },
    people: number(`generated people (default ${DEFAULT_OPTIONS.people})`),
    companies: number(`generated companies (default ${DEFAULT_OPTIONS.companies})`),
    seed: number(`generator seed (default ${DEFAULT_OPTIONS.seed})`),
    latency: { type: "string", value: "<ms>", description: "delay every answer by this many milliseconds" },
    "rate-limit": number("requests per minute per client IP (default 300)"),
    "no-rate-limit": { type: "boolean", description: "turn the rate limiter off (load tests)" },
    "job-speed": {
      type: "string",
      value: "<x>",
      description: "job simulation speed (default 1; 0 = jobs move only with /__sandbox/jobs/advance)",
    },
    "job-failure-rate": { type: "string", value: "<f>", description: "fraction of jobs that fail (default 0)" },
    "state-file": {
      type: "string",
      value: "<path>",
      description: "keep state in this file: every write is on disk before it is answered",
    },
    "accept-older-state": {
      type: "boolean",
      description:
        "use a --state-file older than the record of its last acknowledged write (a restored backup) on purpose",
    },
    "state-seed": {
      type: "string",
      value: "<file>",
      description:
        "start from the state declared in this JSON file (Lists, saved queries, Targets, preferences, plan, quota; checked by the API's validation) or from a snapshot the MSW kit's sandbox.snapshot() wrote",
    },
    "max-platform-orgs": number(
      `organizations the platform key may create (default ${DEFAULT_OPTIONS.maxPlatformOrgs})`,
    ),
    quiet: { type: "boolean", description: "print no line per request (by default: method, path, status, time)" },
    log: { type: "boolean", description: "Fastify's JSON log instead of the request lines (never headers or keys)" },
  },
  notes: ["Test keys and control endpoints: mocks/sandbox/README.md."],
};

function numberIn(command: CommandSpec) {
  return (name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (value === "" || !Number.isFinite(n) || n < min || n > max)
      throw usageError(command, `--${name} must be a number between ${min} and ${max}, and "${String(value)}" is not.`);
    return n;
  };
}

/**
 * Parses the command line (PORT / HOST from `env` when the flags are absent) into the options it sets
 * (`command` names the command in messages: the npm script by default, or the package's bin);
 * undefined after printing the usage for --help. Throws UsageError naming the argument.
 */
export function parseCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  out?: (text: string) => void,
  command: CommandSpec = SANDBOX_COMMAND,
): Partial<SandboxOptions> | undefined {
  const parsed = parseCommandLine(command, argv, env, out);
  if (!parsed) return undefined;
  const num = numberIn(command);
  const values = parsed.values;
  const out_: Partial<SandboxOptions> = {};
  const set = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) out_[key] = value;
  };
  set("port", num("port", values.port, 0, 65535));
  set("host", values.host as string | undefined);
  set("allowedHosts", allowedHostsValue(values["allowed-host"]));
  set("corsOrigins", corsOriginsValue(command, values["cors-origin"]));
  set("people", num("people", values.people, 1, 500_000));
  set("companies", num("companies", values.companies, 10, 100_000));
  set("seed", num("seed", values.seed, 0, 2 ** 32 - 1));
  set("latencyMs", num("latency", values.latency, 0, 600_000));
  set("jobSpeed", num("job-speed", values["job-speed"], 0, 10_000));
  set("jobFailureRate", num("job-failure-rate", values["job-failure-rate"], 0, 1));
  set("stateFile", values["state-file"] as string | undefined);
  set("stateSeed", values["state-seed"] as string | undefined);
  if (values["accept-older-state"]) out_.acceptOlderState = true;
  set("maxPlatformOrgs", num("max-platform-orgs", values["max-platform-orgs"], 0, 1_000_000));
  const perMinute = num("rate-limit", values["rate-limit"], 1, 1_000_000);
  if (perMinute !== undefined) out_.rateLimit = { max: perMinute, windowMs: 60_000 };
  if (values["no-rate-limit"]) out_.rateLimit = false;
  if (values.log) out_.logger = true;
  return out_;
}

/** --cors-origin's origins (comma-separated `scheme://host[:port]`), or undefined when it is absent. */
function corsOriginsValue(command: CommandSpec, value: unknown): string[] | undefined {
  if (typeof value !== "string") return undefined;
  const origins = value.split(",").map((o) => o.trim());
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
      throw usageError(
        command,
        `--cors-origin takes origins like http://localhost:5173, not ${JSON.stringify(origin)}`,
      );
  }
  return origins;
}
