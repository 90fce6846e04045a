/**
 * The Arazzo workflows of spec/workflows/ run by Redocly Respect (`npm run workflows`) against the sandbox
 * started in-process on 127.0.0.1:0: every workflow passes and no answer carries the webhook secret; a sandbox
 * that breaks one statement of the reference makes exactly the matching workflow fail, at the matching step.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Area, Handler, OperationId, UntypedReply } from "../../mocks/sandbox/contract/context.js";
import { areas } from "../../mocks/sandbox/areas/index.js";
import { startSandbox, type RunningSandbox } from "../../mocks/sandbox/hosts/node/server.js";
import { latestJob, targetsOf, targetsSlice } from "../../mocks/sandbox/areas/targets-store.js";
import { testKey } from "../../mocks/sandbox/testing/harness.js";
import {
  parseWorkflowsArgs,
  runWorkflows,
  summarize,
  UsageError,
  USAGE,
  WORKFLOWS_DIR,
  workflowFiles,
} from "./workflows.js";

/** Stored diffs emitted before the run; the default orbit makes them visible to every organization. */
const EMITTED = 80;
/** Jobs move a phase every 40 ms, so a Target job ends within a few polls; no job fails unless made to. */
const SANDBOX = {
  host: "127.0.0.1",
  port: 0,
  people: 300,
  companies: 40,
  rateLimit: false as const,
  jobSpeed: 50,
  jobFailureRate: 0,
};

interface LoggedStep {
  type: "step" | "workflow";
  stepId?: string;
  workflowId: string;
  status: string;
  request?: { url: string };
  response?: { statusCode: number; body: unknown };
  checks?: { name: string; passed: boolean; condition?: string }[];
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
/** The preferences workflow's default inputs. */
const WEBHOOK_SECRET = "workflow-webhook-secret-5f0c";
const WEBHOOK_URL = "https://hooks.example.com/talent-graph";

/** Handlers are typed per operation; a wrapper that serves any operation sees them untyped. */
type AnyHandler = (
  req: Parameters<Handler>[0] & { query: Record<string, unknown> },
  ctx: Parameters<Handler>[1],
) => Promise<UntypedReply> | UntypedReply;
type Wrap = (handler: AnyHandler) => AnyHandler;

/** The sandbox's areas with the handlers of the named operations wrapped (or every handler, with "*"). */
function wrapped(wraps: Partial<Record<OperationId | "*", Wrap>>): Area[] {
  return areas.map((area) => ({
    ...area,
    handlers: Object.fromEntries(
      Object.entries(area.handlers).map(([op, h]) => {
        const wrap = wraps["*"] ?? wraps[op as OperationId];
        return [op, wrap ? wrap(h as AnyHandler) : h];
      }),
    ) as Area["handlers"],
  }));
}

async function runLogged(
  server: RunningSandbox,
  name: string,
  files?: string[],
): Promise<{ code: number; output: string; log: RespectLog }> {
  const jsonOutput = join(tmp, `${name}.json`);
  const run = await runWorkflows({ server: server.baseUrl, key: testKey("acme"), jsonOutput }, files);
  return { ...run, log: JSON.parse(readFileSync(jsonOutput, "utf8")) as RespectLog };
}

/** The steps of a workflow that did not pass, with the conditions of their failed checks. */
function failedSteps(
  workflow: LoggedStep,
): { stepId: string | undefined; statusCode: number | undefined; failed: string[] }[] {
  return stepsOf(workflow)
    .filter((s) => s.status !== "success")
    .map((s) => ({
      stepId: s.stepId,
      statusCode: s.response?.statusCode,
      failed: (s.checks ?? []).filter((c) => !c.passed).map((c) => c.condition ?? c.name),
    }));
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("npm run workflows against the sandbox", () => {
  let sandbox: RunningSandbox;
  /** Every answer the sandbox gave, serialized, and the GET /events pages by normalized since. */
  const answers: string[] = [];
  const requests: string[] = [];
  const eventPages = new Map<string, { data: { id: string }[]; meta: { has_more: boolean } }[]>();

  const record: Wrap = (handler) => async (req, ctx) => {
    const reply = await handler(req, ctx);
    requests.push(JSON.stringify(req.body ?? null));
    answers.push(JSON.stringify(reply));
    if (req.operationId === "listEvents") {
      const at = new Date(String(req.query.since));
      const since = Number.isNaN(at.getTime()) ? String(req.query.since) : at.toISOString();
      eventPages.set(since, [...(eventPages.get(since) ?? []), reply.body as never]);
    }
    return reply;
  };

  beforeAll(async () => {
    sandbox = await startSandbox(SANDBOX, wrapped({ "*": record }));
    // Enough stored diffs for a polling pass of several pages (limit 25).
    const res = await fetch(`${sandbox.origin}/__sandbox/events/emit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: EMITTED }),
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => sandbox?.close());

  it("passes every workflow; the events pass reads distinct events over several pages; no answer has the webhook secret", async () => {
    const { code, output, log } = await runLogged(sandbox, "all");
    expect(code, output).toBe(0);
    expect(output).not.toContain(testKey("acme"));
    expect(output).not.toContain(WEBHOOK_SECRET);
    // Without --verbose a passing run prints one line per workflow file and a total, not Respect's log.
    const summary = summarize({ code, output }, sandbox.baseUrl).trimEnd().split("\n");
    expect(summary).toHaveLength(workflowFiles().length + 1);
    expect(summary[0]).toMatch(/^✔ \S+\.arazzo\.yaml: Workflows: \d+ passed, \d+ total; Steps: .*; Checks: /);
    expect(summary.at(-1)).toBe(
      `✔ ${workflowFiles().length} workflow files passed against ${sandbox.baseUrl} (--verbose prints Respect's log)`,
    );

    const ran = workflowFiles().flatMap((f) => workflowsIn(log, f.slice(WORKFLOWS_DIR.length + 1)));
    expect(ran.map((w) => `${w.workflowId}:${w.status}`).sort()).toEqual(
      [
        "company-target-after-failure",
        "company-target-reuse",
        "events-polling-pass",
        "list-lifecycle",
        "people-target-to-events",
        "webhook-secret-never-returned",
      ].map((w) => `${w}:success`),
    );

    // Respect's log keeps only the last answer of a step that runs again, so the pages come from the sandbox.
    const pageRequests = stepsOf(workflowsIn(log, "events-polling.arazzo.yaml")[0]!);
    const pages = eventPages.get("2026-01-01T00:00:00.000Z") ?? [];
    expect(pages.length).toBe(pageRequests.length);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(pageRequests.map((r) => r.request!.url)).size).toBe(pageRequests.length);
    const ids = pages.flatMap((p) => p.data.map((e) => e.id));
    expect(ids.length).toBeGreaterThanOrEqual(EMITTED);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.at(-1)!.meta.has_more).toBe(false);

    expect(requests.some((r) => r.includes(WEBHOOK_SECRET) && r.includes(WEBHOOK_URL))).toBe(true);
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.includes(WEBHOOK_SECRET) || a.includes(WEBHOOK_URL))).toEqual([]);
  });
});

