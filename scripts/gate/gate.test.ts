// The gate: markers and summary in-process; the breaking check against a temporary git repository (git is what
// it reads); the command runner and the command line each through one real process.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import {
  DEFAULT_SPEC_PATH,
  REPO_ROOT,
  RUN_TYPESCRIPT,
  UsageError,
  createMarker,
  loadSpec,
  type Exchange,
  type Mark,
} from "../../contract-core/index.js";
import { collectRecordings } from "../coverage/evidence.js";
import { EVIDENCE, buildReport, type Evidence, type SourceInfo } from "../coverage/report.js";
import type { Change } from "../breaking/breaking.js";
import { breakingCheck, resolveBase } from "./breaking-check.js";
import { applyMarkers, isMajorBump, markerLine, markerLines, markerMatches, parseMarkers } from "./breaking-markers.js";
import { failureDetails, findings } from "./checks.js";
import { judgeCoverage } from "./coverage-check.js";
import { parseArgs, runGate } from "./cli.js";
import { GIT_ENV } from "./git-test-env.js";
import { renderSummary } from "./summary.js";
import { traceCheck } from "./trace-check.js";

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const SPLIT = join(REPO_ROOT, "scripts", "breaking", "fixtures", "ok-split-root-description-changed");
const PERSON = "spec/base/components/schemas/Person.yaml";

/** The breaking change the tests make: `headline` removed from GET /people/{slug}'s Person. */
const HEADLINE_REMOVED: Change = {
  rule: "response-property-removed",
  breaking: true,
  operation: "GET /people/{slug}",
  operationId: "getPerson",
  location: "/responses/200/content/application~1json/schema/properties/data/properties/headline",
  message: "",
};
const HEADLINE = `  headline:
    type: [ string, "null" ]
    description: Profile headline as shown on the network
`;

