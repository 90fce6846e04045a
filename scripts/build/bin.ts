/**
 * `talent-graph-api-contract <sandbox|mock> [options]`: the package's servers, with the flags of `npm run sandbox`
 * and `npm run mock`. `npm run build` bundles this file into dist/bin/ (esbuild; the spec travels as
 * dist/generated/openapi.json). Fastify is a dependency of the package; Prism, which only the mock needs, is not
 * (an optional peer): the mock names the package to install when it is missing. bin-entry.ts runs it.
 */
import type { CommandSpec } from "../../contract-core/index.js";

export const BIN = "talent-graph-api-contract";
/** The Prism package the mock loads, at the version the project pins. */
export const PRISM_PACKAGE = "@stoplight/prism-http";

export const BIN_USAGE = `Usage: ${BIN} <command> [options]

The Talent Graph API's servers, from the installed package.

Commands:
  sandbox   the stateful sandbox on http://127.0.0.1:4011/v1 (organizations, Targets, jobs, events)
  mock      the static mock of the spec on http://127.0.0.1:4010/v1 (needs ${PRISM_PACKAGE})

${BIN} <command> --help lists the command's options.
`;

export interface BinIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether a package resolves from here (the mock's Prism). */
  resolves(specifier: string): boolean;
}

const processIo: BinIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  resolves: (specifier) => {
    try {
      import.meta.resolve(specifier);
      return true;
    } catch {
      return false;
    }
  },
};

/** The message when the mock's Prism is not installed. */
export function prismMissing(version: string): string {
  return (
    `${BIN} mock: the mock runs on Prism, which the package does not install for you (its install runs a ` +
    `telemetry script, and it asks for Node 24.18 or later); install it beside the package with ` +
    `\`npm install --save-dev ${PRISM_PACKAGE}@${version}\`, then run this again. The sandbox needs nothing more.\n`
  );
}

/**
 * Runs the bin: dispatches to the command, or answers --help, a missing or an unknown command (exit 2).
 * Resolves with the exit code for what it handles itself, or undefined once a server runs.
 */
export async function runBin(
  argv: readonly string[],
  io: BinIo = processIo,
  prismVersion = "5.16.0",
): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") {
    io.out(BIN_USAGE);
    return 0;
  }
  if (command === "sandbox") {
    const [{ runSandboxCommand }, { SANDBOX_COMMAND }] = await Promise.all([
      import("../../mocks/sandbox/hosts/node/launch.js"),
      import("../../mocks/sandbox/hosts/node/cli.js"),
    ]);
    const notes = ["Test keys and control endpoints: the package's README."];
    const spec: CommandSpec = { ...SANDBOX_COMMAND, name: `${BIN} sandbox`, notes };
    await runSandboxCommand(rest, spec);
    return undefined;
  }
  if (command === "mock") {
    const { MOCK_COMMAND, runMockCommand } = await import("../../mocks/prism/cli.js");
    const spec: CommandSpec = { ...MOCK_COMMAND, name: `${BIN} mock` };
    if (!rest.includes("--help") && !rest.includes("-h") && !io.resolves(PRISM_PACKAGE)) {
      io.err(prismMissing(prismVersion));
      return 2;
    }
    await runMockCommand(spec, rest);
    return undefined;
  }
  io.err(
    `${BIN}: ${command === undefined ? "no command given" : `unknown command "${command}"`}; the commands are sandbox ` +
      `and mock.\nusage: ${BIN} <sandbox|mock> [options] (--help lists them)\n`,
  );
  return 2;
}
