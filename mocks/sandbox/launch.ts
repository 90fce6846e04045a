/**
 * `npm run sandbox -- [options]`: builds the sandbox into one module (bundle.ts) and runs it in this process,
 * with the command line as given (start.ts reads it).
 */
import { pathToFileURL } from "node:url";
import { buildSandboxBundle } from "./bundle.js";

let bundle: string;
try {
  bundle = await buildSandboxBundle();
} catch (e) {
  process.stderr.write(`npm run sandbox: the sandbox could not be built: ${(e as Error).message}\n`);
  process.exit(1);
}
// Stack traces name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
