/**
 * The Arazzo workflows of spec/workflows/ run by Redocly Respect (`npm run workflows`) against the sandbox
 * started in-process on 127.0.0.1:0: every workflow passes; a sandbox that does not reuse company Targets makes
 * exactly the company reuse workflow fail, at its second create.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Area, Handler } from "../mocks/sandbox/context.js";
import { areas } from "../mocks/sandbox/routes/index.js";
import { startSandbox, type RunningSandbox } from "../mocks/sandbox/server.js";
import { latestJob, targetsOf, targetsSlice } from "../mocks/sandbox/stateful/store.js";
import { testKey } from "../mocks/sandbox/testing/harness.js";
import { parseWorkflowsArgs, runWorkflows, UsageError, USAGE, WORKFLOWS_DIR, workflowFiles } from "./workflows.js";

/** Jobs move a phase every 40 ms, so a Target job ends within a few polls; no job fails unless made to. */
const SANDBOX = { host: "127.0.0.1", port: 0, people: 300, companies: 40, rateLimit: false as const, jobSpeed: 50, jobFailureRate: 0 };

interface LoggedStep {
  type: "step" | "workflow";
  stepId?: string;
  workflowId: string;
  status: string;
  request?: { url: string };
  response?: { statusCode: number; body: unknown };
  executedSteps?: LoggedStep[];
}
interface RespectLog {
  files: Record<string, { executedWorkflows: LoggedStep[] }>;
}

/** Every executed step of a workflow, child workflows included, in order. */
function stepsOf(entry: LoggedStep): LoggedStep[] {
  return (entry.executedSteps ?? []).flatMap((s) => (s.type === "workflow" ? stepsOf(s) : [s]));
}

function workflowsIn(log: RespectLog, file: string): LoggedStep[] {
  const key = Object.keys(log.files).find((k) => k.endsWith(file));
  if (!key) throw new Error(`${file} is not in the Respect log`);
  return log.files[key]!.executedWorkflows;
}

const tmp = mkdtempSync(join(tmpdir(), "workflows-test-"));
let sandbox: RunningSandbox;

/** The pages GET /events answered, by normalized `since` (Respect's log keeps only the last answer of a repeated step). */
const answeredPages = new Map<string, { data: { id: string }[]; meta: { has_more: boolean } }[]>();

/** listEvents that also records each page it answers, by since. */
function recordEventPages(area: Area): Area {
  const list = area.handlers.listEvents;
  if (!list) return area;
  const listEvents: Handler = async (req, ctx) => {
    const reply = await list(req, ctx);
    const at = new Date(String(req.query.since));
    const since = Number.isNaN(at.getTime()) ? String(req.query.since) : at.toISOString();
    answeredPages.set(since, [...(answeredPages.get(since) ?? []), reply.body as never]);
    return reply;
  };
  return { ...area, handlers: { ...area.handlers, listEvents } };
}

beforeAll(async () => {
  sandbox = await startSandbox(SANDBOX, areas.map(recordEventPages));
  // Enough stored diffs for a polling pass of several pages (limit 25).
  const res = await fetch(`${sandbox.origin}/__sandbox/events/emit`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ count: 80 }) });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("npm run workflows against the sandbox", () => {
  it("passes every workflow, and the events pass pages through distinct events", async () => {
    const jsonOutput = join(tmp, "all.json");
    const run = await runWorkflows({ server: sandbox.baseUrl, key: testKey("acme"), jsonOutput });
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain(testKey("acme"));

    const log = JSON.parse(readFileSync(jsonOutput, "utf8")) as RespectLog;
    const ran = workflowFiles().flatMap((f) => workflowsIn(log, f.slice(WORKFLOWS_DIR.length + 1)));
    expect(ran.map((w) => `${w.workflowId}:${w.status}`).sort()).toEqual(
      ["company-target-after-failure", "company-target-reuse", "events-polling-pass", "list-lifecycle", "people-target-to-events", "webhook-secret-never-returned"].map((w) => `${w}:success`),
    );

    const requests = stepsOf(workflowsIn(log, "events-polling.arazzo.yaml")[0]!);
    const pages = answeredPages.get("2026-01-01T00:00:00.000Z") ?? [];
    expect(pages.length).toBe(requests.length);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(requests.map((r) => r.request!.url)).size).toBe(requests.length);
    const ids = pages.flatMap((p) => p.data.map((e) => e.id));
    expect(ids.length).toBeGreaterThan(2 * 25);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.at(-1)!.meta.has_more).toBe(false);
  }, 20_000);
});

describe("a sandbox that breaks the reference", () => {
  let broken: RunningSandbox;

  /** createTarget that never reuses a company Target whose job did not fail: such Targets are hidden from the lookup. */
  function neverReuseCompanies(area: Area): Area {
    const create = area.handlers.createTarget;
    if (!create) return area;
    const createTarget: Handler = (req, ctx) => {
      if (req.org.has(targetsSlice)) for (const t of targetsOf(req.org)) if (t.kind === "company" && latestJob(t)?.status !== "failed") t.company_key = `retired:${t.id}`;
      return create(req, ctx);
    };
    return { ...area, handlers: { ...area.handlers, createTarget } };
  }

  beforeAll(async () => {
    broken = await startSandbox(SANDBOX, areas.map(neverReuseCompanies));
  });
  afterAll(async () => broken?.close());

  it("fails the company reuse workflow at the second create, and only that workflow", async () => {
    const jsonOutput = join(tmp, "broken.json");
    const run = await runWorkflows({ server: broken.baseUrl, key: testKey("acme"), jsonOutput }, [join(WORKFLOWS_DIR, "company-target.arazzo.yaml")]);
    expect(run.code).not.toBe(0);
    const [reuse, afterFailure] = workflowsIn(JSON.parse(readFileSync(jsonOutput, "utf8")) as RespectLog, "company-target.arazzo.yaml");
    expect(reuse).toMatchObject({ workflowId: "company-target-reuse", status: "error" });
    const failed = stepsOf(reuse!).filter((s) => s.status !== "success");
    expect(failed.map((s) => s.stepId)).toEqual(["createAgain"]);
    expect(failed[0]!.response!.statusCode).toBe(202);
    expect(afterFailure).toMatchObject({ workflowId: "company-target-after-failure", status: "success" });
  }, 15_000);
});

describe("npm run workflows arguments", () => {
  it("parses --server, --key and --json-output, and knows --help", () => {
    expect(parseWorkflowsArgs(["--server", "http://127.0.0.1:4011/v1/", "--key", "k"])).toEqual({ server: "http://127.0.0.1:4011/v1", key: "k" });
    expect(parseWorkflowsArgs(["--key", "k", "--server", "https://api.example/v1", "--json-output", "o.json"])).toEqual({ server: "https://api.example/v1", key: "k", jsonOutput: "o.json" });
    expect(parseWorkflowsArgs(["--help"])).toBe("help");
    expect(USAGE).toContain("--server <base-url> --key <key>");
  });

  it.each([
    [["--server", "http://x/v1", "--key", "k", "--verbose"], "Unknown option: --verbose"],
    [["--server", "http://x/v1"], "--key <key> is required"],
    [["--key", "k"], "--server <base-url> is required"],
    [["--server", "x/v1", "--key", "k"], "--server must be an http(s) URL"],
    [["--server", "--key", "k"], "--server needs a value"],
  ])("rejects %j", (argv, message) => {
    expect(() => parseWorkflowsArgs(argv)).toThrow(UsageError);
    expect(() => parseWorkflowsArgs(argv)).toThrow(message);
  });
});
