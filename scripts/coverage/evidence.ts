/** The four evidence sources of contract coverage, each collected as the README's table says (its `how`). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getResponse } from "msw";
import { REPO_ROOT, SUITE_LOG_DIR, loadRecordings, type Exchange, type Mark } from "../../contract-core/index.js";
import { runFuzz } from "../../contract-tests/fuzz/runner.js";
import { KEYS } from "../../mocks/sandbox/contract/auth.js";
import { createSandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";
import { startSandbox } from "../../mocks/sandbox/hosts/node/server.js";
import { runWorkflows, workflowFiles } from "../workflows/workflows.js";
import type { Evidence, SourceInfo } from "./report.js";

export const RECORDINGS_DIR = join(REPO_ROOT, "contract-tests/recordings");

/** The fuzz run of coverage: the seed of the in-suite runs, fewer requests (every operation is still reached). */
const COVERAGE_FUZZ = { seed: 20261123, requests: 1000, concurrency: 8 } as const;

const keyOf = (prefix: string): string => {
  const found = KEYS.find((k) => k.key.startsWith(prefix));
  if (!found) throw new Error(`no sandbox key starting with ${prefix}`);
  return found.key;
};

interface Collected {
  info: SourceInfo;
  exchanges?: Exchange[];
  marks?: Mark[];
}

const collected = (how: string, exchanges: Exchange[]): Collected => ({
  info: { collected: true, exchanges: exchanges.length, how },
  exchanges,
});

export function collectRecordings(basePath: string, dir = RECORDINGS_DIR): Collected {
  const exchanges = existsSync(dir) ? loadRecordings([dir], basePath).map((r) => r.exchange) : [];
  return collected("contract-tests/recordings/, read from disk (what `npm run contract` replays)", exchanges);
}

async function collectFuzz(): Promise<Collected> {
  const origin = "http://sandbox.coverage.invalid";
  const sandbox = createSandboxHandlers({
    baseUrl: `${origin}/v1`,
    people: 1000,
    companies: 80,
    rateLimit: false,
    jobSpeed: 0,
  });
  const exchanges: Exchange[] = [];
  try {
    const inProcess = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await getResponse(sandbox.handlers, new Request(input, init));
      if (!response) throw new Error(`no sandbox handler answered ${String(input)}`);
      return response;
    }) as typeof fetch;
    await runFuzz({
      ...COVERAGE_FUZZ,
      baseUrl: `${origin}/v1`,
      key: keyOf("tgsb_acme_"),
      revokedKey: keyOf("tgsb_revoked_"),
      timeLimitMs: 600_000,
      fetch: inProcess,
      onExchange: (exchange) => exchanges.push(exchange),
    });
  } finally {
    sandbox.close();
  }
  const { seed, requests } = COVERAGE_FUZZ;
  const how = `a fuzz run (seed ${seed}, ${requests} requests) against the sandbox core through its MSW handlers, in process`;
  return collected(how, exchanges);
}

interface RespectStep {
  type: "step" | "workflow";
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { statusCode: number; headers?: Record<string, string>; body?: unknown };
  executedSteps?: RespectStep[];
}

function stepsOf(entry: RespectStep): RespectStep[] {
  return (entry.executedSteps ?? []).flatMap((s) => (s.type === "workflow" ? stepsOf(s) : [s]));
}

/** Respect's JSON log as exchanges (URLs made relative to the origin, so they route under the base path). */
export function exchangesOfRespectLog(log: {
  files: Record<string, { executedWorkflows: RespectStep[] }>;
}): Exchange[] {
  return Object.values(log.files)
    .flatMap((file) => file.executedWorkflows.flatMap(stepsOf))
    .filter((step) => step.request && step.response)
    .map((step) => {
      const url = new URL(step.request!.url);
      return {
        request: {
          method: step.request!.method.toUpperCase(),
          url: url.pathname + url.search,
          headers: step.request!.headers ?? {},
          body: step.request!.body ?? null,
        },
        response: {
          status: step.response!.statusCode,
          headers: step.response!.headers ?? {},
          body: step.response!.body ?? null,
        },
      };
    });
}

async function collectWorkflows(): Promise<Collected> {
  const tmp = mkdtempSync(join(tmpdir(), "coverage-workflows-"));
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    people: 300,
    companies: 40,
    rateLimit: false,
    jobSpeed: 50,
    jobFailureRate: 0,
  });
  try {
    // Stored diffs for the events workflow to page through, as its own test does.
    const emitted = await fetch(`${sandbox.origin}/__sandbox/events/emit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 80 }),
    });
    if (!emitted.ok) throw new Error(`the sandbox refused to emit events: ${emitted.status}`);
    const jsonOutput = join(tmp, "respect.json");
    const run = await runWorkflows({ server: sandbox.baseUrl, key: keyOf("tgsb_acme_"), jsonOutput }, workflowFiles());
    if (!existsSync(jsonOutput))
      return {
        info: { collected: false, exchanges: 0, how: "", reason: `Respect wrote no log (exit ${run.code})` },
      };
    const exchanges = exchangesOfRespectLog(JSON.parse(readFileSync(jsonOutput, "utf8")));
    return collected(
      "spec/workflows/ run by Redocly Respect against the sandbox started in process on 127.0.0.1",
      exchanges,
    );
  } finally {
    await sandbox.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function collectSuite(dir = SUITE_LOG_DIR): Collected {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")) : [];
  const how = "the marks the sandbox test harness wrote while the behaviour suite ran (dist/coverage/suite/)";
  if (files.length === 0)
    return {
      info: { collected: false, exchanges: 0, how, reason: "no log yet: run `npm test` (or vitest) first" },
    };
  const marks = files.flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Mark),
  );
  return { info: { collected: true, exchanges: marks.length, how }, marks };
}

/** Collects one source. */
export function collect(source: Evidence, basePath: string): Collected | Promise<Collected> {
  if (source === "recordings") return collectRecordings(basePath);
  return source === "fuzz" ? collectFuzz() : source === "workflows" ? collectWorkflows() : collectSuite();
}
