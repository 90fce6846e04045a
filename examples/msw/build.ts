/**
 * Builds the example page into a directory (default dist/examples/msw/): index.html, app.js (esbuild
 * bundle of browser/main.ts, minified) and the mockServiceWorker.js that `msw init` writes.
 *
 *   npm run ts -- examples/msw/build.ts [out-dir]     then serve the directory, e.g. from 127.0.0.1
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
export const DEFAULT_OUT = path.join(ROOT, "dist", "examples", "msw");

export interface ExamplePage {
  dir: string;
  /** Size of app.js, raw and gzipped (level 9), in bytes. */
  bundleBytes: number;
  gzipBytes: number;
}

/** `entry` and `html`: another page of these examples (the Storybook recipe's harness). */
export async function buildExamplePage(
  dir = DEFAULT_OUT,
  entry = path.join(HERE, "browser", "main.ts"),
  html = path.join(HERE, "browser", "index.html"),
): Promise<ExamplePage> {
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: path.join(dir, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    logLevel: "warning",
  });
  copyFileSync(html, path.join(dir, "index.html"));
  execFileSync(path.join(ROOT, "node_modules", ".bin", "msw"), ["init", dir, "--no-save"], { stdio: "ignore" });
  const bundle = readFileSync(path.join(dir, "app.js"));
  return { dir, bundleBytes: bundle.length, gzipBytes: gzipSync(bundle, { level: 9 }).length };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const page = await buildExamplePage(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(
    `example page in ${path.relative(process.cwd(), page.dir)}: app.js ${page.bundleBytes} bytes, ${page.gzipBytes} gzipped`,
  );
}
