import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import type { Change } from "./breaking.js";
import type { StepName } from "./gate.js";
import {
  applyMarkers,
  changedFiles,
  isMajorBump,
  markerLine,
  markerLines,
  markerMatches,
  parseArgs,
  parseMarkers,
  planSteps,
  renderSummary,
  resolveBase,
  runGate,
  STEPS,
} from "./gate.js";

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const SPLIT = join(HERE, "fixtures", "ok-split-root-description-changed");
const PERSON = "spec/base/components/schemas/Person.yaml";
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "gate test",
  GIT_AUTHOR_EMAIL: "gate@test.invalid",
  GIT_COMMITTER_NAME: "gate test",
  GIT_COMMITTER_EMAIL: "gate@test.invalid",
};

/** A throwaway git repository holding a split spec (copied from a fixture) and the marker file. */
async function makeRepo(): Promise<{
  dir: string;
  git: (...args: string[]) => Promise<string>;
  edit: (file: string, from: string, to: string) => Promise<void>;
  commit: (msg: string) => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "gate-repo-"));
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
  await cp(join(SPLIT, "base.yaml"), join(dir, "spec", "openapi.yaml"));
  await cp(join(SPLIT, "base"), join(dir, "spec", "base"), { recursive: true });
  // The project's marker file without its entries: each test adds the ones it needs.
  const markers = await readFile(join(ROOT, "spec", "BREAKING.md"), "utf8");
  await writeFile(
    join(dir, "spec", "BREAKING.md"),
    `${markers.slice(0, markers.search(/^## Entries$/m))}## Entries\n\n_None._\n`,
  );
  await git("init", "-q", "-b", "main");
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(dir, file), "utf8");
    if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
    await writeFile(join(dir, file), text.replace(from, to));
  };
  const commit = async (msg: string) => {
    await git("add", "-A");
    await git("commit", "-q", "-m", msg);
  };
  return { dir, git, edit, commit };
}

/** The headline property as it reads after the harmless commit. */
const HEADLINE = `  headline:
    type: [ string, "null" ]
    description: Profile headline as shown on the network
`;
const quiet = () => {};

/** The breaking change the gate tests make: `headline` removed from GET /people/{slug}'s Person. */
const HEADLINE_REMOVED: Change = {
  rule: "response-property-removed",
  breaking: true,
  operation: "GET /people/{slug}",
  operationId: "getPerson",
  location: "/responses/200/content/application~1json/schema/properties/data/properties/headline",
  message: "",
};

