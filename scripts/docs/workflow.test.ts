/**
 * The publishing workflow (.github/workflows/docs.yml) publishes what `npm run docs` writes: the page at
 * DEFAULT_OUT goes to GitHub Pages on pushes to main and to each pull request's run as an artifact, on the
 * project's pinned Node, with every action pinned to a version.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_OUT, ROOT } from "./build.js";

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string;
  permissions?: Record<string, string>;
  environment?: { name: string };
  steps: Step[];
}

const workflow = parse(await readFile(path.join(ROOT, ".github", "workflows", "docs.yml"), "utf8")) as {
  on: { push?: { branches?: string[] }; pull_request?: unknown };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const step = (action: string) => steps.find((s) => s.uses?.split("@")[0] === action);
const published = path.relative(ROOT, DEFAULT_OUT);

describe("docs workflow", () => {
  it("builds on every push to main and every pull request, on the Node of .nvmrc", async () => {
    expect(workflow.on.push?.branches).toEqual(["main"]);
    expect(workflow.on).toHaveProperty("pull_request");
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(step("actions/setup-node")?.with?.["node-version-file"]).toBe(".nvmrc");
    expect((await readFile(path.join(ROOT, ".nvmrc"), "utf8")).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const runs = steps.map((s) => s.run);
    expect(runs.indexOf("npm run docs")).toBeGreaterThan(runs.indexOf("npm ci"));
    expect(runs.indexOf("npm ci")).toBeGreaterThan(-1);
  });

  it("fetches the whole history, which the changelog beside the page reads", () => {
    expect(step("actions/checkout")?.with?.["fetch-depth"]).toBe(0);
  });

  it("attaches the built page and the changelog beside it to a pull request's run", () => {
    const attach = step("actions/upload-artifact");
    expect(attach?.if).toBe("github.event_name == 'pull_request'");
    expect(attach?.with?.path).toBe(path.dirname(published));
    expect(attach?.with?.["if-no-files-found"]).toBe("error");
  });

  it("deploys the page's folder to GitHub Pages from main only", () => {
    const pagesArtifact = step("actions/upload-pages-artifact");
    expect(pagesArtifact?.with?.path).toBe(path.dirname(published));
    expect(pagesArtifact?.if).toContain("github.ref == 'refs/heads/main'");
    expect(path.basename(published)).toBe("index.html");
    const deploy = Object.values(workflow.jobs).find((job) =>
      job.steps.some((s) => s.uses?.startsWith("actions/deploy-pages@")),
    );
    expect(deploy?.if).toContain("github.ref == 'refs/heads/main'");
    expect(deploy?.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(deploy?.environment?.name).toBe("github-pages");
  });

  it("pins every action to a commit (scripts/gate/ci-workflows.test.ts checks the version comments)", () => {
    const uses = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.length).toBeGreaterThanOrEqual(5);
    for (const action of uses) expect(action).toMatch(/^actions\/[a-z-]+@[0-9a-f]{40}$/);
  });
});
