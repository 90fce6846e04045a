/**
 * Releases from scratch histories: a temporary git repository with a split spec tagged v1.0.0, then one change
 * in its working tree per test, read by the release plan, the notes and the gate's release check (git is what
 * they read). The version rules in-process.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import type { Change } from "../breaking/breaking.js";
import { runGate } from "../gate/cli.js";
import { releaseNotes } from "./notes.js";
import { planRelease, versionProblems } from "./plan.js";
import { release, withSpecVersion } from "./release.js";
import { bump, levelOf, nextRelease } from "./version.js";

const run = promisify(execFile);
const SPLIT = join(REPO_ROOT, "scripts", "breaking", "fixtures", "ok-split-root-description-changed");
const PERSON = "spec/base/components/schemas/Person.yaml";
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "release test",
  GIT_AUTHOR_EMAIL: "release@test.invalid",
  GIT_COMMITTER_NAME: "release test",
  GIT_COMMITTER_EMAIL: "release@test.invalid",
};
const HEADLINE = `  headline:
    type: [ string, "null" ]
    description: Profile headline
`;
const HEADLINE_AT = "/responses/200/content/application~1json/schema/properties/data/properties/headline";
const MIGRATION = "read the headline from the person's first position title instead";

const change = (rule: string, breaking: boolean): Change =>
  ({ rule, breaking, operation: "GET /x", operationId: "getX", location: "", message: "" }) as unknown as Change;

describe("version rules", () => {
  it("a breaking or unclassified change is a major, an addition a minor, a description a patch", () => {
    expect(levelOf([change("response-property-removed", true), change("operation-added", false)])?.level).toBe("major");
    expect(levelOf([change("unclassified-change", false)])?.level).toBe("major");
    expect(levelOf([change("deprecated", false), change("description-changed", false)])?.level).toBe("minor");
    expect(levelOf([change("description-changed", false)])?.level).toBe("patch");
    expect(levelOf([], true)?.level).toBe("patch");
    expect(levelOf([])).toBeUndefined();
    expect([bump("1.4.2", "major"), bump("1.4.2", "minor"), bump("1.4.2", "patch")]).toEqual([
      "2.0.0",
      "1.5.0",
      "1.4.3",
    ]);
    expect(() => bump("1.0", "patch")).toThrow(/not a version/);
    expect(nextRelease("1.0.0", "1.0.0", [change("response-property-removed", true)]).sentence).toBe(
      "2.0.0: `response-property-removed` on getX",
    );
    expect(nextRelease(undefined, "1.0.0", []).version).toBe("1.0.0");
  });

  it("sets info.version in the spec's root and nothing else", () => {
    const root = "openapi: 3.1.0\ninfo:\n  title: T\n  # the contract's version\n  version: 1.0.0\n  x-other: 1.0.0\n";
    expect(withSpecVersion(root, "2.0.0")).toBe(root.replace("version: 1.0.0", "version: 2.0.0"));
    expect(() => withSpecVersion("openapi: 3.1.0\n", "2.0.0")).toThrow(/no info.version/);
  });
});

describe("releases from a scratch history tagged v1.0.0", () => {
  let dir = "";
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(dir, file), "utf8");
    if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
    await writeFile(join(dir, file), text.replace(from, to));
  };
  const setVersion = async (version: string) => {
    await edit("spec/openapi.yaml", "version: 1.0.0", `version: ${version}`);
    await edit("package.json", '"version": "1.0.0"', `"version": "${version}"`);
  };
  const marker = (migration: string) =>
    edit(
      "spec/BREAKING.md",
      "_None._",
      `- \`response-property-removed\` \`getPerson\` \`${HEADLINE_AT}\` — headlines leave the dossier.${migration ? ` Migration: ${migration}` : ""}`,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "release-repo-"));
    await cp(join(SPLIT, "base.yaml"), join(dir, "spec", "openapi.yaml"));
    await cp(join(SPLIT, "base"), join(dir, "spec", "base"), { recursive: true });
    const markers = await readFile(join(REPO_ROOT, "spec", "BREAKING.md"), "utf8");
    await writeFile(
      join(dir, "spec", "BREAKING.md"),
      `${markers.slice(0, markers.search(/^## Entries$/m))}## Entries\n\n_None._\n`,
    );
    await writeFile(join(dir, "package.json"), `{\n  "name": "scratch-contract",\n  "version": "1.0.0"\n}\n`);
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-q", "-m", "The contract");
    await git("tag", "-a", "v1.0.0", "-m", "1.0.0");
  });
  afterEach(async () => {
    await git("checkout", "--", ".");
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("an added optional response property is a minor", async () => {
    await edit(PERSON, HEADLINE, `${HEADLINE}  nickname:\n    type: string\n    description: What friends call them\n`);
    const plan = await planRelease(dir);
    expect(plan.next).toMatchObject({ last: "1.0.0", version: "1.1.0", level: "minor" });
    expect(plan.next.sentence).toBe("1.1.0: `response-property-added` on getPerson");
    expect(versionProblems(plan, "1.0.0")).toEqual([]);
  });

  it("a description edit is a patch", async () => {
    await edit(PERSON, "description: Profile headline", "description: The profile's headline");
    const plan = await planRelease(dir);
    expect(plan.next).toMatchObject({ version: "1.0.1", level: "patch", sentence: "1.0.1: description-only changes" });
  });

  it("a removed response property with its marker and migration line is a major; the notes show the migration", async () => {
    await edit(PERSON, HEADLINE, "");
    await marker(MIGRATION);
    const plan = await planRelease(dir);
    expect(plan.next).toMatchObject({ version: "2.0.0", level: "major" });
    expect(plan.next.sentence).toBe("2.0.0: `response-property-removed` on getPerson");
    expect(versionProblems(plan, "1.0.0")).toEqual([]);
    const notes = await releaseNotes(dir, plan, "scratch-contract");
    expect(notes).toContain("## Breaking changes (1)");
    expect(notes).toContain(`Migration: ${MIGRATION}`);
    expect(notes).toContain("Install: `npm install scratch-contract@2.0.0`");
    // The dry run prints the same plan and changes nothing.
    const lines: string[] = [];
    expect((await release({ cwd: dir, log: (l) => lines.push(l) })).code).toBe(0);
    expect(lines.join("\n")).toContain(`Migration: ${MIGRATION}`);
    expect(await git("status", "--porcelain", "--", "spec/openapi.yaml", "package.json")).toBe("");
  });

  it("a major without a migration line is refused, naming the change", async () => {
    await edit(PERSON, HEADLINE, "");
    await marker("");
    const plan = await planRelease(dir);
    expect(versionProblems(plan, "1.0.0")).toEqual([
      expect.stringContaining("`response-property-removed` on getPerson"),
    ]);
    expect((await release({ cwd: dir, log: () => {} })).code).toBe(1);
  });

  it("--publish refuses a checkout other than the one it runs from (whose build it would ship), changing nothing", async () => {
    await edit(PERSON, "description: Profile headline", "description: The profile's headline");
    await git("commit", "-q", "-am", "A description edit");
    const lines: string[] = [];
    try {
      expect((await release({ cwd: dir, publish: true, log: (l) => lines.push(l) })).code).toBe(1);
      expect(lines).toEqual([`release: --publish releases the checkout it runs from (${REPO_ROOT}), not ${dir}`]);
      expect(await git("status", "--porcelain")).toBe("");
      expect(await git("tag", "--list")).toBe("v1.0.0");
    } finally {
      await git("reset", "-q", "--hard", "HEAD~1");
    }
  });

  it("a pull request bumping minor over a breaking change fails the gate, naming the rule", async () => {
    await edit(PERSON, HEADLINE, "");
    await marker(MIGRATION);
    await setVersion("1.1.0");
    const gate = await runGate({ cwd: dir, base: "HEAD", only: ["release"], log: () => {} });
    expect(gate.ok).toBe(false);
    const step = gate.steps.find((s) => s.name === "release")!;
    expect(step.details).toEqual([
      "info.version 1.1.0 is inconsistent with the changes since v1.0.0: the next release is 2.0.0: `response-property-removed` on getPerson",
    ]);
    expect(gate.markdown).toContain("the next release is 2.0.0: `response-property-removed` on getPerson");
  });

  it("the same change stating 2.0.0 passes; the summary says the next release and why", async () => {
    await edit(PERSON, HEADLINE, "");
    await marker(MIGRATION);
    await setVersion("2.0.0");
    const gate = await runGate({ cwd: dir, base: "HEAD", only: ["release"], log: () => {} });
    expect(gate.ok).toBe(true);
    // The check's note is escaped for Markdown like all text in the summary (scripts/escape/markdown.ts).
    expect(gate.markdown).toContain("next release 2.0.0: \\`response-property-removed\\` on getPerson (since v1.0.0)");
  });

  it("a spec version that package.json does not share fails", async () => {
    await edit("package.json", '"version": "1.0.0"', '"version": "1.0.1"');
    const plan = await planRelease(dir);
    expect(versionProblems(plan, "1.0.0")).toEqual([expect.stringContaining("package.json's version 1.0.1 differ")]);
  });
});
