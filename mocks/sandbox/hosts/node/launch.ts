/**
 * The sandbox command's body (`npm run sandbox`, start.ts): parse the command line, start the Fastify host,
 * print the banner, stop on SIGINT/SIGTERM.
 */
import { assertPortFree, describeListenError, runCommand, type CommandSpec } from "../../../../contract-core/index.js";
import { KEYS, ORGS } from "../../contract/auth.js";
import { parseCli, SANDBOX_COMMAND } from "./cli.js";
import { resolveOptions, type SandboxOptions } from "../../contract/options.js";

/** Runs the sandbox command line (`command`: the npm script's, or the package bin's). */
export async function runSandboxCommand(
  argv: readonly string[],
  command: CommandSpec = SANDBOX_COMMAND,
): Promise<void> {
  await runCommand(
    command,
    async (args) => {
      const parsed = parseCli(argv, process.env, undefined, command);
      if (!parsed) return;
      const options = { ...parsed, ...requestLogOption(args.values.quiet === true, parsed.logger === true) };
      await launchSandbox(options);
    },
    argv,
  );
}

/** One line per request on stdout, unless --quiet or --log (Fastify's own log) says otherwise. */
export function requestLogOption(quiet: boolean, fastifyLog: boolean): Pick<SandboxOptions, "requestLog"> {
  return quiet || fastifyLog ? {} : { requestLog: (line) => console.log(line) };
}

/** Starts the Fastify host with these options, prints the banner, and stops on SIGINT/SIGTERM. */
async function launchSandbox(options: Partial<SandboxOptions>): Promise<void> {
  const { host, port } = resolveOptions(options);
  // A taken port is found before the graph is built (seconds at the default size), naming who holds it.
  await assertPortFree(port, host);
  // The server (Fastify, the graph) loads only once the command line asks for a start, not for --help.
  const { startSandbox } = await import("./server.js");
  const t0 = performance.now();
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(options);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).syscall === "listen")
      throw new Error(describeListenError(e, port, host), { cause: e });
    throw e;
  }
  const readyMs = performance.now() - t0;
  // The handlers are in place before the banner: whoever reads "Base URL" may signal at once, and a signal that
  // arrived before them would end the process by the default action, skipping the close. A second signal while
  // closing (npm forwards one, a terminal's Ctrl-C sends the group another) waits for the first close.
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
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
  if (options.requestLog) console.log("\nRequests (one line each; --quiet turns this off):");
}
