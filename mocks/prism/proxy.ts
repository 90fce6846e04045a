// npm run proxy -- <upstream-base-url>: validating proxy (Prism proxy mode, errors on) on
// http://127.0.0.1:4010/v1 (--port/PORT, --host/HOST; --help). Requests and responses that break the spec are reported.
import { usageError } from "../../contract-core/index.js";
import { curlLine, PROXY_COMMAND, runServerCommand } from "./cli.js";

await runServerCommand(
  PROXY_COMMAND,
  async (options, [upstream, ...extra]) => {
    if (!upstream || extra.length > 0)
      throw usageError(PROXY_COMMAND, "give exactly one upstream base URL, e.g. https://api.talent-graph.example/v1");
    // Prism loads only for a start, not for --help or a usage error.
    const { startProxy } = await import("./server.js");
    return startProxy({ ...options, upstream });
  },
  (baseUrl, [upstream]) =>
    `Validating proxy ready on ${baseUrl} -> ${upstream} (Ctrl-C stops) - try: ${curlLine(baseUrl, "/people?limit=2", `"Authorization: Bearer $API_KEY"`)}`,
);
