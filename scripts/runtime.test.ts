/**
 * The supported Node baseline: npm scripts run on the default Node named by .nvmrc (the pinned `node`
 * devDependency), whatever Node is first on the PATH of the shell that calls npm.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const nvmrc = readFileSync(new URL(".nvmrc", root), "utf8").trim();

describe("Node baseline", () => {
  it(".nvmrc names the pinned node devDependency, and engines name the supported majors", () => {
    expect(pkg.devDependencies.node).toBe(nvmrc);
    expect(nvmrc.split(".")[0]).toBe("26");
    expect(pkg.engines.node).toBe("^22.12.0 || ^24.0.0 || >=26.0.0");
  });

  it("`node` inside an npm script is the default, even when the caller's PATH has no project Node", () => {
    // The caller's PATH without the project's node_modules/.bin (which npm test put there): what a shell on
    // a machine with another system Node has.
    const path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => !dir.includes("node_modules"))
      .join(delimiter);
    const run = spawnSync("npm", ["exec", "-c", "node --version"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, PATH: path },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`v${nvmrc}`);
  });
});

describe("the tests run again on the other supported majors (.ci/node-version-tests)", () => {
  const filters = readFileSync(new URL(".ci/node-version-tests", root), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const tests = spawnSync("git", ["ls-files", "--", "*.test.ts"], { cwd: root, encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean);

  it("each line names a folder or a test file of the checkout that holds tests", () => {
    expect(filters.length).toBeGreaterThan(0);
    for (const filter of filters) {
      expect(existsSync(new URL(filter, root)), filter).toBe(true);
      expect(
        tests.some((t) => t.startsWith(filter)),
        filter,
      ).toBe(true);
    }
  });

  it("include the shipped package's folders, its build and a consumer's install of a release", () => {
    for (const part of ["client/", "contract-core/", "mocks/", "scripts/build/", "scripts/release/"])
      expect(filters).toContain(part);
  });
});
