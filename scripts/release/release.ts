/**
 * `npm run release [-- --publish]`: cuts a release of the contract and its package. Computes the next version
 * from the changes since the last `v*` tag (plan.ts), writes it into spec/openapi.yaml and package.json,
 * regenerates, writes the release notes from the changelog's entries (notes.ts), commits, tags `v<version>`
 * (annotated, the notes as its message) and publishes the package. Without --publish it is a dry run: it prints
 * what it would do and changes nothing. The registry and the scope are configuration (`--registry`, `--scope`,
 * or npm's own configuration and RELEASE_SCOPE), provenance is npm's (`npm_config_provenance=true` in CI).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type CommandSpec, REPO_ROOT, isMain, runCommand, usageError } from "../../contract-core/index.js";
import { withStagedPackage } from "../build/pack.js";
import { git } from "../changelog/history.js";
import { TAG_PREFIX } from "../changelog/releases.js";
import { releaseNotes } from "./notes.js";
import { planRelease, versionProblems } from "./plan.js";

export const RELEASE_DIR = path.join("dist", "release");

/** Sets `info.version` in the spec's root (a YAML text edit, so comments and layout stay). */
export function withSpecVersion(rootYaml: string, version: string): string {
  const re = /^(info:[ \t]*\n(?:(?:[ \t]+.*|[ \t]*)\n)*?[ \t]+version:[ \t]*)(["']?)[^\s"'#]+\2/m;
  if (!re.test(rootYaml)) throw new Error("spec/openapi.yaml: no info.version line to set");
  return rootYaml.replace(re, `$1${version}`);
}

/** Sets the version in package.json and in package-lock.json's two copies of it. */
function writePackageVersion(cwd: string, version: string): void {
  for (const file of ["package.json", "package-lock.json"]) {
    let text: string;
    try {
      text = readFileSync(path.join(cwd, file), "utf8");
    } catch {
      continue;
    }
    const json = JSON.parse(text) as { version?: string; packages?: Record<string, { version?: string }> };
    json.version = version;
    if (json.packages?.[""]) json.packages[""].version = version;
    writeFileSync(path.join(cwd, file), `${JSON.stringify(json, null, 2)}\n`);
  }
}

export interface ReleaseOptions {
  cwd?: string;
  publish?: boolean;
  /** The registry to publish to (default: npm's configuration). */
  registry?: string;
  /** `@scope`: publish as `@scope/<name>` (default: RELEASE_SCOPE, else the name as it is). */
  scope?: string;
  log?: (line: string) => void;
}

export interface ReleaseResult {
  code: number;
  version?: string;
  notes?: string;
  name?: string;
}

export async function release(options: ReleaseOptions = {}): Promise<ReleaseResult> {
  const cwd = options.cwd ?? REPO_ROOT;
  const log = options.log ?? ((line: string) => console.log(line));
  // The package is built from the checkout these scripts are in: a release of another would ship this one's code.
  if (options.publish && path.resolve(cwd) !== REPO_ROOT) {
    log(`release: --publish releases the checkout it runs from (${REPO_ROOT}), not ${cwd}`);
    return { code: 1 };
  }
  if (options.publish && git(cwd, ["status", "--porcelain", "--untracked-files=no"]).trim() !== "") {
    log("release: the working tree has uncommitted changes: commit them first (a release is a commit and its tag)");
    return { code: 1 };
  }
  const plan = await planRelease(cwd);
  const { next, last } = plan;
  const pkg = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8")) as { name: string };
  const scope = options.scope ?? process.env.RELEASE_SCOPE;
  const name = scope ? `${scope.startsWith("@") ? scope : `@${scope}`}/${pkg.name.replace(/^@[^/]+\//, "")}` : pkg.name;
  log(`Next release: ${next.sentence}${last ? ` (since ${last.tag})` : ""}`);
  if (last && next.version === last.version) {
    log(`Nothing to release: HEAD is ${last.tag}.`);
    return { code: 0, version: next.version, name };
  }
  const problems = versionProblems(plan, last?.version ?? plan.stated.spec);
  if (problems.length > 0) {
    for (const p of problems) log(`release: ${p}`);
    return { code: 1, version: next.version, name };
  }
  const tag = `${TAG_PREFIX}${next.version}`;
  const notes = await releaseNotes(cwd, plan, name);
  if (!options.publish) {
    log(`Dry run (--publish does it): would set info.version and package.json to ${next.version}, regenerate,`);
    log(`commit, tag ${tag} and publish ${name}@${next.version}${options.registry ? ` to ${options.registry}` : ""}.`);
    log("");
    log(notes);
    return { code: 0, version: next.version, notes, name };
  }
  const root = path.join(cwd, "spec", "openapi.yaml");
  writeFileSync(root, withSpecVersion(readFileSync(root, "utf8"), next.version));
  writePackageVersion(cwd, next.version);
  // `npm run generate`'s work, in this process: the checkout is this one (checked above).
  const { generate } = await import("../generate.js");
  await generate();
  const dir = path.join(cwd, RELEASE_DIR);
  mkdirSync(dir, { recursive: true });
  const notesFile = path.join(dir, `${tag}.md`);
  writeFileSync(notesFile, `${notes}\n`);
  git(cwd, ["add", "--", "spec", "generated", "package.json", "package-lock.json"]);
  if (git(cwd, ["status", "--porcelain", "--untracked-files=no"]).trim() !== "")
    git(cwd, ["commit", "--quiet", "-m", `Release ${next.version}`]);
  git(cwd, ["tag", "--annotate", tag, "--file", notesFile]);
  // npm publishes the staged folder as it packs it (the same files as `npm run pack`'s tarball): one npm process.
  const registry = options.registry ? ["--registry", options.registry] : [];
  const published = await withStagedPackage({ name }, (stage) =>
    spawnSync("npm", ["publish", stage, "--access", "public", "--ignore-scripts", ...registry], {
      cwd,
      encoding: "utf8",
    }),
  );
  if (published.status !== 0) {
    log(`release: npm publish failed (the tag ${tag} is local; delete it with git tag -d ${tag}):`);
    log(`${published.stdout}${published.stderr}`.trim());
    return { code: 1, version: next.version, notes, name };
  }
  log(`Released ${name}@${next.version}: tagged ${tag}, notes in ${path.relative(cwd, notesFile)}.`);
  log(`Push the commit and the tag: git push --follow-tags`);
  return { code: 0, version: next.version, notes, name };
}

export const RELEASE_COMMAND: CommandSpec = {
  name: "npm run release",
  summary:
    "Cuts a release: the next version from the changes since the last v* tag, written into the spec and package.json, regenerated, release notes, a v<version> tag and the package published. A dry run unless --publish.",
  options: {
    publish: { type: "boolean", description: "do it: write, commit, tag and publish (default: a dry run)" },
    registry: {
      type: "string",
      value: "<url>",
      description: "the registry to publish to (default: RELEASE_REGISTRY, else npm's configuration)",
    },
    scope: { type: "string", value: "<@scope>", description: "publish as @scope/<name> (default: RELEASE_SCOPE)" },
  },
  notes: ["Provenance: set npm_config_provenance=true where npm can attest it (GitHub Actions with id-token)."],
};

if (isMain(import.meta.url))
  await runCommand(RELEASE_COMMAND, async ({ values }) => {
    const registry = typeof values.registry === "string" ? values.registry : process.env.RELEASE_REGISTRY || undefined;
    if (registry !== undefined && !/^https?:\/\//.test(registry))
      throw usageError(RELEASE_COMMAND, "--registry takes an http(s) URL");
    const result = await release({
      publish: values.publish === true,
      ...(registry ? { registry } : {}),
      ...(typeof values.scope === "string" ? { scope: values.scope } : {}),
    });
    return result.code;
  });