describe("a sandbox that breaks the reference fails the matching workflow", () => {
  // One sandbox breaks two statements and one Respect run takes the two workflow files they concern: each
  // file's workflows fail exactly where their own statement is broken, the other breakage leaves them alone.
  // Company Targets whose job did not fail are hidden from createTarget's lookup, so it creates another.
  const neverReuse: Wrap = (create) => (req, ctx) => {
    if (req.org.has(targetsSlice))
      for (const t of targetsOf(req.org))
        if (t.kind === "company" && latestJob(t)?.status !== "failed") t.company_key = `retired:${t.id}`;
    return create(req, ctx);
  };
  const leak: Wrap = (read) => async (req, ctx) => {
    const reply = await read(req, ctx);
    const body = reply.body as unknown as { data: Record<string, unknown> };
    return { ...reply, body: { data: { ...body.data, webhook_secret: WEBHOOK_SECRET } } };
  };
  let broken: RunningSandbox;
  let run: Awaited<ReturnType<typeof runLogged>>;
  beforeAll(async () => {
    broken = await startSandbox(SANDBOX, wrapped({ createTarget: neverReuse, getNotificationPreferences: leak }));
    run = await runLogged(broken, "broken", [
      join(WORKFLOWS_DIR, "company-target.arazzo.yaml"),
      join(WORKFLOWS_DIR, "preferences.arazzo.yaml"),
    ]);
  });
  afterAll(async () => broken?.close());

  it("a company Target that is not reused: company-target-reuse fails at createAgain (202, not 200)", () => {
    const { code, log, output } = run;
    expect(code).not.toBe(0);
    // A failed run keeps Respect's log (where the failing check is), then the verdict.
    const summary = summarize({ code, output }, broken.baseUrl);
    expect(summary.startsWith(output.trimEnd())).toBe(true);
    expect(summary).toMatch(/^✘ company-target\.arazzo\.yaml: Workflows: \d+ passed, 1 failed/m);
    const [reuse, afterFailure] = workflowsIn(log, "company-target.arazzo.yaml");
    expect(reuse).toMatchObject({ workflowId: "company-target-reuse", status: "error" });
    expect(failedSteps(reuse!)).toEqual([
      expect.objectContaining({
        stepId: "createAgain",
        statusCode: 202,
        failed: expect.arrayContaining(["$statusCode == 200"]),
      }),
    ]);
    expect(afterFailure).toMatchObject({ workflowId: "company-target-after-failure", status: "success" });
  });

  it("a preferences read that returns the webhook secret: webhook-secret-never-returned fails at readPreferences", () => {
    const { code, log } = run;
    expect(code).not.toBe(0);
    const [workflow] = workflowsIn(log, "preferences.arazzo.yaml");
    expect(failedSteps(workflow!)).toEqual([
      expect.objectContaining({
        stepId: "readPreferences",
        failed: expect.arrayContaining([expect.stringContaining("!@.data.webhook_secret")]),
      }),
    ]);
  });
});

