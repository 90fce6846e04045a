// The mock's and the proxy's command line (the core's convention: --help, flags with PORT/HOST/SPEC/MOCK_VALIDATE
// as fallbacks, errors that say what to do), one ready line, clean stop.
import {
  COMMON_OPTIONS,
  assertPortFree,
  allowedHostsValue,
  describeListenError,
  portValue,
  runCommand,
  type CommandSpec,
  type ParsedCommandLine,
} from "../../contract-core/index.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "./address.js";
// Types only: server.ts loads Prism, which a --help or a usage error never needs.
import type { MockOptions, RunningMock } from "./server.js";

const SERVER_OPTIONS = {
  port: COMMON_OPTIONS.port(String(DEFAULT_PORT)),
  host: COMMON_OPTIONS.host(DEFAULT_HOST),
  "allowed-host": COMMON_OPTIONS.allowedHost(),
  spec: { ...COMMON_OPTIONS.spec("generated/openapi.json"), default: undefined },
  validate: {
    type: "boolean",
    env: "MOCK_VALIDATE",
    description: "warn when an answer breaks the spec (for people editing examples)",
  },
  quiet: { type: "boolean", description: "print no line per request (by default: method, path, status, time)" },
} satisfies CommandSpec["options"];

export const MOCK_COMMAND: CommandSpec = {
  name: "npm run mock",
  summary:
    "Serves the static mock of generated/openapi.json under /v1 (Prism behind a front with the reference's error shapes).",
  options: {
    ...SERVER_OPTIONS,
    "no-memo": {
      type: "boolean",
      description: "Prism answers every call (by default a repeated request gets Prism's first answer again)",
    },
  },
  notes: ["Prefer (code, example, dynamic, seed, latency) picks the answer: see mocks/prism/README.md."],
};

export const PROXY_COMMAND: CommandSpec = {
  name: "npm run proxy",
  summary: "Validating proxy: forwards to <upstream-base-url> and reports requests and answers that break the spec.",
  options: SERVER_OPTIONS,
  positionals: "<upstream-base-url>",
  notes: ["Example: npm run proxy -- https://api.talent-graph.example/v1"],
};

/** The mock's options from a parsed command line (flags, then PORT, HOST, SPEC, MOCK_VALIDATE=1). */
export function serverOptions(command: CommandSpec, { values }: ParsedCommandLine): MockOptions {
  return {
    port: portValue(command, values.port),
    host: String(values.host ?? DEFAULT_HOST),
    ...(values["allowed-host"] === undefined ? {} : { allowedHosts: allowedHostsValue(values["allowed-host"]) }),
    ...(values.spec ? { spec: String(values.spec) } : {}),
    ...(values.validate === true ? { validateResponses: true } : {}),
    ...(values["no-memo"] === true ? { memoize: false } : {}),
  };
}

/**
 * Runs a server command on the core's convention (--help exits 0 without starting anything; a usage error
 * exits 2); a failed start (a busy port names the port and how to choose another) exits 1; then runs until
 * SIGINT/SIGTERM.
 */
export async function runServerCommand(
  command: CommandSpec,
  start: (options: MockOptions, positionals: string[]) => Promise<RunningMock>,
  ready: (baseUrl: string, positionals: string[]) => string,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  await runCommand(
    command,
    async (parsed) => {
      const options = { ...serverOptions(command, parsed), ...requestLogOption(parsed.values.quiet === true) };
      let running: RunningMock;
      // A taken port is found before Prism loads, naming who holds it.
      await assertPortFree(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);
      try {
        running = await start(options, parsed.positionals);
      } catch (error) {
        if (!(error as NodeJS.ErrnoException).code) throw error;
        const message = describeListenError(error, options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST);
        throw new Error(message, { cause: error });
      }
      // The handlers are in place before the ready line: whoever reads it may signal at once, and a signal that
      // arrived before them would end the process by the default action. A second signal while closing (npm
      // forwards one, a terminal's Ctrl-C sends the group another) waits for the first close.
      let closing = false;
      const stop = (): void => {
        if (closing) return;
        closing = true;
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      process.stdout.write(`${ready(running.baseUrl, parsed.positionals)}\n`);
    },
    argv,
  );
}

/** One line per request on stdout unless --quiet. */
/** `npm run mock` and the bin's `mock`: Prism loads only for a start, not for --help or a usage error. */
export function runMockCommand(command: CommandSpec = MOCK_COMMAND, argv?: readonly string[]): Promise<void> {
  return runServerCommand(
    command,
    async (options) => (await import("./server.js")).startMock(options),
    (baseUrl) => `Mock ready on ${baseUrl} (Ctrl-C stops) - try: ${curlLine(baseUrl, "/people?limit=2")}`,
    argv,
  );
}

export function requestLogOption(quiet: boolean): Pick<MockOptions, "requestLog"> {
  return quiet ? {} : { requestLog: (line) => void process.stdout.write(`${line}\n`) };
}

/** A curl to paste; `auth` is the Authorization header to show (the mock accepts any Bearer value). */
export function curlLine(baseUrl: string, pathAndQuery: string, auth = "'Authorization: Bearer test'"): string {
  return `curl -H ${auth} '${baseUrl}${pathAndQuery}'`;
}
