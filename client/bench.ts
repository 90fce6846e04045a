/**
 * Size of the client as an application ships it: client/index.ts bundled with openapi-fetch by
 * esbuild (ESM, browser platform, minified), then gzipped. Standalone: `npx tsx client/bench.ts`
 * prints two lines; `--json` prints one JSON object instead.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "index.ts");

async function measureClientBundle(): Promise<{ minifiedBytes: number; gzipBytes: number }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error("esbuild produced no output");
  return { minifiedBytes: code.byteLength, gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}

const { minifiedBytes, gzipBytes } = await measureClientBundle();
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ name: "client-bundle", format: "esm", minifiedBytes, gzipBytes }));
} else {
  console.log(`client bundle (ESM, with openapi-fetch, minified): ${minifiedBytes} bytes`);
  console.log(`client bundle (ESM, with openapi-fetch, minified + gzip -9): ${gzipBytes} bytes`);
}
