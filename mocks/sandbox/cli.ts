/** The command line of `npm run sandbox -- ...`: flags and PORT / HOST to sandbox options. */
import { parseArgs } from "node:util";
import type { SandboxOptions } from "./options.js";

export const USAGE = `Usage: npm run sandbox -- [options]

  --port N              listen port (default 4011, or $PORT)
  --host H              listen host (default 127.0.0.1, or $HOST)
  --people N            generated people (default 5000)
  --companies N         generated companies (default 320)
  --seed N              generator seed (default 20261122)
  --latency MS          delay every response by MS milliseconds
  --rate-limit N        requests per minute per client IP (default 300)
  --no-rate-limit       turn the rate limiter off (load tests)
  --job-speed X         job simulation speed (default 1; 0 = advance only via /__sandbox/jobs/advance)
  --job-failure-rate F  fraction of jobs that fail (default 0.1)
  --state-file PATH     save state on shutdown, reload it on start
  --log                 log requests (never headers or keys)
  --help`;

function num(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number between ${min} and ${max}, got ${value}`);
  return n;
}

/** Parses CLI arguments (and PORT / HOST from the environment). Throws with a readable message. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Partial<SandboxOptions> & { help?: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      people: { type: "string" },
      companies: { type: "string" },
      seed: { type: "string" },
      latency: { type: "string" },
      "rate-limit": { type: "string" },
      "no-rate-limit": { type: "boolean" },
      "job-speed": { type: "string" },
      "job-failure-rate": { type: "string" },
      "state-file": { type: "string" },
      log: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const out: Partial<SandboxOptions> & { help?: boolean } = {};
  const set = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  set("port", num("port", values.port ?? env.PORT, 0, 65535));
  set("host", values.host ?? env.HOST);
  set("people", num("people", values.people, 1, 1_000_000));
  set("companies", num("companies", values.companies, 10, 100_000));
  set("seed", num("seed", values.seed, 0, 2 ** 32 - 1));
  set("latencyMs", num("latency", values.latency, 0, 600_000));
  set("jobSpeed", num("job-speed", values["job-speed"], 0, 10_000));
  set("jobFailureRate", num("job-failure-rate", values["job-failure-rate"], 0, 1));
  set("stateFile", values["state-file"]);
  const perMinute = num("rate-limit", values["rate-limit"], 1, 1_000_000);
  if (perMinute !== undefined) out.rateLimit = { max: perMinute, windowMs: 60_000 };
  if (values["no-rate-limit"]) out.rateLimit = false;
  if (values.log) out.logger = true;
  if (values.help) out.help = true;
  return out;
}
