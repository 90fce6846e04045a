#!/usr/bin/env node
// The package's bin (dist/bin/talent-graph-api-contract.js once built): on a Node it supports, runs bin.ts with
// the process's arguments; on an older one, one line naming the Node it needs (bin.ts loads only after the check).
import { unsupportedNode } from "./node-version.js";

const unsupported = unsupportedNode(process.versions.node);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exitCode = 1;
} else {
  const { runBin } = await import("./bin.js");
  const code = await runBin(process.argv.slice(2));
  if (code !== undefined) process.exitCode = code;
}
