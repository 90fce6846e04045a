// npm run mock: the static mock of generated/openapi.json on http://127.0.0.1:4010/v1 (PORT, HOST).
import { curlLine, cliOptions, runUntilSignal } from "./cli.js";
import { startMock } from "./server.js";

await runUntilSignal(
  () => startMock(cliOptions()),
  (baseUrl) => `Mock ready on ${baseUrl} (Ctrl-C stops) - try: ${curlLine(baseUrl, "/people?limit=2")}`,
);