describe("breaking check in a temporary git repository", () => {
  let dir = "";
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(dir, file), "utf8");
    if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
    await writeFile(join(dir, file), text.replace(from, to));
  };
  const commit = async (message: string) => {
    await git("add", "-A");
    await git("commit", "-q", "-m", message);
  };
  const check = async (ref: string | undefined) => breakingCheck({ cwd: dir, base: await resolveBase(dir, ref) });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gate-repo-"));
    await cp(join(SPLIT, "base.yaml"), join(dir, "spec", "openapi.yaml"));
    await cp(join(SPLIT, "base"), join(dir, "spec", "base"), { recursive: true });
    // The project's marker file without its entries: each test adds the ones it needs.
    const markers = await readFile(join(REPO_ROOT, "spec", "BREAKING.md"), "utf8");
    await writeFile(
      join(dir, "spec", "BREAKING.md"),
      `${markers.slice(0, markers.search(/^## Entries$/m))}## Entries\n\n_None._\n`,
    );
    await git("init", "-q", "-b", "main");
    await commit("initial spec");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("without history skips with a note; with a parent, the default base is HEAD~1, else the merge base with origin/main", async () => {
    expect(await check(undefined)).toMatchObject({ status: "skip", note: expect.stringContaining("no parent commit") });
    await edit(PERSON, "description: Profile headline", "description: Profile headline as shown on the network");
    await commit("harmless: reword a description");
    const [first, head1] = [await git("rev-list", "--max-parents=0", "HEAD"), await git("rev-parse", "HEAD~1")];
    expect(await resolveBase(dir)).toEqual({ label: "HEAD~1", sha: head1 });
    await git("update-ref", "refs/remotes/origin/main", first);
    expect(await resolveBase(dir)).toEqual({ label: "merge base with origin/main", sha: first });
    await git("update-ref", "-d", "refs/remotes/origin/main");
  });

  it("passes a harmless commit and lists it as non-breaking", async () => {
    const outcome = await check("HEAD~1");
    expect(outcome).toMatchObject({ status: "pass", blocking: [] });
    expect(outcome.note).toContain("0 breaking, 1 non-breaking change(s) vs HEAD~1");
    expect(renderSummary([], outcome, 0)).toContain("Non-breaking changes (1)");
  });

  // Each judgement bundles both sides of the diff: one test each, over the one breaking commit.
  describe("a deleted response property", () => {
    const entry = markerLine(HEADLINE_REMOVED).replace("<why this is intended, PR link>", "moves to v2 (PR #1)");
    const nearMiss = entry.replace("/properties/headline`", "/properties/full_name`");
    beforeAll(async () => {
      await edit(PERSON, HEADLINE, "");
      await commit("breaking: drop headline");
    });

    it("fails without an entry", async () => {
      const failed = await check("HEAD~1");
      expect(failed.status).toBe("fail");
      expect(failed.blocking.map((c) => c.message)).toContain('response property "headline" removed');
    });

    it("passes with its BREAKING.md entry", async () => {
      await edit("spec/BREAKING.md", "_None._", entry);
      const accepted = await check("HEAD~1");
      await edit("spec/BREAKING.md", entry, "_None._");
      expect(accepted).toMatchObject({ status: "pass", blocking: [] });
      expect(accepted.accepted[0]?.by).toMatch(/^spec\/BREAKING\.md line \d+$/);
    });

    it("fails with a near-miss entry (another property), which is not reported", async () => {
      await edit("spec/BREAKING.md", "_None._", nearMiss);
      const missed = await check("HEAD~1");
      await edit("spec/BREAKING.md", nearMiss, "_None._");
      expect(missed.status).toBe("fail");
      // The entry that matches nothing is not reported: the unmarked change is the failure.
      expect(missed.notes).toEqual([]);
    });

    it("passes with a major version bump", async () => {
      await edit("spec/openapi.yaml", "version: 1.0.0", "version: 2.0.0"); // uncommitted: the working tree counts
      const bumped = await check("HEAD~1");
      await git("checkout", "--", "spec/openapi.yaml");
      expect(bumped.status).toBe("pass");
      expect(bumped.accepted.map((a) => a.by)).toContain("major version bump");
    });
  });

  it("fails on an unreadable working-tree spec and on a base that does not resolve", async () => {
    await edit(PERSON, "type: object", "type: [object\n");
    const unreadable = await check("HEAD");
    await git("checkout", "--", PERSON);
    expect(unreadable).toMatchObject({ status: "fail", note: expect.stringContaining("cannot bundle") });
    expect(await check("no-such-ref")).toMatchObject({
      status: "fail",
      note: expect.stringContaining("does not resolve"),
    });
  });

  it("fails a renamed path parameter (/people/{slug} -> /people/{person_id}), same URL on the wire", async () => {
    await edit("spec/openapi.yaml", "  /people/{slug}:", "  /people/{person_id}:");
    await edit("spec/base/paths/people_{slug}.yaml", "    - name: slug", "    - name: person_id");
    const outcome = await check("HEAD");
    await git("checkout", "--", ".");
    expect(outcome.status).toBe("fail");
    const summary = renderSummary([], outcome, 0);
    expect(summary).toContain('path parameter renamed from "slug" to "person_id"');
    expect(summary).toContain("- `parameter-renamed` `getPerson` `/parameters/path/person_id`");
  });

  it("the command line: exit 1 on the breaking commit, the summary on stdout and in $GITHUB_STEP_SUMMARY", async () => {
    const summaryFile = join(dir, "step-summary.md");
    const child = await run(
      process.execPath,
      [...RUN_TYPESCRIPT, join(HERE, "cli.ts"), "--only", "breaking", "--base", "HEAD~2"],
      { cwd: dir, env: { ...process.env, GITHUB_STEP_SUMMARY: summaryFile } },
    ).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(child.code).toBe(1);
    expect(child.stdout).toContain("## Contract gate: ✘ failed");
    expect(child.stdout).toContain("| – Lint | not selected (--only) | — |");
    expect(child.stdout).toContain('response property "headline" removed');
    expect(child.stdout).toContain("- `response-property-removed` `getPerson`");
    expect(await readFile(summaryFile, "utf8")).toContain('response property "headline" removed');
  });
});

