// The gate fails closed: a scratch pull request (a temporary git repository, the working tree against HEAD) whose
// change sits inside a request schema's `then` branch fails, and so does one no rule classifies ("needs review");
// each passes once spec/BREAKING.md accepts it.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { breakingCheck, resolveBase } from "./breaking-check.js";
import { markerLines } from "./breaking-markers.js";
import { renderSummary } from "./summary.js";

const run = promisify(execFile);
const SPLIT = join(REPO_ROOT, "scripts", "breaking", "fixtures", "ok-split-root-description-changed");
const PATH_ITEM = "spec/base/paths/people_{slug}.yaml";
const PERSON = "spec/base/components/schemas/Person.yaml";
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "gate test",
  GIT_AUTHOR_EMAIL: "gate@test.invalid",
  GIT_COMMITTER_NAME: "gate test",
  GIT_COMMITTER_EMAIL: "gate@test.invalid",
};
const FIELDS = (minLength: number) => `    - name: fields
      in: query
      schema:
        type: string
        if: { pattern: "^@" }
        then: { minLength: ${minLength} }
`;

describe("the gate on changes the detector classifies deep inside a schema, or cannot classify", () => {
  let dir = "";
  let markers = "";
  const git = async (...args: string[]) => (await run("git", args, { cwd: dir, env: GIT_ENV })).stdout.trim();
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(join(dir, file), "utf8");
    if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
    await writeFile(join(dir, file), text.replace(from, to));
  };
  const check = async () => breakingCheck({ cwd: dir, base: await resolveBase(dir, "HEAD") });
  /** Accepts the blocking changes the way a reviewer does: the gate's suggested lines, with a reason. */
  const accept = async (lines: string[]) =>
    writeFile(
      join(dir, "spec", "BREAKING.md"),
      markers.replace(
        "_None._",
        lines.map((l) => l.replace("<why this is intended, PR link>", "intended (PR #7)")).join("\n"),
      ),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gate-unclassified-"));
    await cp(join(SPLIT, "base.yaml"), join(dir, "spec", "openapi.yaml"));
    await cp(join(SPLIT, "base"), join(dir, "spec", "base"), { recursive: true });
    const project = await readFile(join(REPO_ROOT, "spec", "BREAKING.md"), "utf8");
    markers = `${project.slice(0, project.search(/^## Entries$/m))}## Entries\n\n_None._\n`;
    await writeFile(join(dir, "spec", "BREAKING.md"), markers);
    await git("init", "-q", "-b", "main");
    await edit(PATH_ITEM, "      schema: { type: string }\n", `      schema: { type: string }\n${FIELDS(2)}`);
    await edit(PERSON, "type: object", "type: object\nx-shape-not-shown: true");
    await git("add", "-A");
    await git("commit", "-q", "-m", "base: a conditional query parameter");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("fails a minLength raised in a request schema's then branch, naming the pointer; BREAKING.md accepts it", async () => {
    await edit(PATH_ITEM, FIELDS(2), FIELDS(4));
    const failed = await check();
    expect(failed.status).toBe("fail");
    expect(failed.blocking.map((c) => `${c.rule} ${c.location}`)).toEqual([
      "request-constraint-narrowed /parameters/query/fields/schema/then/minLength",
    ]);
    const lines = markerLines(failed.blocking);
    expect(renderSummary([], failed, 0)).toContain(lines[0]);
    await accept(lines);
    const passed = await check();
    expect(passed).toMatchObject({ status: "pass", blocking: [] });
    expect(passed.accepted.map((a) => a.change.rule)).toEqual(["request-constraint-narrowed"]);
    await git("checkout", "--", ".");
  });

  it("fails a change no rule classifies as needing review, and passes once BREAKING.md accepts its pointer", async () => {
    await edit(PERSON, "x-shape-not-shown: true\n", "");
    const failed = await check();
    expect(failed.status).toBe("fail");
    expect(failed.note).toContain("1 breaking (1 need review)");
    const [change] = failed.blocking;
    expect(change).toMatchObject({
      rule: "unclassified-change",
      component: "#/components/schemas/Person/x-shape-not-shown",
      before: "true",
    });
    const summary = renderSummary([], failed, 0);
    expect(summary).toContain("`unclassified-change` (needs review)");
    expect(summary).toContain("the detector does not know what this does to clients: review it");
    await accept(markerLines(failed.blocking));
    expect(await check()).toMatchObject({ status: "pass", blocking: [] });
    await git("checkout", "--", ".");
  });
});
