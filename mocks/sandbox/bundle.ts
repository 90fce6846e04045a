/**
 * The sandbox as `npm run sandbox` runs it: start.ts and everything it imports built into one ES module
 * (esbuild; packages stay imports) under node_modules/.cache/sandbox/. Served from the bundle, the sandbox's
 * functions run as written: compiled on the fly by tsx, every nested named function gets a naming call each
 * time it is created, a cost on every request. Each module's `import.meta.url` is replaced by its own source
 * URL, so paths built from it (the spec, the repository root) stay what they are in the source.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
const ENTRY = join(HERE, "start.ts");
export const BUNDLE_DIR = join(HERE, "..", "..", "node_modules", ".cache", "sandbox");

/** Gives each TypeScript module its own location where it asks for it, as if it were not bundled. */
const ownLocation: Plugin = {
  name: "own-import-meta-location",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      const url = pathToFileURL(path).href;
      return {
        contents: text
          .replaceAll("import.meta.url", JSON.stringify(url))
          .replaceAll("import.meta.dirname", JSON.stringify(dirname(path)))
          .replaceAll("import.meta.filename", JSON.stringify(path)),
        loader: "ts",
      };
    });
  },
};

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Writes `text` to `path` unless it is there; whole or not at all, so concurrent launches never read half a file. */
async function writeOnce(path: string, text: string): Promise<void> {
  if (await exists(path)) return;
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, path);
}

/** Builds the bundle (named by its content, so a changed source gets a new file) and returns its path. */
export async function buildSandboxBundle(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    outdir: BUNDLE_DIR,
    sourcemap: "linked",
    logLevel: "silent",
    plugins: [ownLocation],
  });
  const js = result.outputFiles.find((f) => f.path.endsWith(".js"))!;
  const map = result.outputFiles.find((f) => f.path.endsWith(".js.map"))!;
  const name = `start-${createHash("sha256").update(js.contents).digest("hex").slice(0, 16)}.mjs`;
  await mkdir(BUNDLE_DIR, { recursive: true });
  await writeOnce(join(BUNDLE_DIR, `${name}.map`), map.text);
  await writeOnce(join(BUNDLE_DIR, name), js.text.replace(/sourceMappingURL=\S+$/m, `sourceMappingURL=${name}.map`));
  return join(BUNDLE_DIR, name);
}
