/**
 * `npm run docs`: publishes the API reference from the bundle.
 *   generated/openapi.json -> dist/docs/index.html (one self-contained page, opens offline)
 * Options: --spec <bundle.json> --out <file.html> --title <text>
 */
import { parseArgs } from "node:util";
import { buildDocs, DEFAULT_OUT, DEFAULT_SPEC, displayPath } from "./build.js";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      spec: { type: "string", default: DEFAULT_SPEC },
      out: { type: "string", default: DEFAULT_OUT },
      title: { type: "string" },
    },
  });
  const result = await buildDocs({ specPath: values.spec, outFile: values.out, title: values.title });
  for (const warning of result.warnings) console.warn(`warning: ${warning}`);
  console.log(
    `Docs: ${displayPath(result.outFile)} (${result.bytes} bytes, ${result.operations} operations, ` +
      `${result.shapeNotShown.size} with shapes not shown)`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
