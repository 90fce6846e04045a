/**
 * Prism's own validating proxy (the `prism proxy --errors` command of @stoplight/prism-cli, a child process:
 * Prism is what is tested) in front of the sandbox started in this process on 127.0.0.1. It forwards the
 * requests the reference accepts and the spec used to refuse (spec/DECISIONS.md 10, 20, 23, 29, 34), and a
 * replay covering every operation of the spec draws no response violation from it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, loadSpec, operationKey, OPERATIONS } from "../../contract-core/index.js";
import { KEYS } from "../sandbox/contract/auth.js";
import { fixtureGraphInput } from "../sandbox/data/fixture.js";
import { startSandbox, type RunningSandbox } from "../sandbox/hosts/node/server.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PRISM = `${ROOT}node_modules/.bin/prism`;
const BUNDLE = `${ROOT}generated/openapi.json`;
const KEY = KEYS[0]!.key;

let sandbox: RunningSandbox;
let prism: ChildProcess;
let prismBase = "";
let prismOutput = "";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    graph: fixtureGraphInput(),
    host: "127.0.0.1",
    port: 0,
    rateLimit: false,
    jobSpeed: 0,
  });
  const port = await freePort();
  prism = spawn(PRISM, ["proxy", BUNDLE, sandbox.baseUrl, "--errors", "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", NODE_ENV: "" },
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      prismOutput += chunk.toString();
      if (/Prism is listening/.test(prismOutput)) resolve();
    };
    prism.stdout!.on("data", onData);
    prism.stderr!.on("data", onData);
    prism.once("exit", (code) => reject(new Error(`prism exited with ${code}: ${prismOutput}`)));
  });
  await ready;
  // Prism serves the spec's paths at its root and forwards them under the upstream's /v1.
  prismBase = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once("exit", resolve));
    prism.kill("SIGTERM");
    await exited;
  }
  await sandbox?.close();
});

interface Sent {
  status: number;
  body: any;
  problem: string | undefined;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  const res = await fetch(prismBase + path, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text === "" ? null : JSON.parse(text);
  const problem = res.headers.get("content-type")?.includes("problem+json") ? String(parsed?.type) : undefined;
  return { status: res.status, body: parsed, problem };
}

const padded = `  ${"n".repeat(80)}  `;

describe("Prism's validating proxy forwards what the reference accepts", () => {
  let target = "";
  beforeAll(async () => {
    target = (await send("POST", "/targets", { input: "Northwind Labs" })).body.data.id;
  });

  const cases: [name: string, request: () => [string, string, unknown?, Record<string, string>?]][] = [
    ["getAccount, non-UUID org header", () => ["GET", "/me", undefined, { "x-service-org-id": "acme" }]],
    ["searchPeople, non-UUID org header", () => ["GET", "/people?limit=2", undefined, { "x-service-org-id": "acme" }]],
    ["listLists, non-UUID org header", () => ["GET", "/lists", undefined, { "x-service-org-id": "acme" }]],
    [
      "getNotificationPreferences, non-UUID org header",
      () => ["GET", "/signals/preferences", undefined, { "x-service-org-id": "acme" }],
    ],
    ["search offset above int32", () => ["GET", "/people?offset=3000000000"]],
    ["min_company_months above int32", () => ["GET", "/people?company=northwind&min_company_months=3000000000"]],
    ["min_role_months above int32", () => ["GET", "/people?role_family=engineering&min_role_months=3000000000"]],
    ["member limit above int32", () => ["GET", `/targets/${target}/members?limit=3000000000`]],
    ["member offset above int32", () => ["GET", `/targets/${target}/members?offset=3000000000`]],
    ["saved-query name, 80 characters plus spaces", () => ["POST", "/queries", { name: padded, query: {} }]],
    ["List name, 80 characters plus spaces", () => ["POST", "/lists", { name: padded }]],
    [
      "Slack channel values longer than stored",
      () => [
        "PUT",
        "/signals/preferences",
        { slack_channel_id: ` ${"C".repeat(64)} `, slack_channel_name: "n".repeat(90) },
      ],
    ],
    ["member status=pending", () => ["GET", `/targets/${target}/members?status=pending`]],
    [
      "member stint and depth outside the documented set",
      () => ["GET", `/targets/${target}/members?stint=former&depth=deep`],
    ],
    [
      "first_seen_after without an offset",
      () => ["GET", `/targets/${target}/members?first_seen_after=2026-01-01T00:00:00`],
    ],
  ];

  it.each(cases)("%s", async (_name, request) => {
    const [method, path, body, headers] = request();
    const answer = await send(method, path, body, headers);
    expect(answer.problem, JSON.stringify(answer.body)).toBeUndefined();
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });
});

describe("a replay over every operation draws no response violation", () => {
  it("every answer is the sandbox's, none a Prism problem", async () => {
    const seen = new Map<string, number>();
    const violations: string[] = [];
    const run = async (key: string, method: string, path: string, body?: unknown): Promise<any> => {
      const answer = await send(method, path, body);
      seen.set(key, answer.status);
      if (answer.problem !== undefined)
        violations.push(`${key} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    await run("GET /me", "GET", "/me");
    const people = await run("GET /people", "GET", "/people?company=northwind&limit=5");
    const slug = people.data[0].slug as string;
    const url = people.data[0].network_url as string;
    await run("GET /people/{slug}", "GET", `/people/${slug}?include=coworkers,similar`);
    await run("GET /people/{slug}/coworkers", "GET", `/people/${slug}/coworkers`);
    await run("GET /people/{slug}/similar", "GET", `/people/${slug}/similar`);
    await run("GET /companies", "GET", "/companies");
    await run("GET /companies/{key}", "GET", "/companies/northwind");
    await run("GET /suggest", "GET", "/suggest?q=cloud");
    const query = await run("POST /queries", "POST", "/queries", {
      name: "Northwind",
      query: { company: "northwind" },
    });
    await run("GET /queries", "GET", "/queries");
    await run("GET /queries/{id}", "GET", `/queries/${query.data.id}`);
    await run("GET /lists", "GET", "/lists");
    const list = await run("POST /lists", "POST", "/lists", { name: "Replay", description: "Prism replay" });
    await run("GET /lists/{id}", "GET", `/lists/${list.data.id}`);
    const added = await run("POST /lists/{id}/members", "POST", `/lists/${list.data.id}/members`, { urls: [url] });
    const membership = added.data.members[0].id as string;
    await run("PATCH /lists/{id}/members/{membershipId}", "PATCH", `/lists/${list.data.id}/members/${membership}`, {
      stage: "screen",
    });
    await run("DELETE /lists/{id}", "DELETE", `/lists/${list.data.id}`);
    const target = await run("POST /targets", "POST", "/targets", { input: "Northwind Labs", kind: "company" });
    const id = target.data.id as string;
    await run("GET /targets", "GET", "/targets");
    await run("GET /targets/{id}", "GET", `/targets/${id}`);
    await run("PATCH /targets/{id}", "PATCH", `/targets/${id}`, { auto_admit: false });
    await run("POST /targets/{id}/retry", "POST", `/targets/${id}/retry`);
    await run("GET /targets/{id}/members", "GET", `/targets/${id}/members?limit=5`);
    await run("POST /targets/{id}/members", "POST", `/targets/${id}/members?status=proposed`, {
      status: "excluded",
      apply: "filter",
    });
    await run("GET /events", "GET", "/events?since=30d&limit=5");
    await run("GET /signals/preferences", "GET", "/signals/preferences");
    await run("PUT /signals/preferences", "PUT", "/signals/preferences", {
      fields: ["exploring", "headline"],
      email_enabled: true,
      emails: ["Lead@Example.com"],
    });
    await run("POST /signals/test", "POST", "/signals/test");
    await run("DELETE /targets/{id}", "DELETE", `/targets/${id}`);
    await run("GET /people (invalid)", "GET", "/people?min_role_months=3");

    const all = listOperations(loadSpec(BUNDLE)).map((o) => operationKey(o.method, o.path));
    expect(all).toHaveLength(OPERATIONS.length);
    expect(
      all.filter((k) => !seen.has(k)),
      "operations of the spec this replay does not call yet: add a call",
    ).toEqual([]);
    expect(violations).toEqual([]);
    // Answered by the sandbox, not refused: the invalid search is the sandbox's documented 400.
    expect([...seen].filter(([k, status]) => !k.includes("invalid") && status >= 300)).toEqual([]);
    expect(seen.get("GET /people (invalid)")).toBe(400);
  });
});
