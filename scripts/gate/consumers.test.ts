// The gate's consumers check on scratch pull requests: a temporary git repository holding the project's spec,
// its marker file and the example app's committed consumer contract (consumers/examples-msw.json); each test
// changes the spec as a pull request would and runs the gate's breaking and consumers checks in-process. One
// real process: `npm run gate -- --consumers <file>`, the standalone check the command line is.
import { execFile, spawnSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSUMER_CONTRACT_FORMAT, type ConsumerContract } from "../../contract-core/consumer-contract.js";
import { REPO_ROOT } from "../../contract-core/index.js";
import { checkConsumerContract } from "../consumers/check.js";
import { parseArgs, runGate } from "./cli.js";
import { GIT_ENV } from "./git-test-env.js";
import { consumersCheck } from "./consumers-check.js";

const run = promisify(execFile);
const PERSON = "spec/components/schemas/Person.yaml";
const ORBIT = "spec/components/schemas/CompanyOrbit.yaml";
/** `headline` out of Person (required and properties): the example app received it from getPerson. */
const HEADLINE: [string, string][] = [
  ["    headline,\n", ""],
  ['  headline:\n    type: [string, "null"]\n    description: Profile headline.\n', ""],
];
/** `company.network_url` out of CompanyOrbit: no registered consumer called getCompanyOrbit. */
const ORBIT_URL: [string, string][] = [
  ["required: [key, name, network_url, current_count", "required: [key, name, current_count"],
  ['      network_url:\n        type: [string, "null"]\n        description: Company URL.\n', ""],
];

describe("the consumers check on a scratch pull request", () => {
  let dir = "";
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
  const edit = async (file: string, edits: [string, string][]) => {
    let text = await readFile(join(dir, file), "utf8");
    for (const [from, to] of edits) {
      if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
      text = text.replace(from, to);
    }
    await writeFile(join(dir, file), text);
  };
  const gate = () => runGate({ cwd: dir, base: "HEAD", only: ["breaking", "consumers"], log: () => undefined });
  const step = (result: Awaited<ReturnType<typeof gate>>, name: string) => result.steps.find((s) => s.name === name)!;
  const marker = (reason: string) =>
    `- \`response-property-removed\` \`*\` \`#/components/schemas/Person/properties/headline\` ${reason}\n`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gate-consumers-"));
    await cp(join(REPO_ROOT, "spec"), join(dir, "spec"), { recursive: true });
    await cp(join(REPO_ROOT, "consumers"), join(dir, "consumers"), { recursive: true });
    await cp(join(REPO_ROOT, "redocly.yaml"), join(dir, "redocly.yaml"));
    const markers = await readFile(join(dir, "spec", "BREAKING.md"), "utf8");
    await writeFile(
      join(dir, "spec", "BREAKING.md"),
      `${markers.slice(0, markers.search(/^## Entries$/m))}## Entries\n\n`,
    );
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-q", "-m", "base");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("the committed contract passes against the unchanged spec", async () => {
    const outcome = await consumersCheck(dir);
    expect(outcome).toMatchObject({ status: "pass", problems: [] });
    expect(outcome.note).toMatch(/^1 consumer contract, \d+ interactions: none affected$/);
  });

  it("fails a removed field the example app received, naming the app, the operation and the field", async () => {
    await edit(PERSON, HEADLINE);
    try {
      const result = await gate();
      expect(result.ok).toBe(false);
      expect(step(result, "breaking").status).toBe("fail"); // the rules judge as before
      const consumers = step(result, "consumers");
      expect(consumers.status).toBe("fail");
      expect(consumers.details).toEqual([
        "examples-msw: getPerson (GET /people/{slug}) 200, response /data/headline no longer in the documented answer",
      ]);
      expect(result.markdown).toContain("### ✘ Consumers affected");
      expect(result.markdown).toContain(
        "| examples-msw | getPerson (GET /people/{slug}) | 200 | response /data/headline | no longer in the documented answer | no |",
      );

      // The reviewed marker accepts the change for the rules; for the consumer only when it names it.
      await writeFile(
        join(dir, "spec", "BREAKING.md"),
        `${await readFile(join(dir, "spec", "BREAKING.md"), "utf8")}${marker("moves to v2 (consumers: other-app)")}`,
      );
      const unnamed = await gate();
      expect([step(unnamed, "breaking").status, step(unnamed, "consumers").status]).toEqual(["pass", "fail"]);
      await git("checkout", "--", "spec/BREAKING.md");
      await writeFile(
        join(dir, "spec", "BREAKING.md"),
        `${await readFile(join(dir, "spec", "BREAKING.md"), "utf8")}${marker("moves to v2 (consumers: other-app, examples-msw)")}`,
      );
      const named = await gate();
      expect([step(named, "breaking").status, step(named, "consumers").status]).toEqual(["pass", "pass"]);
      expect(named.markdown).toMatch(
        /\| response \/data\/headline \| no longer in the documented answer \| spec\/BREAKING\.md line \d+ \|/,
      );
    } finally {
      await git("checkout", "--", "spec");
    }
  });

  it("passes the consumers section when the removed field reached no consumer; the rules still fail it", async () => {
    await edit(ORBIT, ORBIT_URL);
    try {
      const result = await gate();
      expect(step(result, "breaking").status).toBe("fail");
      expect(step(result, "consumers")).toMatchObject({
        status: "pass",
        note: expect.stringContaining("none affected"),
      });
      expect(result.ok).toBe(false);
    } finally {
      await git("checkout", "--", "spec");
    }
  });

  it("fails closed on a contract it cannot read", async () => {
    const file = join(dir, "broken.json");
    await writeFile(file, JSON.stringify({ format: "pact/3" }));
    expect(await consumersCheck(dir, { files: [file] })).toMatchObject({
      status: "fail",
      note: 'broken.json: format must be "talent-graph-consumer-contract/1", got "pact/3"',
    });
    expect((await consumersCheck(dir, { files: [join(dir, "none.json")] })).note).toMatch(/^cannot read none\.json/);
  });
});