describe("trace check against a base commit in a temporary git repository", () => {
  // The repository's spec/ and bundle, committed: the base's bundle and trace file are read from git objects.
  it("lists the statements whose spec elements changed since the base, and takes the trace entries that changed as touched", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gate-trace-repo-"));
    const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
    const edit = async (file: string, from: string, to: string) => {
      const text = await readFile(join(dir, file), "utf8");
      if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
      await writeFile(join(dir, file), text.replace(from, to));
    };
    try {
      await cp(join(REPO_ROOT, "spec"), join(dir, "spec"), { recursive: true });
      await cp(DEFAULT_SPEC_PATH, join(dir, "generated", "openapi.json"));
      // Two of the trace's entries; the traced one's check is a scratch test file (the real ones are not here).
      const { statements } = parse(await readFile(join(dir, "spec", "trace.yaml"), "utf8")) as {
        statements: { id: string; checks?: string[] }[];
      };
      const kept = ["introduction/the-service-is-called-f8d0f4", "post-targets-create-target/input-b71439"];
      const entries = statements
        .filter((e) => kept.includes(e.id))
        .map((e) => (e.checks ? { ...e, checks: ["checks.test.ts > the input limit"] } : e));
      expect(entries.map((e) => e.id)).toEqual(kept);
      await writeFile(join(dir, "spec", "trace.yaml"), stringify({ statements: entries }));
      await writeFile(join(dir, "checks.test.ts"), 'it("the input limit", () => {});\n');
      await git("init", "-q", "-b", "main");
      await git("add", "-A");
      await git("commit", "-q", "-m", "the contract");
      const base = await resolveBase(dir, "HEAD");
      const unchanged = await traceCheck(dir, base, { prove: false });
      expect(unchanged.note).toMatch(/; 0 to re-read; prove: no entry touched$/);
      // One entry's reason reworded: that entry is touched, no statement's spec element changed.
      await edit("spec/trace.yaml", "a naming convention of the document", "a naming convention");
      expect((await traceCheck(dir, base, { prove: false })).note).toMatch(/; 0 to re-read; prove: not run$/);
      await edit("spec/components/schemas/CreateTargetRequest.yaml", "maxLength: 400", "maxLength: 500");
      const changed = await traceCheck(dir, base, { prove: false });
      expect(changed.note).toMatch(/; [1-9]\d* to re-read; prove: not run$/);
      expect(changed.markdown).toContain("`post-targets-create-target/input-b71439`");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("command checks", () => {
  it("runs every check even when one fails, says what each found and prints each output once", async () => {
    const node = (code: string) => [process.execPath, "-e", code];
    let log = "";
    const result = await runGate({
      only: ["lint", "drift", "typecheck", "tests"],
      log: (t) => void (log += t),
      commands: {
        lint: node("console.log('✔ lint: 0 problems')"),
        drift: node("console.log('✔ generated/ is up to date')"),
        typecheck: node("console.log('a.ts(1,7): error TS2322: nope.'); process.exit(2)"),
        tests: node("console.log(' Test Files  3 passed (3)\\n      Tests  12 passed (12)')"),
      },
    });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => `${s.name}:${s.status}`)).toEqual([
      "lint:pass",
      "drift:pass",
      "breaking:skip",
      "release:skip",
      "consumers:skip",
      "typecheck:fail",
      "tests:pass",
      "coverage:skip",
      "trace:skip",
    ]);
    expect(result.markdown).toContain("| ✔ Lint | ✔ lint: 0 problems |");
    expect(result.markdown).toContain("| ✘ Typecheck | 1 type error (exit code 2) |");
    expect(result.markdown).toContain("| ✔ Tests | tests: 12 passed (12); files: 3 passed (3) |");
    // The output is printed once, on the console; the summary names the failure with file and line.
    expect(log.split("error TS2322").length - 1).toBe(1);
    expect(result.markdown).toContain("### ✘ Typecheck\n\n- `a.ts:1` TS2322: nope.");
    expect(result.stepSummary).toContain("a.ts(1,7): error TS2322: nope.");
  });

  it("names what each kind of output found", () => {
    expect(findings("typecheck", "")).toBe("no type errors");
    expect(findings("typecheck", "a.ts(1,1): error TS1: x\nb.ts(2,2): error TS2: y\n")).toBe("2 type errors");
    expect(findings("tests", "no summary")).toBeUndefined();
    expect(findings("lint", "✔ redocly\n  a note\n✔ spectral\n")).toBe("2 steps passed");
    expect(findings("lint", "✔ redocly\n✘ prettier --check\nsrc/a.ts\n✘ eslint\n")).toBe(
      "✘ prettier --check; ✘ eslint",
    );
    expect(findings("drift", "✔ generated files are in sync\n")).toBe("✔ generated files are in sync");
  });

  it("names what failed: the first failed tests with their assertion, lint diagnostics with file and line", () => {
    const vitest = [
      " ❯ |default| contract-tests/contract.test.ts (3 tests | 1 failed) 7ms",
      "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯",
      "",
      " FAIL  |default| contract-tests/contract.test.ts > recordings/ > cover every operation and every documented status",
      " FAIL  |sandbox-msw| mocks/sandbox/areas/lists.test.ts > lists > creates one",
      "AssertionError: expected [ 'listLists 409' ] to deeply equal []",
      "",
      "- Expected",
      " ❯ contract-tests/contract.test.ts:44:21",
      "",
      " Test Files  1 failed (1)",
    ].join("\n");
    // npm run typecheck's house-rule hint leads the type errors it explains.
    const tsc = [
      "house rule (spec/DECISIONS.md 1: every key a resource names is required): a.ts:3 does not produce `color`",
      "",
      "a.ts(3,1): error TS2741: Property 'color' is missing in type '{}' but required in type 'List'.",
    ].join("\n");
    expect(failureDetails("typecheck", tsc)).toEqual([
      // Escaped like every other line of output (the file names come from the pull request).
      "house rule (spec/DECISIONS.md 1: every key a resource names is required): a.ts:3 does not produce \\`color\\`",
      "`a.ts:3` TS2741: Property 'color' is missing in type '{}' but required in type 'List'.",
    ]);
    // The assertion is output text, escaped for Markdown (scripts/escape/markdown.ts): `[` opens no link.
    expect(failureDetails("tests", vitest)).toEqual([
      "`contract-tests/contract.test.ts > recordings/ > cover every operation and every documented status`: AssertionError: expected \\[ 'listLists 409' ] to deeply equal \\[]",
      "`mocks/sandbox/areas/lists.test.ts > lists > creates one`: AssertionError: expected \\[ 'listLists 409' ] to deeply equal \\[]",
    ]);
    const lint = [
      "spec/openapi.yaml:",
      "  12:3  error    no-empty-servers  Servers must be present.",
      "✘ redocly lint spec/openapi.yaml and 7 Arazzo workflow files",
      "  error tg-operation-summary openapi.json:88 paths./lists.get: every operation needs a summary",
      "✘ spectral (bundle: spectral:oas + OWASP + house rules): 1 errors, 0 warnings",
      "[warn] scripts/gate/cli.ts",
      "[warn] Code style issues found in the above file. Run Prettier with --write to fix.",
      "✘ prettier --check (code, spec YAML, docs)",
      "/repo/scripts/x.ts",
      "  3:7  error  'a' is assigned a value but never used  @typescript-eslint/no-unused-vars",
      "",
      "✖ 1 problem (1 error, 0 warnings)",
      "✘ eslint (typescript-eslint, zero warnings)",
    ].join("\n");
    expect(failureDetails("lint", lint, "/repo")).toEqual([
      "`spec/openapi.yaml:12` error: no-empty-servers Servers must be present.",
      "`openapi.json:88` error tg-operation-summary: paths./lists.get: every operation needs a summary",
      "`scripts/gate/cli.ts`: not formatted as Prettier writes it (`npx prettier --write scripts/gate/cli.ts`)",
      // `@typescript-eslint` would mention a GitHub organization: the zero-width space defuses it.
      "`scripts/x.ts:3` error: 'a' is assigned a value but never used @&#8203;typescript-eslint/no-unused-vars",
    ]);
    expect(
      failureDetails("tests", Array.from({ length: 12 }, (_, i) => ` FAIL  t${i}\nError: e${i}`).join("\n")),
    ).toHaveLength(11);
  });
});

describe("markers", () => {
  const change: Change = { ...HEADLINE_REMOVED, component: "#/components/schemas/Person/properties/headline" };
  const file = (...lines: string[]) =>
    [
      "# Title",
      "",
      "```markdown",
      "- `a` `b` `/c` ignored example",
      "```",
      "",
      "## Entries",
      "",
      ...lines,
      "",
      "## Later",
      "- not an entry",
    ].join("\n");

  it("parses entries under ## Entries only, ignoring fenced examples", () => {
    const { entries, errors } = parseMarkers(file("- `response-property-removed` `getPerson` `/x` — reason here"));
    expect(errors).toEqual([]);
    expect(entries).toEqual([
      { line: 9, rule: "response-property-removed", operation: "getPerson", location: "/x", reason: "reason here" },
    ]);
  });

  it("rejects malformed entries and entries without a reason", () => {
    expect(parseMarkers(file("- `response-property-removed` `getPerson`")).errors[0]).toContain("line 9");
    expect(parseMarkers(file("- `response-property-removed` `getPerson` `not-a-pointer` reason")).errors).toHaveLength(
      1,
    );
    expect(parseMarkers(file("- `response-property-removed` `getPerson` `/x`")).errors[0]).toContain("needs a reason");
    expect(parseMarkers(file(markerLine(change))).errors[0]).toContain("replace the placeholder");
  });

  it("the shipped spec/BREAKING.md parses: every entry well-formed, with a reason", async () => {
    const { entries, errors } = parseMarkers(await readFile(join(REPO_ROOT, "spec", "BREAKING.md"), "utf8"));
    expect(errors).toEqual([]);
    for (const entry of entries) expect(entry.reason.length, entry.rule).toBeGreaterThan(20);
  });

  it("matches on rule + operation (operationId, METHOD /path or *) + exact location or component pointer", () => {
    const entry = (rule: string, operation: string, location: string) => ({
      line: 1,
      rule,
      operation,
      location,
      reason: "r",
    });
    expect(markerMatches(entry(change.rule, "getPerson", change.location), change)).toBe(true);
    expect(markerMatches(entry(change.rule, "GET /people/{id}", change.location), change)).toBe(true);
    expect(markerMatches(entry(change.rule, "*", "#/components/schemas/Person/properties/headline"), change)).toBe(
      true,
    );
    expect(markerMatches(entry("response-property-optional", "getPerson", change.location), change)).toBe(false);
    expect(markerMatches(entry(change.rule, "listEvents", change.location), change)).toBe(false);
    expect(markerMatches(entry(change.rule, "getPerson", "/responses/200"), change)).toBe(false);
    expect(markerMatches(entry(change.rule, "*", "#/components/schemas/Person"), change)).toBe(false);
  });

  it("suggests one `*` component entry for a component change seen in several operations, and each suggestion matches", () => {
    const elsewhere: Change = {
      ...change,
      operation: "GET /companies/{key}",
      operationId: "getCompanyOrbit",
      location: "/responses/200/x/properties/headline",
    };
    const single: Change = {
      ...change,
      rule: "response-status-removed",
      component: undefined,
      location: "/responses/404",
    };
    const lines = markerLines([change, elsewhere, single]);
    expect(lines).toEqual([
      "- `response-property-removed` `*` `#/components/schemas/Person/properties/headline` — <why this is intended, PR link>",
      "- `response-status-removed` `getPerson` `/responses/404` — <why this is intended, PR link>",
    ]);
    const { entries } = parseMarkers(["## Entries", ...lines.map((l) => l.replace(/<why.*>/, "intended"))].join("\n"));
    for (const c of [change, elsewhere, single]) expect(entries.some((e) => markerMatches(e, c))).toBe(true);
  });

  it("accepts a change by entry or by a major bump and blocks the rest", () => {
    const other: Change = {
      ...change,
      rule: "response-status-removed",
      component: undefined,
      location: "/responses/404",
    };
    const entry = { line: 3, rule: change.rule, operation: "getPerson", location: change.location, reason: "r" };
    const stale = { ...entry, line: 4, location: "/nowhere" };
    expect(applyMarkers([change, other], [entry, stale], false)).toEqual({
      accepted: [{ change, by: "spec/BREAKING.md line 3" }],
      blocking: [other],
    });
    const bump = applyMarkers([change, other], [], true);
    expect(bump.blocking).toEqual([]);
    expect(bump.accepted.map((a) => a.by)).toEqual(["major version bump", "major version bump"]);
  });

  it("a major bump is an increase of the first version number", () => {
    expect(isMajorBump("1.4.2", "2.0.0")).toBe(true);
    expect(isMajorBump("1.4.2", "1.5.0")).toBe(false);
    expect(isMajorBump("2.0.0", "1.0.0")).toBe(false);
    expect(isMajorBump(undefined, "2.0.0")).toBe(false);
    expect(isMajorBump("v1", "v3")).toBe(true);
  });
});

describe("arguments and summary", () => {
  it("parses --base and --only, rejecting the rest", () => {
    expect(parseArgs(["--base", "origin/main", "--only", "breaking,tests"])).toEqual({
      base: "origin/main",
      only: ["breaking", "tests"],
    });
    expect(parseArgs(["--base=HEAD~2"])).toEqual({ base: "HEAD~2" });
    let help = "";
    expect(parseArgs(["--help"], (t) => void (help += t))).toBeUndefined();
    expect(help).toMatch(/^Usage: npm run gate/);
    for (const [argv, message] of [
      [["--base"], "needs a git ref"],
      [["--only", "lint,nope"], "--only takes"],
      [["--all"], "unknown argument --all"],
      [["--no-optic"], "unknown argument --no-optic"],
    ] as const)
      expect(() => parseArgs([...argv])).toThrow(new RegExp(message.replace(/[-]/g, "\\-")));
    expect(() => parseArgs(["--what"])).toThrow(UsageError);
  });

  it("renders every check with its mark, what it found and its time", () => {
    const md = renderSummary(
      [
        { name: "lint", status: "pass", ms: 1234, note: "✔ 0 problems" },
        { name: "drift", status: "fail", ms: 10, note: "exit code 1", output: "generated/openapi.json differs" },
        { name: "breaking", status: "skip", ms: 0, note: "not selected (--only)" },
      ],
      undefined,
      2000,
    );
    expect(md).toContain("| ✔ Lint | ✔ 0 problems | 1.2 s |");
    expect(md).toContain("| ✘ Drift (generated files up to date) | exit code 1 | 0.0 s |");
    expect(md).toContain("| – Breaking changes | not selected (--only) | — |");
    expect(md).toContain("## Contract gate: ✘ failed");
    expect(md).not.toContain("generated/openapi.json differs");
  });
});

describe("coverage in the gate: a status added with no caused evidence", () => {
  const doc = loadSpec(DEFAULT_SPEC_PATH) as Record<string, any>;
  const SOURCES = Object.fromEntries(
    EVIDENCE.map((e) => [e, { collected: true, exchanges: 0, how: "test" }]),
  ) as Record<Evidence, SourceInfo>;
  // Whatever the spec and the recordings say of listLists 409 today: the base has no such status, no recording has it.
  const recordings = collectRecordings("/v1").exchanges!.filter(
    (e) => !(e.request.method === "GET" && e.request.url === "/v1/lists" && e.response.status === 409),
  );
  const marks = (marker: ReturnType<typeof createMarker>, exchanges: Exchange[]): Mark[] =>
    exchanges.map((e) => marker.mark(e)).filter((m): m is Mark => m !== null);
  const listLists = recordings.find(
    (e) => e.request.method === "GET" && e.request.url === "/v1/lists" && e.response.status === 400,
  )!;
  const conflict = (prefer?: string): Exchange => ({
    request: { ...listLists.request, headers: { authorization: "Bearer k", ...(prefer ? { prefer } : {}) } },
    response: { ...listLists.response, status: 409 },
  });

  it("fails a 409 on listLists that only Prefer: code= reaches, naming `listLists 409`; a recording makes it pass", () => {
    const baseDoc = structuredClone(doc);
    delete baseDoc.paths["/lists"].get.responses["409"];
    const baseMarker = createMarker(baseDoc);
    const base = buildReport("spec", baseMarker.cells, { recordings: marks(baseMarker, recordings) }, SOURCES);
    const head = structuredClone(baseDoc);
    head.paths["/lists"].get.responses["409"] = head.paths["/lists"].get.responses["400"];
    const headMarker = createMarker(head);
    // What the sandbox suite's error-statuses test sends for every documented status.
    const suite = marks(headMarker, [conflict("code=409")]);
    const without = buildReport(
      "spec",
      headMarker.cells,
      { recordings: marks(headMarker, recordings), suite },
      SOURCES,
    );
    const failed = judgeCoverage(base, without, "main (abc1234)");
    expect(failed.status).toBe("fail");
    expect(failed.details).toEqual([
      "`listLists 409` is new in this change and no evidence causes it (forced answers do not count)",
    ]);
    expect(failed.markdown).toContain("`listLists 409` (suite): only `Prefer: code=`");
    const summary = renderSummary(
      [
        {
          name: "coverage",
          status: failed.status,
          ms: 1,
          note: failed.note,
          details: failed.details!,
          section: failed.markdown!,
        },
      ],
      undefined,
      1,
    );
    expect(summary).toMatch(/### ✘ Contract coverage\n\n- `listLists 409` is new in this change/);
    expect(summary).toContain("| ✘ Contract coverage | listLists 409 is new in this change");

    const withRecording = buildReport(
      "spec",
      headMarker.cells,
      { recordings: marks(headMarker, [...recordings, conflict()]), suite },
      SOURCES,
    );
    const passed = judgeCoverage(base, withRecording, "main (abc1234)");
    expect(passed).toMatchObject({ status: "pass" });
    expect(passed.details).toBeUndefined();
  });
});

describe("workflow", () => {
  it("runs the gate on pull requests with full history, and the suite on every supported major", async () => {
    const wf = parse(await readFile(join(REPO_ROOT, ".github", "workflows", "contract-gate.yml"), "utf8")) as {
      on: Record<string, unknown>;
      jobs: Record<
        string,
        {
          strategy: { matrix: { node: number[] } };
          steps: { uses?: string; with?: Record<string, unknown>; run?: string }[];
        }
      >;
    };
    expect(Object.keys(wf.on)).toContain("pull_request");
    const job = Object.values(wf.jobs)[0];
    expect(job?.strategy.matrix.node).toEqual([22, 24, 26]);
    const steps = job?.steps ?? [];
    expect(steps.find((s) => s.uses?.startsWith("actions/checkout"))?.with?.["fetch-depth"]).toBe(0);
    expect(steps.find((s) => s.uses?.startsWith("actions/setup-node"))?.with?.["node-version"]).toBe(
      "${{ matrix.node }}",
    );
    const runs = steps.map((s) => s.run ?? "");
    expect(runs.indexOf("npm ci")).toBeGreaterThan(-1);
    expect(runs.findIndex((r) => r.includes('npm run gate -- --base "origin/$BASE_REF"'))).toBeGreaterThan(
      runs.indexOf("npm ci"),
    );
    expect(runs.findIndex((r) => r.includes("vitest.mjs run"))).toBeGreaterThan(runs.indexOf("npm ci"));
  });
});
