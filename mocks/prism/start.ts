// npm run mock: the static mock of generated/openapi.json on http://127.0.0.1:4010/v1 (--port/PORT, --host/HOST; --help).
import { curlLine, MOCK_COMMAND, runServerCommand } from "./cli.js";

await runServerCommand(
  MOCK_COMMAND,
  // Prism loads only for a start, not for --help or a usage error.
  async (options) => (await import("./server.js")).startMock(options),
  (baseUrl) => `Mock ready on ${baseUrl} (Ctrl-C stops) - try: ${curlLine(baseUrl, "/people?limit=2")}`,
);
