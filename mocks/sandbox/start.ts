/** `npm run sandbox -- [options]`: starts the sandbox and prints its base URL and test keys (--help: usage, no work). */
import { runSandboxCommand } from "./hosts/node/launch.js";

await runSandboxCommand(process.argv.slice(2));
