/**
 * `npm run pack [-- --out <dir>]`: the package's tarball, packed from a staged folder so that what ships is
 * written for package users: the built exports and bin (build.ts), the package README
 * (scripts/build/PACKAGE.md) and a package.json without the project's scripts, devDependencies or install
 * hooks (npm warns about install scripts on every consumer's install; the project's own `prepack` build only
 * concerns a checkout).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMain, runCommand, type CommandSpec } from "../../contract-core/index.js";
import { buildPackage } from "./build.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const PACKAGE_README = path.join(ROOT, "scripts", "build", "PACKAGE.md");

/** The fields of the project's package.json a package user's install reads; everything else stays home. */
const SHIPPED_FIELDS = [
  "name",
  "version",
  "private",
  "description",
  "type",
  "sideEffects",
  "engines",
  "exports",
  "bin",
  "files",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
] as const;

/** The packed package.json: the shipped fields of the project's, in the same order. */
export function packageManifest(project: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SHIPPED_FIELDS.filter((field) => field in project).map((f) => [f, project[f]]));
}

/**
 * Writes the package into `stage`: package.json, README.md and dist/ (the exports and the bin). `typeCheck`
 * as in build.ts (tests turn it off; `npm run typecheck` checks the same sources).
 */
export async function stagePackage(
  stage: string,
  { typeCheck = true, name }: { typeCheck?: boolean; name?: string } = {},
): Promise<void> {
  const project = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
  // A release under a scope (configuration, not code) publishes the same package under `@scope/name`.
  if (name) project.name = name;
  mkdirSync(stage, { recursive: true });
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(packageManifest(project), null, 2)}\n`);
  copyFileSync(PACKAGE_README, path.join(stage, "README.md"));
  await buildPackage({ outDir: path.join(stage, "dist"), typeCheck });
}

/**
 * Stages the package in a fresh folder inside dist/ (where the build's imports resolve), hands it to `use` (which
 * packs or publishes it) and removes it afterwards.
 */
export async function withStagedPackage<T>(
  options: { typeCheck?: boolean; name?: string },
  use: (stage: string) => T | Promise<T>,
): Promise<T> {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const stage = mkdtempSync(path.join(ROOT, "dist", ".pack-"));
  try {
    await stagePackage(stage, options);
    return await use(stage);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Stages the package and packs it into `out`; the tarball's path. */
export async function packPackage(out: string, options: { typeCheck?: boolean; name?: string } = {}): Promise<string> {
  return withStagedPackage(options, (stage) => {
    mkdirSync(out, { recursive: true });
    const report = execFileSync(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", out, "--loglevel=error"],
      { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    return path.join(out, (JSON.parse(report) as { filename: string }[])[0]!.filename);
  });
}

export const PACK_COMMAND: CommandSpec = {
  name: "npm run pack",
  summary:
    "Builds the package (./client, ./client/validate, ./msw, the talent-graph-api-contract bin) and packs it with its own README into a tarball.",
  options: {
    out: { type: "string", value: "<dir>", description: "folder for the tarball (default: the current one)" },
  },
  notes: ["Install it elsewhere with npm install <tarball>; then npx talent-graph-api-contract sandbox."],
};

if (isMain(import.meta.url)) {
  await runCommand(PACK_COMMAND, async ({ values }) => {
    const tarball = await packPackage(path.resolve(typeof values.out === "string" ? values.out : process.cwd()));
    console.log(`Packed ${path.relative(process.cwd(), tarball) || tarball}`);
  });
}
