/**
 * An example app's entry built as an app's bundler builds it (esbuild, ESM for browsers, code-split): for
 * production minified with `process.env.NODE_ENV` defined as "production", for development unminified. The
 * dev-only tests read the text of every output file to see what a branch behind the flag left in.
 */
import { build } from "esbuild";

export async function bundleApp(entry: string, mode: "production" | "development"): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: mode === "production",
    define: { "process.env.NODE_ENV": JSON.stringify(mode) },
    outdir: "/app-bundle-out",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles.map((f) => f.text).join("\n");
}