/** A scratch consumer's contract: one getPerson interaction, with fields it received. */
function scratchContract(response: Record<string, string>, status = 200): ConsumerContract {
  return {
    format: CONSUMER_CONTRACT_FORMAT,
    consumer: { name: "scratch-app", version: "0.0.1" },
    interactions: [
      {
        operationId: "getPerson",
        operation: "GET /people/{slug}",
        request: { path: ["slug"], query: [], header: [], body: null },
        status,
        response,
      },
    ],
  };
}

describe("checkConsumerContract against the project's spec", () => {
  let doc: Record<string, unknown> = {};
  beforeAll(async () => {
    doc = JSON.parse(await readFile(join(REPO_ROOT, "generated", "openapi.json"), "utf8"));
  });
  const problems = (c: ConsumerContract) => checkConsumerContract(c, doc).map((p) => `${p.field}: ${p.message}`);

  it("takes present fields of compatible types (an integer where a number is documented), a status by its range", () => {
    expect(
      problems(
        scratchContract({ "": "object", "/data/full_name": "null|string", "/data/positions/*/title": "null|string" }),
      ),
    ).toEqual([]);
    expect(problems(scratchContract({ "/data/codehost/signals/anything": "integer" }))).toEqual([]); // a shape not shown
  });

  it("names a missing field once (not its children), a narrowed type, an undocumented status, a gone operation", () => {
    expect(problems(scratchContract({ "/data/nope": "object", "/data/nope/deeper": "string" }))).toEqual([
      "response /data/nope: no longer in the documented answer",
    ]);
    expect(problems(scratchContract({ "/data/network_url": "null|string" }))).toEqual([
      "response /data/network_url: was null or string, the spec now says string",
    ]);
    expect(problems(scratchContract({}, 418))).toEqual([": status 418 is no longer documented"]);
    const gone = scratchContract({});
    gone.interactions[0]!.operationId = "getPersona";
    gone.interactions[0]!.operation = "GET /persona/{slug}";
    expect(problems(gone)).toEqual([": the operation is no longer in the spec"]);
  });

  it("checks a 2xx request: parameters still declared, required ones sent, body fields accepted and required", () => {
    const request = (
      edit: (r: ConsumerContract["interactions"][number]["request"]) => void,
      operation = "createList",
    ) => {
      const c = scratchContract({}, 201);
      Object.assign(c.interactions[0]!, { operationId: operation, operation: "POST /lists" });
      c.interactions[0]!.request = { path: [], query: [], header: [], body: { "": "object", "/name": "string" } };
      edit(c.interactions[0]!.request);
      return problems(c);
    };
    expect(request(() => undefined)).toEqual([]);
    expect(request((r) => (r.query = ["page"]))).toEqual(["query page: no longer a parameter of the operation"]);
    expect(request((r) => (r.body = { "": "object" }))).toEqual(["request body /name: required now and not sent"]);
    expect(request((r) => (r.body = { "": "object", "/name": "integer" }))).toEqual([
      "request body /name: was integer, the spec now says string",
    ]);
    expect(request((r) => (r.body = null))).toEqual(["request body: required now and not sent"]);
    const person = scratchContract({});
    person.interactions[0]!.request.path = [];
    expect(problems(person)).toEqual(["path slug: required now and not sent"]);
  });
});

describe("npm run gate -- --consumers <file>", () => {
  it("parses --consumers as the consumers check alone, or beside the checks --only names", () => {
    expect(parseArgs(["--consumers", "c.json"])).toEqual({ consumers: ["c.json"], only: ["consumers"] });
    expect(parseArgs(["--consumers", "c.json", "--only", "breaking,consumers"])).toEqual({
      consumers: ["c.json"],
      only: ["breaking", "consumers"],
    });
    expect(() => parseArgs(["--consumers", ""])).toThrow("--consumers needs a consumer contract file");
  });

  it("checks a scratch consumer's contract on its own: exit 1 and the section when it is broken", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "scratch-consumer-"));
    try {
      const file = join(scratch, "scratch-app.json");
      await writeFile(
        file,
        JSON.stringify(scratchContract({ "/data/full_name": "null|string", "/data/title": "string" })),
      );
      const out = spawnSync("npm", ["run", "--silent", "gate", "--", "--consumers", file], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
      });
      expect(out.status, out.stderr).toBe(1);
      expect(out.stdout).toContain("### ✘ Consumers affected");
      expect(out.stdout).toContain(
        "| scratch-app | getPerson (GET /people/{slug}) | 200 | response /data/title | no longer in the documented answer | no |",
      );
      expect(out.stdout).toContain("| – Tests | not selected (--only) | — |");
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