describe("redocly lint of the workflow files", () => {
  const redocly = join(WORKFLOWS_DIR, "../../node_modules/.bin/redocly");
  // One redocly process lints the real files and the broken copy together (each start costs seconds);
  // every file's problems are read from its own section of the stylish output.
  let output = "";
  let status: number | null = null;
  let real: string[] = [];
  let broken = "";
  /** The problem lines redocly printed between "validating <file>..." and "<file>: validated in". */
  const problemsOf = (file: string): string[] | undefined => {
    const lines = output.split("\n");
    const shown = relative(process.cwd(), file);
    const from = lines.indexOf(`validating ${shown}...`);
    const to = lines.findIndex((line, i) => i > from && line.startsWith(`${shown}: validated in`));
    if (from < 0 || to < 0) return undefined;
    return lines.slice(from + 1, to).filter((line) => /^\s+\d+:\d+\s+(error|warning)\s/.test(line));
  };

  beforeAll(() => {
    real = [...workflowFiles(), ...workflowFiles(join(WORKFLOWS_DIR, "parts"))];
    const source = readFileSync(join(WORKFLOWS_DIR, "lists.arazzo.yaml"), "utf8").replace(
      "../../generated/openapi.json",
      join(WORKFLOWS_DIR, "../../generated/openapi.json"),
    );
    broken = join(tmp, "broken.arazzo.yaml");
    writeFileSync(
      broken,
      source.replace("value: $steps.createList.outputs.listId", "value: $steps.createList.outputs.listUuid"),
    );
    // stdout and stderr into one file, in the order redocly wrote them: a file's header and its problems go to different streams.
    const log = join(tmp, "lint.log");
    const fd = openSync(log, "w");
    try {
      const run = spawnSync(redocly, ["lint", ...real, broken, "--format", "stylish"], {
        stdio: ["ignore", fd, fd],
        env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
      });
      output = readFileSync(log, "utf8");
      status = run.status;
    } finally {
      closeSync(fd);
    }
  });

  it("accepts every workflow file with no error and no warning", () => {
    expect(status, output).toBe(0);
    expect(real.length).toBeGreaterThan(1);
    for (const file of real) expect(problemsOf(file), file).toEqual([]);
  });

  it("flags a step that reads an output no step defines (a warning, which npm run lint counts as a failure)", () => {
    expect(output).toMatch(/You have 1 warning/);
    const problems = problemsOf(broken);
    expect(problems).toHaveLength(1);
    expect(problems?.[0]).toContain('Output key "listUuid" is not defined in step "createList"');
  });
});

describe("npm run workflows arguments", () => {
  const env = { TALENT_GRAPH_API_KEY: "tgsb_acme_secret" };
  it("takes --server and --json-output, the key from TALENT_GRAPH_API_KEY or --key-env, and knows --help", () => {
    expect(parseWorkflowsArgs(["--server", "http://127.0.0.1:4011/v1/"], env)).toEqual({
      server: "http://127.0.0.1:4011/v1",
      key: "tgsb_acme_secret",
      keySource: "TALENT_GRAPH_API_KEY",
    });
    expect(
      parseWorkflowsArgs(["--key-env", "K", "--server", "https://api.example/v1", "--json-output", "o.json"], {
        K: "k",
      }),
    ).toEqual({ server: "https://api.example/v1", key: "k", keySource: "K", jsonOutput: "o.json" });
    let help = "";
    expect(parseWorkflowsArgs(["--help"], env, (text) => (help += text))).toBeUndefined();
    expect(help).toBe(USAGE);
    expect(USAGE).toContain("TALENT_GRAPH_API_KEY=<key> npm run workflows -- --server");
    expect(USAGE).not.toContain("--key <");
  });

  it.each([
    [["--server", "http://x/v1", "--loud"], "unknown argument --loud"],
    [["--server", "http://x/v1", "--key", "tgsb_acme_secret"], "--key is refused, because a key on the command line"],
    [["--server", "http://x/v1", "--key=tgsb_acme_secret"], "TALENT_GRAPH_API_KEY (or name another variable"],
    [[], "--server <base-url> is required"],
    [["--server", "x/v1"], "--server must be an http(s) URL, and x/v1 is not one."],
    [["--server"], "--server needs a base-url (--server <base-url>)"],
  ])("rejects %j naming the problem, not the key", (argv, message) => {
    expect(() => parseWorkflowsArgs(argv, env)).toThrow(UsageError);
    expect(() => parseWorkflowsArgs(argv, env)).toThrow(message);
    try {
      parseWorkflowsArgs(argv, env);
    } catch (error) {
      expect((error as Error).message).not.toContain("tgsb_acme_secret");
      expect((error as Error).message).toContain("(--help lists the options)");
      expect((error as Error).message).not.toContain("Usage:");
    }
  });

  it("asks for the key's variable when it is unset", () => {
    expect(() => parseWorkflowsArgs(["--server", "http://x/v1"], {})).toThrow(
      "the environment variable TALENT_GRAPH_API_KEY is not set; put the key of the organization to run as in it.",
    );
  });
});
