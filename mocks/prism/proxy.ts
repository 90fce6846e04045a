// npm run proxy -- <upstream-base-url>: validating proxy (Prism proxy mode, errors on) on
// http://127.0.0.1:4010/v1 (PORT, HOST). Requests and responses that break the spec are reported.
import { curlLine, cliOptions, runUntilSignal } from "./cli.js";
import { startProxy } from "./server.js";

const upstream = process.argv[2];
if (!upstream || upstream === "--help" || upstream === "-h") {
  process.stderr.write(
    "usage: npm run proxy -- <upstream-base-url>   e.g. npm run proxy -- https://api.talent-graph.example/v1\n",
  );
  process.exit(upstream ? 0 : 2);
}

await runUntilSignal(
  () => startProxy({ ...cliOptions(), upstream }),
  (baseUrl) =>
    `Validating proxy ready on ${baseUrl} -> ${upstream} (Ctrl-C stops) - try: ${curlLine(baseUrl, "/people?limit=2", `"Authorization: Bearer $API_KEY"`)}`,
);
