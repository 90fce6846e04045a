/** Sandbox options: what the core and its hosts accept, with their defaults. */
import type { GraphInput } from "../data/graph.js";

export interface RateLimitOptions {
  /** Requests per window per client IP (reference: 300 per minute). */
  max: number;
  windowMs: number;
}

export interface SandboxOptions {
  host: string;
  port: number;
  /**
   * Host names the sandbox answers besides loopback names, IP addresses and `host` (core/host-guard.ts);
   * null answers every Host (in-process cores, the MSW host). The Node host always checks.
   */
  allowedHosts: readonly string[] | null;
  /**
   * Origins (`https://app.example`) whose pages may call the API from a browser (core/cors.ts); null: any
   * origin (`*`, the default: published test keys, keys in headers, never cookies).
   */
  corsOrigins?: readonly string[] | null;
  /** Size of the generated graph (ignored when `graph` is given). */
  people: number;
  companies: number;
  seed: number;
  /** A hand-made graph instead of the generator (tests). */
  graph?: GraphInput;
  /** Added to every response (the `Prefer: latency=<ms>` header adds per request). */
  latencyMs: number;
  /** false turns the limiter off (load tests). */
  rateLimit: RateLimitOptions | false;
  /** Path of the bundled spec read by the Node host (empty: generated/openapi.json). */
  specPath: string;
  /** Fastify logger (requests are logged without headers, so keys never reach the log). */
  logger: boolean;
  /** The Node host writes one line per request here (requestLogLine: never headers, so never a key). */
  requestLog?: (line: string) => void;
  /** Wall clock of the stateful areas; tests can pin it (the core adds what advance(ms) moved). */
  now: () => number;
  // ---- stateful areas ----
  /** Job simulation speed factor (1 = real-time-ish; 0 = only the control endpoint advances jobs). */
  jobSpeed: number;
  /**
   * Fraction (0..1) of jobs that fail (and as many again that end partial), drawn per job; 0 by default: a
   * job fails only when asked to (POST /__sandbox/jobs/advance, a declared state, the MSW host's nextJobs).
   */
  jobFailureRate: number;
  /** State file (SQLite): loaded at start, every write committed to it before it is acknowledged (node-state-storage.ts). */
  stateFile: string | null;
  /** Use a state file older than the record of its last acknowledged write on purpose (node-state-storage.ts). */
  acceptOlderState: boolean;
  /** A declared starting state (JSON file, hosts/seed-state.ts), built at start when the state holds nothing yet. */
  stateSeed: string | null;
  /** Organizations the platform key may create for new X-Service-Org-Id values (state.ts: eviction, then 400). */
  maxPlatformOrgs: number;
}

export const DEFAULT_OPTIONS: SandboxOptions = {
  host: "127.0.0.1",
  port: 4011,
  allowedHosts: null,
  people: 5000,
  companies: 320,
  seed: 20261122,
  latencyMs: 0,
  rateLimit: { max: 300, windowMs: 60_000 },
  specPath: "",
  logger: false,
  now: () => Date.now(),
  jobSpeed: 1,
  jobFailureRate: 0,
  stateFile: null,
  acceptOlderState: false,
  stateSeed: null,
  maxPlatformOrgs: 1000,
};

export function resolveOptions(partial: Partial<SandboxOptions> = {}): SandboxOptions {
  return { ...DEFAULT_OPTIONS, ...partial };
}