describe("gate in a temporary git repository", () => {
  let repo: Awaited<ReturnType<typeof makeRepo>>;
  let summaryFile = "";

  beforeAll(async () => {
    repo = await makeRepo();
    await repo.commit("initial spec");
    summaryFile = join(repo.dir, "step-summary.md");
  });
  afterAll(async () => {
    await rm(repo.dir, { recursive: true, force: true });
  });

  it("passes a harmless commit (a description change) and lists it as non-breaking", async () => {
    await repo.edit(PERSON, "description: Profile headline", "description: Profile headline as shown on the network");
    await repo.commit("harmless: reword a description");
    const result = await runGate({ cwd: repo.dir, base: "HEAD~1", only: ["breaking"], optic: false, log: quiet });
    expect(result.ok).toBe(true);
    expect(result.steps.find((s) => s.name === "breaking")?.status).toBe("pass");
    expect(result.markdown).toContain("## Contract gate: ✔ passed");
    expect(result.markdown).toContain("Non-breaking changes (1)");
    expect(result.markdown).toContain("description changed");
  });

  it("fails a commit that deletes a response property, naming the property (CLI, exit 1, step summary)", async () => {
    await repo.edit(PERSON, HEADLINE, "");
    await repo.commit("breaking: drop headline");
    const child = await run(
      process.execPath,
      [...RUN_TYPESCRIPT, join(HERE, "gate.ts"), "--only", "breaking", "--base", "HEAD~1"],
      {
        cwd: repo.dir,
        env: { ...process.env, GITHUB_STEP_SUMMARY: summaryFile },
      },
    ).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(child.code).toBe(1);
    expect(child.stdout).toContain("## Contract gate: ✘ failed");
    expect(child.stdout).toContain('response property "headline" removed');
    expect(child.stdout).toContain("/properties/data/properties/headline");
    expect(child.stdout).toContain("- `response-property-removed` `getPerson`");
    expect(await readFile(summaryFile, "utf8")).toContain('response property "headline" removed');
  });

  it("passes the same break once spec/BREAKING.md names it, and fails again on a near-miss entry", async () => {
    const change: Change = HEADLINE_REMOVED;
    const entry = markerLine(change).replace("<why this is intended, PR link>", "headline moves to v2 profile (PR #1)");
    await repo.edit("spec/BREAKING.md", "_None._", `${entry}\n`);
    const accepted = await runGate({ cwd: repo.dir, base: "HEAD~1", only: ["breaking"], optic: false, log: quiet });
    expect(accepted.ok, accepted.markdown).toBe(true);
    expect(accepted.markdown).toContain("Accepted breaking changes (1)");
    expect(accepted.markdown).toContain("spec/BREAKING.md line");

    const nearMissEntry = entry.replace("/properties/headline`", "/properties/full_name`");
    await repo.edit("spec/BREAKING.md", entry, nearMissEntry);
    const nearMiss = await runGate({ cwd: repo.dir, base: "HEAD~1", only: ["breaking"], optic: false, log: quiet });
    expect(nearMiss.ok).toBe(false);
    expect(nearMiss.markdown).toContain("matches no change");
    await repo.edit("spec/BREAKING.md", `${nearMissEntry}\n`, "_None._");
  });

  it("passes the same break after a major bump of info.version (uncommitted working tree)", async () => {
    await repo.edit("spec/openapi.yaml", "version: 1.0.0", "version: 2.0.0");
    const result = await runGate({ cwd: repo.dir, base: "HEAD~1", only: ["breaking"], optic: false, log: quiet });
    expect(result.ok).toBe(true);
    expect(result.markdown).toContain("major version bump");
    await repo.edit("spec/openapi.yaml", "version: 2.0.0", "version: 1.0.0");
  });

  it("fails with a clear message when the working-tree spec is unreadable", async () => {
    await repo.edit(PERSON, "type: object", "type: [object\n");
    const result = await runGate({ cwd: repo.dir, base: "HEAD", only: ["breaking"], optic: false, log: quiet });
    await repo.git("checkout", "--", PERSON);
    const step = result.steps.find((s) => s.name === "breaking");
    expect(step?.status).toBe("fail");
    expect(step?.note).toContain("cannot bundle");
  });

  it("fails on a base ref that does not exist", async () => {
    const result = await runGate({ cwd: repo.dir, base: "no-such-ref", only: ["breaking"], optic: false, log: quiet });
    expect(result.ok).toBe(false);
    expect(result.steps.find((s) => s.name === "breaking")?.note).toContain("does not resolve");
  });

  it("picks the default base: merge base with origin/main, else HEAD~1", async () => {
    const first = await repo.git("rev-list", "--max-parents=0", "HEAD");
    const head1 = await repo.git("rev-parse", "HEAD~1");
    expect(await resolveBase(repo.dir)).toEqual({ label: "HEAD~1", sha: head1 });
    await repo.git("update-ref", "refs/remotes/origin/main", first);
    expect(await resolveBase(repo.dir)).toEqual({ label: "merge base with origin/main", sha: first });
    await repo.git("update-ref", "-d", "refs/remotes/origin/main");
  });

  it("reports a failing command check with the tail of its output, and runs every check", async () => {
    // "--": the gate passes the lint command its arguments (--typecheck ... when both run), not to Node.
    const fail = [process.execPath, "-e", "console.error('lint says no'); process.exit(3)", "--"];
    const pass = [process.execPath, "-e", "process.exit(0)", "--"];
    const result = await runGate({
      cwd: repo.dir,
      base: "HEAD",
      all: true,
      optic: false,
      log: quiet,
      commands: { lint: fail, drift: pass, typecheck: pass, tests: pass },
    });
    expect(result.ok).toBe(false);
    expect(result.steps.map((s) => `${s.name}:${s.status}`)).toEqual([
      "lint:fail",
      "drift:pass",
      "breaking:pass",
      "typecheck:pass",
      "tests:pass",
    ]);
    expect(result.markdown).toContain("✘ Lint | failed: exit code 3");
    expect(result.markdown).toContain("lint says no");
  });
});

