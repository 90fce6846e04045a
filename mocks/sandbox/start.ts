/** `npm run sandbox -- [options]`: starts the sandbox and prints its base URL and test keys. */
import { KEYS, ORGS } from "./auth.js";
import { parseCli, USAGE } from "./cli.js";
import { startSandbox } from "./server.js";

async function main(): Promise<void> {
  let cli: ReturnType<typeof parseCli>;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (cli.help) {
    console.log(USAGE);
    return;
  }
  const { help: _help, ...options } = cli;
  const t0 = performance.now();
  const sandbox = await startSandbox(options);
  const readyMs = performance.now() - t0;
  const { graph } = sandbox;
  console.log(`Talent Graph sandbox ready in ${readyMs.toFixed(0)} ms (graph ${sandbox.graphMs.toFixed(0)} ms: ${graph.people.length} people, ${graph.companies.length} companies)`);
  console.log(`Base URL: ${sandbox.baseUrl}`);
  console.log(`Control:  ${sandbox.origin}/__sandbox`);
  console.log(`Rate limit: ${sandbox.ctx.options.rateLimit ? `${sandbox.ctx.options.rateLimit.max}/min per client IP` : "off"}; latency: ${sandbox.ctx.options.latencyMs} ms`);
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
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
