/**
 * npm run bench: every performance floor, each measured beside the old commit in the same run (median of
 * alternating rounds, with min and max), then the floor lines together. `npm run bench -- <part>...` runs
 * some parts; `suite` (not run by default) times `npm test`.
 */
import { isMain, runCommand, usageError, type CommandSpec } from "../contract-core/index.js";
import { BASE_LOCATION } from "./bench/baseline.js";
import { breakingFloors } from "./bench/breaking.js";
import { changelogFloors } from "./bench/changelog.js";
import { clientFloors } from "./bench/client.js";
import { docsFloors } from "./bench/docs.js";
import { machineLine, withServers } from "./bench/harness.js";
import { mockFloors } from "./bench/mock.js";
import { mswFloors } from "./bench/msw.js";
import { sandboxFloors } from "./bench/sandbox.js";
import { suiteFigures } from "./bench/suite.js";

const DEFAULT_PARTS = ["mock", "sandbox", "client", "msw", "changelog", "docs", "breaking"];
const PARTS = [...DEFAULT_PARTS, "suite"];

export const BENCH_COMMAND: CommandSpec = {
  name: "npm run bench",
  summary:
    `Measures every performance floor beside the old commit (${BASE_LOCATION}) and ` +
    `prints one line per floor, met or not. Parts: ${PARTS.join(", ")} (suite only when named).`,
  positionals: "[parts...]",
  options: {
    rounds: { type: "string", value: "<n>", env: "BENCH_ROUNDS", description: "alternating rounds (default 3)" },
    seconds: { type: "string", value: "<s>", env: "BENCH_SECONDS", description: "seconds per load run (default 5)" },
    connections: {
      type: "string",
      value: "<n>",
      env: "BENCH_CONNECTIONS",
      description: "connections per load run (default 10)",
    },
    sizes: {
      type: "string",
      value: "<a,b,...>",
      env: "BENCH_SIZES",
      description: "sandbox sizes in people (default 5000,50000,500000)",
    },
  },
  notes: ["Examples:", "  npm run bench", "  npm run bench -- sandbox --sizes 5000,50000", "  npm run bench -- suite"],
};

function count(value: unknown, name: string, fallback: number, min: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min) throw usageError(BENCH_COMMAND, `--${name} must be an integer >= ${min}`);
  return n;
}

if (isMain(import.meta.url))
  await runCommand(BENCH_COMMAND, async ({ positionals, values }) => {
    const unknown = positionals.filter((p) => !PARTS.includes(p));
    if (unknown.length)
      throw usageError(BENCH_COMMAND, `unknown part(s) ${unknown.join(", ")}; parts: ${PARTS.join(", ")}`);
    const parts = positionals.length ? positionals : DEFAULT_PARTS;
    const rounds = count(values.rounds, "rounds", 3, 1);
    const load = {
      seconds: count(values.seconds, "seconds", 5, 1),
      connections: count(values.connections, "connections", 10, 1),
    };
    const sizes = String(values.sizes ?? "5000,50000,500000")
      .split(",")
      .map((s) => count(s, "sizes", 0, 1));
    console.log(machineLine());
    const lines: string[] = [];
    let failed = 0;
    await withServers(async () => {
      for (const part of parts) {
        try {
          if (part === "mock") lines.push(...(await mockFloors(rounds, load)));
          if (part === "sandbox") lines.push(...(await sandboxFloors(sizes, rounds, load)));
          if (part === "client") lines.push(...(await clientFloors()));
          if (part === "msw") lines.push(...(await mswFloors(rounds)));
          if (part === "changelog") lines.push(...(await changelogFloors(rounds)));
          if (part === "docs") lines.push(...(await docsFloors(rounds)));
          if (part === "breaking") lines.push(...(await breakingFloors(rounds)));
          if (part === "suite") lines.push(...(await suiteFigures()));
        } catch (error) {
          failed++;
          lines.push(`${part}: failed (${(error as Error).message.split("\n")[0]})`);
        }
      }
    });
    console.log(`\n${lines.join("\n")}\n\nAt the end: ${machineLine()}`);
    return failed ? 1 : 0;
  });