describe("gate runs only the checks a change can affect", () => {
  let repo: Awaited<ReturnType<typeof makeRepo>>;
  /** Each command check prints its name and the arguments it got, so the log shows what ran and how. */
  const echo = (name: string) => [
    process.execPath,
    "-e",
    `console.log(${JSON.stringify(name)}, JSON.stringify(process.argv.slice(1)), JSON.stringify(process.env.TG_TEST_EXCLUDE ?? ""))`,
    "--",
  ];
  const commands = { lint: echo("lint"), drift: echo("drift"), typecheck: echo("typecheck"), tests: echo("tests") };
  const gate = async (extra: { all?: boolean } = {}) => {
    let log = "";
    const result = await runGate({
      cwd: repo.dir,
      base: "HEAD",
      optic: false,
      commands,
      log: (t) => void (log += t),
      ...extra,
    });
    return { result, log, statuses: result.steps.map((s) => `${s.name}:${s.status}`) };
  };

  beforeAll(async () => {
    repo = await makeRepo();
    await writeFile(join(repo.dir, "README.md"), "# Readme\n");
    await writeFile(join(repo.dir, "tool.ts"), "export const x = 1;\n");
    await repo.commit("initial");
  });
  afterAll(async () => {
    await rm(repo.dir, { recursive: true, force: true });
  });
  const reset = async () => {
    await repo.git("checkout", "--", ".");
    await repo.git("clean", "-fdq");
  };

  it("a docs-only change runs lint (formatting) and the tests without the docs suite, and says why the rest was skipped", async () => {
    await writeFile(join(repo.dir, "README.md"), "# Readme\n\nMore words.\n");
    await writeFile(join(repo.dir, "GUIDE.md"), "# New guide\n"); // untracked files count too
    const { result, log, statuses } = await gate();
    await reset();
    expect(result.ok).toBe(true);
    expect(statuses).toEqual(["lint:pass", "drift:skip", "breaking:skip", "typecheck:skip", "tests:pass"]);
    expect(log).toContain('tests ["--passWithNoTests"] "scripts/docs/**"');
    expect(log).not.toMatch(/^(drift|typecheck) /m);
    expect(result.markdown).toContain(
      "| – Drift (generated files up to date) | skipped: none of the 2 changed files is an input",
    );
    expect(result.markdown).toContain("| – Breaking changes | skipped: none of the 2 changed files is an input");
    expect(result.markdown).toContain(
      "| ✔ Tests | passed: docs suite (scripts/docs/**) not run: no change under spec/",
    );
  });

  it("a spec change runs lint, drift, breaking and the whole test suite (docs included)", async () => {
    await repo.edit(PERSON, "description: Profile headline", "description: Profile headline, reworded");
    const { result, log, statuses } = await gate();
    await reset();
    expect(statuses).toEqual(["lint:pass", "drift:pass", "breaking:pass", "typecheck:skip", "tests:pass"]);
    expect(result.steps.find((s) => s.name === "breaking")?.note).toContain("0 breaking, 1 non-breaking");
    expect(log).toContain('tests [] ""');
    expect(result.markdown).toContain(
      "| – Typecheck | skipped: none of the 1 changed file is an input (*.ts, *.mts, *.cts, *.tsx, *.json) | — |",
    );
  });

  it("a breaking spec change still fails the gate when only the spec changed", async () => {
    await repo.edit(PERSON, HEADLINE.split("\n").slice(0, 1).join("\n"), "  headline_removed_here:");
    const { result, statuses } = await gate();
    await reset();
    expect(result.ok).toBe(false);
    expect(statuses).toContain("breaking:fail");
  });

  it("a code-only change runs lint, typecheck and the tests without the docs suite, and skips drift and breaking", async () => {
    await repo.edit("tool.ts", "x = 1", "x = 2");
    const { log, statuses } = await gate();
    await reset();
    expect(statuses).toEqual(["lint:pass", "drift:skip", "breaking:skip", "typecheck:pass", "tests:pass"]);
    // This lint command writes no typecheck report, so tsc runs on its own.
    expect(log).toContain("The Lint check wrote no typecheck report: tsc runs on its own.");
    expect(log).toContain("typecheck []");
    expect(log).toContain('tests ["--passWithNoTests"] "scripts/docs/**"');
    // The type of `x` changed: ESLint's type-aware rules may judge its importers differently; the lint
    // command is asked to typecheck on the program it builds.
    expect(log).toMatch(
      /^lint \["--typecheck","--typecheck-report","[^"]+typecheck\.json","--eslint-all","--","tool\.ts"\]/m,
    );
  });

  it("when lint and typecheck both run, the Typecheck check reports the typecheck the lint command ran, not a tsc of its own", async () => {
    // A lint command that typechecks as `npm run lint -- --typecheck --typecheck-report <file>` does: it writes
    // the outcome it was given through TYPECHECK_OUTCOME. The typecheck command must not run.
    const lint = [
      process.execPath,
      "-e",
      `const a = process.argv.slice(1); const at = a.indexOf("--typecheck-report");
       if (at >= 0) require("node:fs").writeFileSync(a[at + 1], process.env.TYPECHECK_OUTCOME);`,
      "--",
    ];
    const gateWith = async (outcome: object | string) => {
      process.env.TYPECHECK_OUTCOME = typeof outcome === "string" ? outcome : JSON.stringify(outcome);
      let log = "";
      try {
        const result = await runGate({
          cwd: repo.dir,
          base: "HEAD",
          all: true,
          optic: false,
          commands: {
            ...commands,
            lint,
            typecheck: [process.execPath, "-e", "console.log('tsc ran'); process.exit(5)"],
          },
          log: (t) => void (log += t),
        });
        return { result, log, typecheck: result.steps.find((s) => s.name === "typecheck")! };
      } finally {
        delete process.env.TYPECHECK_OUTCOME;
      }
    };
    const clean = await gateWith({ problems: 0, text: "", ms: 4321, files: 7 });
    expect(clean.log).not.toContain("tsc ran");
    expect(clean.typecheck).toMatchObject({ status: "pass", ms: 4321 });
    expect(clean.result.markdown).toContain(
      "| ✔ Typecheck | passed: checked in the Lint check, on the one TypeScript program its ESLint then used (this time is part of Lint's) | 4.3 s |",
    );
    const failing = await gateWith({
      problems: 2,
      text: "a.ts(1,7): error TS2322: nope.\nb.ts(2,1): error TS2304: no.",
      ms: 10,
      files: 7,
    });
    expect(failing.log).not.toContain("tsc ran");
    expect(failing.result.ok).toBe(false);
    expect(failing.typecheck.status).toBe("fail");
    expect(failing.result.markdown).toContain("✘ Typecheck | failed: tsc --noEmit: 2 errors in the project's 7 files;");
    expect(failing.result.markdown).toContain("a.ts(1,7): error TS2322: nope.");
    // A report without its figures is no report: tsc runs, and its failure is the check's.
    const garbled = await gateWith({ text: "" });
    expect(garbled.log).toContain("tsc ran");
    expect(garbled.typecheck).toMatchObject({ status: "fail", note: "exit code 5" });
    // Nor is a report cut short.
    const cut = await gateWith('{"problems": 0, "te');
    expect(cut.log).toContain("tsc ran");
    expect(cut.typecheck).toMatchObject({ status: "fail", note: "exit code 5" });
  });

  it("a change only to comments and string values skips the typecheck and lints only the changed files", async () => {
    await writeFile(join(repo.dir, "data.json"), '{ "title": "T", "max": 1 }\n');
    await repo.commit("data");
    await repo.edit("tool.ts", "export const x", "/** The x. */\nexport const x");
    await repo.edit("data.json", '"T"', '"Title"');
    const { result, log, statuses } = await gate();
    await repo.git("reset", "-q", "--hard", "HEAD~1");
    await reset();
    expect(statuses).toEqual(["lint:pass", "drift:skip", "breaking:skip", "typecheck:skip", "tests:pass"]);
    expect(log).toContain('lint ["--","data.json","tool.ts"]');
    expect(log).not.toMatch(/^typecheck /m);
    expect(result.markdown).toContain(
      "| – Typecheck | skipped: the 2 changed files it reads differ only in comments or string values: the same types (data.json, tool.ts) | — |",
    );
    expect(result.markdown).toContain("| ✔ Lint | passed: Prettier and ESLint on the 2 changed files only |");
  });

  it("leaves out the test files that import only sources no change reached, and says so", async () => {
    await writeFile(join(repo.dir, "unit.ts"), "export const one = 1;\n");
    await writeFile(
      join(repo.dir, "unit.test.ts"),
      'import { expect, it } from "vitest";\nimport { one } from "./unit.js";\nit("one", () => expect(one).toBe(1));\n',
    );
    await writeFile(
      join(repo.dir, "io.test.ts"),
      'import { readFileSync } from "node:fs";\nimport { it } from "vitest";\nit("reads", () => void readFileSync);\n',
    );
    await repo.commit("tests");
    await repo.edit("README.md", "# Readme", "# Readme, reworded");
    const docs = await gate();
    await reset();
    await repo.edit("unit.ts", "= 1", "= 2");
    const code = await gate();
    await repo.git("reset", "-q", "--hard", "HEAD~1");
    await reset();
    expect(docs.log).toContain('tests ["--passWithNoTests"] "scripts/docs/**\\nunit.test.ts"');
    expect(docs.log).toContain(
      "1 test file not run: each imports only its own sources and packages that read no file, and none of those changed:\n  unit.test.ts",
    );
    expect(docs.result.markdown).toMatch(/\| ✔ Tests \| passed: docs suite .*; 1 test file not run/);
    expect(code.log).toContain('tests ["--passWithNoTests"] "scripts/docs/**"');
    expect(code.log).not.toContain("unit.test.ts");
  });

  it("a JSON value that changes kind runs the typecheck and ESLint on the whole tree; a tool's configuration lints the whole tree", async () => {
    await writeFile(join(repo.dir, "data.json"), '{ "title": "T", "max": 1 }\n');
    await repo.commit("data");
    await repo.edit("data.json", "1 }", '"1" }');
    const kind = await gate();
    await reset();
    await mkdir(join(repo.dir, "docs"));
    await writeFile(join(repo.dir, "docs", "package.json.md"), "# Not a package file\n");
    await writeFile(join(repo.dir, "README.md"), "# Readme\n\nMore.\n");
    const unrelated = await gate();
    await reset();
    await writeFile(join(repo.dir, ".gitignore"), "build/\n");
    const config = await gate();
    await repo.git("reset", "-q", "--hard", "HEAD~1");
    await reset();
    expect(kind.statuses).toContain("typecheck:pass");
    expect(kind.log).toMatch(/^lint \["--typecheck","--typecheck-report","[^"]+","--eslint-all","--","data\.json"\]/m);
    expect(unrelated.log).toContain('lint ["--","README.md","docs/package.json.md"]');
    expect(config.log).toContain("lint []");
    expect(config.statuses).toContain("typecheck:skip"); // .gitignore is no input of tsc
  });

  it("--all runs every check whole, and a failing check still fails a skippable change", async () => {
    const all = await gate({ all: true });
    expect(all.statuses).toEqual(["lint:pass", "drift:pass", "breaking:pass", "typecheck:pass", "tests:pass"]);
    expect(all.log).toContain('tests [] ""');
    const none = await gate();
    expect(none.statuses).toEqual(["lint:skip", "drift:skip", "breaking:skip", "typecheck:skip", "tests:skip"]);
    expect(none.result.markdown).toContain("skipped: no file changed since the base");
  });

  it("tells the tests that the project typecheck covers the type tests, unless typecheck is left out with --only", async () => {
    const env = [process.execPath, "-e", "console.log('shared=' + process.env.TG_TYPECHECK_SHARED)"];
    const run = async (only?: StepName[]) => {
      let log = "";
      await runGate({
        cwd: repo.dir,
        base: "HEAD",
        all: true,
        only,
        optic: false,
        commands: { ...commands, tests: env },
        log: (t) => void (log += t),
      });
      return log;
    };
    expect(await run()).toContain("shared=1");
    expect(await run(["typecheck", "tests"])).toContain("shared=1");
    expect(await run(["tests"])).toContain("shared=undefined");
  });

  it("lists committed, uncommitted and untracked changes against the base", async () => {
    await repo.edit("README.md", "# Readme", "# Readme!");
    await repo.commit("readme");
    await repo.edit("tool.ts", "x = 1", "x = 3");
    await writeFile(join(repo.dir, "new.ts"), "export {};\n");
    expect(await changedFiles(repo.dir, "HEAD~1")).toEqual(["README.md", "new.ts", "tool.ts"]);
    expect(await changedFiles(repo.dir, "no-such-ref")).toBeUndefined();
    await reset();
  });
});

describe("the tests' exclusions", () => {
  it("vitest leaves out what the gate names in TG_TEST_EXCLUDE, in every project", async () => {
    const files = ["mocks/sandbox/search.test.ts", "mocks/sandbox/domain/postings.test.ts"];
    const list = async (exclude: string | undefined) =>
      (
        await run(join(ROOT, "node_modules/.bin/vitest"), ["list", "--filesOnly", ...files], {
          cwd: ROOT,
          env: { ...process.env, TG_TEST_EXCLUDE: exclude },
        })
      ).stdout
        .split("\n")
        .filter((line) => line.startsWith("["))
        .sort();
    expect(await list(undefined)).toEqual([
      "[default] mocks/sandbox/domain/postings.test.ts",
      "[default] mocks/sandbox/search.test.ts",
      "[sandbox-msw] mocks/sandbox/search.test.ts",
    ]);
    expect(await list("mocks/sandbox/search.test.ts\nscripts/docs/**")).toEqual([
      "[default] mocks/sandbox/domain/postings.test.ts",
    ]);
  });
});

describe("planSteps", () => {
  it("runs everything when the changed files are unknown or the toolchain changed", () => {
    expect(planSteps(undefined)).toEqual({ run: [...STEPS], skipped: {} });
    expect(planSteps(["package-lock.json", "README.md"]).run).toEqual([...STEPS]);
    expect(planSteps([".github/workflows/contract-gate.yml"]).run).toEqual([...STEPS]);
  });

  it("maps each kind of change to the checks it can affect", () => {
    const plan = (...files: string[]) => {
      const { run, docsSkipped } = planSteps(files);
      return { run, docs: docsSkipped === undefined };
    };
    expect(plan("docs/guide.md")).toEqual({ run: ["lint", "tests"], docs: false });
    expect(planSteps(["docs/guide.md"]).docsSkipped).toContain("docs suite (scripts/docs/**) not run");
    expect(plan("spec/base/paths/me.yaml")).toEqual({ run: ["lint", "drift", "breaking", "tests"], docs: true });
    expect(plan("mocks/sandbox/server.ts")).toEqual({ run: ["lint", "typecheck", "tests"], docs: false });
    expect(plan("client/index.ts")).toEqual({ run: ["lint", "typecheck", "tests"], docs: true });
    expect(plan("scripts/docs/build.ts")).toEqual({ run: ["lint", "typecheck", "tests"], docs: true });
    expect(plan("scripts/lint/ruleset.ts")).toEqual({ run: ["lint", "typecheck", "tests"], docs: false });
    expect(plan("scripts/breaking/policy.ts")).toEqual({
      run: ["lint", "drift", "breaking", "typecheck", "tests"],
      docs: false,
    });
    expect(plan("contract-core/spec.ts")).toEqual({ run: [...STEPS], docs: true });
    expect(plan("generated/schema.d.ts")).toEqual({ run: ["lint", "drift", "typecheck", "tests"], docs: true });
    expect(plan("README.md", "mocks/sandbox/server.ts")).toEqual({ run: ["lint", "typecheck", "tests"], docs: false });
  });

  it("narrows lint and skips the typecheck only with the proof that every file TypeScript sees kept its types", () => {
    const spec = ["generated/openapi.json", "generated/schema.d.ts", "spec/components/schemas/Person.yaml"];
    expect(planSteps(spec).lint).toBeUndefined();
    expect(planSteps(spec).run).toContain("typecheck");
    const proven = planSteps(spec, new Set(spec.slice(0, 2)));
    expect(proven.run).toEqual(["lint", "drift", "breaking", "tests"]);
    expect(proven.lint).toMatchObject({ files: spec, eslintAll: false });
    const partly = planSteps(spec, new Set(spec.slice(0, 1)));
    expect(partly.run).toContain("typecheck");
    expect(partly.lint).toMatchObject({ files: spec, eslintAll: true });
    for (const config of ["client/package.json", "docs/.prettierrc.yaml", "client/tsconfig.build.json", ".gitignore"]) {
      const plan = planSteps([...spec, config], new Set(spec));
      expect(plan.lint, config).toBeUndefined();
      expect(plan.run, config).toContain("typecheck");
    }
  });
});

describe("gate without history", () => {
  it("skips the breaking check with a note when there is no parent commit and no origin/main", async () => {
    const repo = await makeRepo();
    try {
      await repo.commit("only commit");
      const result = await runGate({ cwd: repo.dir, only: ["breaking"], optic: false, log: quiet });
      expect(result.ok).toBe(true);
      expect(result.steps.find((s) => s.name === "breaking")).toMatchObject({
        status: "skip",
        note: expect.stringContaining("no parent commit"),
      });
    } finally {
      await rm(repo.dir, { recursive: true, force: true });
    }
  });

  it("fails a commit that renames a path parameter (/people/{slug} -> /people/{person_id}), same URL on the wire", async () => {
    const repo = await makeRepo();
    try {
      await repo.commit("initial spec");
      await repo.edit("spec/openapi.yaml", "  /people/{slug}:", "  /people/{person_id}:");
      await repo.edit("spec/base/paths/people_{slug}.yaml", "    - name: slug", "    - name: person_id");
      await repo.commit("breaking: rename the path parameter");
      const result = await runGate({ cwd: repo.dir, base: "HEAD~1", only: ["breaking"], optic: false, log: quiet });
      expect(result.ok).toBe(false);
      expect(result.markdown).toContain('path parameter renamed from "slug" to "person_id"');
      expect(result.markdown).toContain("- `parameter-renamed` `getPerson` `/parameters/path/person_id`");
    } finally {
      await rm(repo.dir, { recursive: true, force: true });
    }
  });
});

describe("markers", () => {
  const change: Change = {
    ...HEADLINE_REMOVED,
    component: "#/components/schemas/Person/properties/headline",
  };
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
    const { entries, errors } = parseMarkers(await readFile(join(ROOT, "spec", "BREAKING.md"), "utf8"));
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

  it("accepts a change by entry or by a major bump, blocks the rest, and lists unused entries", () => {
    const other: Change = {
      ...change,
      rule: "response-status-removed",
      component: undefined,
      location: "/responses/404",
    };
    const entry = { line: 3, rule: change.rule, operation: "getPerson", location: change.location, reason: "r" };
    const stale = { ...entry, line: 4, location: "/nowhere" };
    const noBump = applyMarkers([change, other], [entry, stale], false);
    expect(noBump.accepted).toEqual([{ change, by: "spec/BREAKING.md line 3" }]);
    expect(noBump.blocking).toEqual([other]);
    expect(noBump.unused).toEqual([stale]);
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
  it("parses --base, --only, --all and --no-optic, rejecting the rest", () => {
    expect(parseArgs(["--base", "origin/main", "--only", "breaking,tests", "--no-optic"])).toEqual({
      base: "origin/main",
      only: ["breaking", "tests"],
      optic: false,
    });
    expect(parseArgs(["--all"])).toEqual({ all: true });
    expect(parseArgs(["--base=HEAD~2"])).toEqual({ base: "HEAD~2" });
    expect(parseArgs(["--base"])).toContain("needs a git ref");
    expect(parseArgs(["--only", "lint,nope"])).toContain("--only takes");
    expect(parseArgs(["--what"])).toContain("unknown argument");
  });

  it("renders every check with its mark and time", () => {
    const md = renderSummary(
      [
        { name: "lint", status: "pass", ms: 1234 },
        { name: "drift", status: "fail", ms: 10, note: "exit code 1", output: "generated/openapi.json differs" },
        { name: "breaking", status: "skip", ms: 0, note: "not selected (--only)" },
      ],
      undefined,
      2000,
    );
    expect(md).toContain("| ✔ Lint | passed | 1.2 s |");
    expect(md).toContain("| ✘ Drift (generated files up to date) | failed: exit code 1 | 0.0 s |");
    expect(md).toContain("| – Breaking changes | skipped: not selected (--only) | — |");
    expect(md).toContain("generated/openapi.json differs");
    expect(md).toContain("## Contract gate: ✘ failed");
  });
});

describe("workflow", () => {
  it("runs the gate on pull requests with full history, and the suite on every supported major", async () => {
    const wf = parse(await readFile(join(ROOT, ".github", "workflows", "contract-gate.yml"), "utf8")) as {
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
    expect(runs.findIndex((r) => r.includes("npm run gate -- --base origin/${{ github.base_ref }}"))).toBeGreaterThan(
      runs.indexOf("npm ci"),
    );
    expect(runs.findIndex((r) => r.includes("vitest.mjs run"))).toBeGreaterThan(runs.indexOf("npm ci"));
  });
});
