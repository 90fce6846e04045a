/** `npm run sandbox -- [options]`: starts the sandbox and prints its base URL and test keys (--help: usage, no work). */
import { describeListenError, runCommand } from "../../contract-core/index.js";
import { KEYS, ORGS } from "./auth.js";
import { parseCli, SANDBOX_COMMAND } from "./cli.js";
import { resolveOptions } from "./options.js";

await runCommand(SANDBOX_COMMAND, async () => {
  const options = parseCli(process.argv.slice(2));
  if (!options) return;
  const { host, port } = resolveOptions(options);
  // The server (Fastify, the graph) loads only once the command line asks for a start, not for --help.
  const { startSandbox } = await import("./server.js");
  const t0 = performance.now();
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(options);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code) throw new Error(describeListenError(e, port, host), { cause: e });
    throw e;
  }
  const readyMs = performance.now() - t0;
  const { graph } = sandbox;
  console.log(
    `Talent Graph sandbox ready in ${readyMs.toFixed(0)} ms (graph ${sandbox.graphMs.toFixed(0)} ms: ${graph.people.length} people, ${graph.companies.length} companies)`,
  );
  console.log(`Base URL: ${sandbox.baseUrl}`);
  console.log(`Control:  ${sandbox.origin}/__sandbox`);
  console.log(
    `Rate limit: ${sandbox.ctx.options.rateLimit ? `${sandbox.ctx.options.rateLimit.max}/min per client IP` : "off"}; latency: ${sandbox.ctx.options.latencyMs} ms`,
  );
  console.log("\nTest keys (send as Authorization: Bearer <key> or X-Api-Key: <key>):");
  for (const k of KEYS) console.log(`  ${k.key.padEnd(34)} ${k.description}`);
  console.log(`\nOrganization UUIDs (X-Service-Org-Id for the platform key):`);
  for (const o of Object.values(ORGS)) console.log(`  ${o.id}  ${o.name}`);
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
});
