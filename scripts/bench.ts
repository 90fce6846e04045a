/**
 * npm run bench: runs each part's benchmark in turn (one child process each, so one part's heap does not
 * weigh on the next), then repeats every goal line of issue 17 together. `npm run bench -- <part> [options]`
 * runs one part and hands it the options; `--help` prints the usage.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  REPO_ROOT as repoRoot,
  RUN_TYPESCRIPT,
  runCommand,
  usageError,
  type CliValues,
  type CommandSpec,
} from "../contract-core/index.js";
import { machineLine } from "./bench/harness.js";

interface Part {
  file: string;
  /** Goals the part measures, printed as "not measured" when it did not run or failed. */
  goals: string[];
}

const PARTS: Record<string, Part> = {
  contract: { file: "contract-tests/bench.ts", goals: [] },
  mock: { file: "mocks/prism/bench.ts", goals: ["mock >= 3x stock prism mock"] },
  client: {
    file: "client/bench.ts",
    goals: ["an app importing only createTalentGraphClient <= 4,500 B min+gzip"],
  },
  sandbox: {
    file: "mocks/sandbox/bench.ts",
    goals: [
      "sandbox filtered search at 500,000 people >= 0.5x its own at 5,000, p99 <= 50 ms, ready <= 10 s, RSS <= 1.5 GB",
      "sandbox filtered search >= 0.5x bare at 5,000 people",
    ],
  },
  msw: { file: "mocks/sandbox/hosts/bench.ts", goals: [] },
  suite: {
    file: "scripts/bench/suite.ts",
    goals: ["npm run gate <= 45 s wall, one-line spec change", "npm test <= 90 s wall"],
  },
};

/** Options handed on to the parts (each part reads the ones it knows, with the same environment fallbacks). */
export const BENCH_COMMAND: CommandSpec = {
  name: "npm run bench",
  summary:
    `Runs the benchmarks (the parts named, or every part) and prints their figures for this machine: ` +
    `every figure the median of alternating rounds with min and max, and each goal of issue 17 as a line ` +
    `"goal ...: ratio ... median (min-max) ... met / not met", repeated together at the end. Parts: ${Object.keys(PARTS).join(", ")}.`,
  positionals: "[parts...]",
  options: {
    rounds: {
      type: "string",
      value: "<n>",
      env: "BENCH_ROUNDS",
      description: "rounds per figure, at least 3 (default 3)",
    },
    seconds: {
      type: "string",
      value: "<s>",
      env: "BENCH_SECONDS",
      description: "seconds per load or throughput run (mock, sandbox: 5; contract: 1)",
    },
    warmup: {
      type: "string",
      value: "<s>",
      env: "BENCH_WARMUP",
      description: "seconds of warm-up before each sandbox load run, against the same server (default 5)",
    },
    connections: {
      type: "string",
      value: "<n>",
      env: "BENCH_CONNECTIONS",
      description: "autocannon connections (mock, sandbox; default 10)",
    },
    sizes: {
      type: "string",
      value: "<a,b,...>",
      env: "BENCH_SIZES",
      description: "sandbox graph sizes in people (default 5000,50000,500000)",
    },
    json: { type: "boolean", description: "client and contract: one JSON object instead of the text" },
  },
  notes: [
    "suite times npm test and npm run gate in a scratch checkout of HEAD; every part wants the machine to itself.",
    "Examples:",
    "  npm run bench",
    "  npm run bench -- client",
    "  npm run bench -- sandbox --sizes 5000,50000",
    "  npm run bench -- mock --rounds 5 --seconds 10",
  ],
};

/** The parsed options as arguments for the parts (the environment fallbacks reach them through the environment). */
function forwardedArgs(values: CliValues): string[] {
  const args: string[] = [];
  for (const name of ["rounds", "seconds", "warmup", "connections", "sizes"]) {
    const value = values[name];
    if (typeof value === "string") args.push(`--${name}`, value);
  }
  if (values.json === true) args.push("--json");
  return args;
}

/** Runs one part, streaming its output and keeping its goal lines. */
function runPart(file: string, forwarded: string[]): Promise<{ code: number | null; goals: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RUN_TYPESCRIPT, file, ...forwarded], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    const goals: string[] = [];
    let pending = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      goals.push(...lines.filter((line) => line.startsWith("goal ")));
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (pending.startsWith("goal ")) goals.push(pending);
      resolve({ code, goals });
    });
  });
}

await runCommand(BENCH_COMMAND, async ({ positionals: wanted, values }) => {
  const unknown = wanted.filter((w) => !(w in PARTS));
  if (unknown.length) {
    throw usageError(
      BENCH_COMMAND,
      `unknown benchmark part(s): ${unknown.join(", ")}; choose from ${Object.keys(PARTS).join(", ")}`,
    );
  }
  const forwarded = forwardedArgs(values);
  const selected = Object.entries(PARTS).filter(([name]) => !wanted.length || wanted.includes(name));
  const goalLines: string[] = [];
  let failed = 0;
  for (const [name, part] of selected) {
    if (!existsSync(join(repoRoot, part.file))) {
      console.log(`\n## ${name}: ${part.file} not present, skipped`);
      continue;
    }
    console.log(`\n## ${name} (${part.file})\n`);
    const { code, goals } = await runPart(part.file, forwarded);
    if (code !== 0) {
      failed++;
      console.log(`✘ ${name} benchmark exited with ${code}`);
      goalLines.push(...part.goals.map((goal) => `goal ${goal}: not measured (the ${name} benchmark failed)`));
    } else goalLines.push(...goals);
  }
  if (goalLines.length) console.log(`\n## Goals of issue 17\n\n${goalLines.join("\n")}`);
  // Each part printed the machine line at its start: this one closes the run, so drift across it shows.
  console.log(`\nAt the end: ${machineLine()}`);
  return failed ? 1 : 0;
});
