#!/usr/bin/env node
// The package's bin (dist/bin/talent-graph-api-contract.js once built): runs bin.ts with the process's arguments.
import { runBin } from "./bin.js";

const code = await runBin(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
