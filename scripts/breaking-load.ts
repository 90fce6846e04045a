/** Loading inputs: YAML or JSON, split roots bundled with Redocly first. Unreadable input throws InputError (exit code 2). */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { type Obj, isObj } from "./breaking-doc.js";

export class InputError extends Error {
  override name = "InputError";
}

export interface LoadedSpec {
  file: string;
  /** The document, bundled (all $refs local) when the input was a split root. */
  doc: Obj;
}

const require = createRequire(import.meta.url);

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (!isObj(node)) return false;
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) return true;
  return Object.values(node).some(hasExternalRef);
}

function redoclyBundle(file: string, out: string): Promise<void> {
  const cli = join(require.resolve("@redocly/cli/package.json"), "..", "bin", "cli.js");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, "bundle", file, "--ext", "json", "-o", out], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", (e) => fail(new InputError(`cannot bundle ${file}: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) return done();
      const lines = output
        .split("\n")
        .filter((l) => l.trim() !== "" && !/[║╔╚]/.test(l) && !/^bundling /.test(l))
        .slice(0, 20);
      fail(new InputError(`cannot bundle ${file}:\n${lines.join("\n")}`));
    });
  });
}

/** Reads, parses and (for split roots) bundles one input. Throws InputError naming the file. */
export async function loadSpec(file: string, workDir: string): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new InputError(`${file} is not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!isObj(doc) || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.")) {
    throw new InputError(`${file} is not an OpenAPI 3.x document (no "openapi: 3.x" field)`);
  }
  if (!hasExternalRef(doc)) return { file, doc };
  const bundled = join(workDir, `${basename(file).replace(/\.[^.]+$/, "")}-${Math.random().toString(36).slice(2, 8)}.json`);
  await redoclyBundle(resolve(file), bundled);
  return { file, doc: JSON.parse(await readFile(bundled, "utf8")) as Obj };
}

