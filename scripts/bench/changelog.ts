/**
 * The changelog's floor: `npm run changelog` over this repository's whole first-parent history in <= 30 s, and
 * linear in the number of spec commits (the time per commit over the whole history against that over its first
 * half). Each round runs the command as a process, as a user does.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RUN_TYPESCRIPT } from "../../contract-core/index.js";
import { specCommits } from "../changelog/history.js";
import { ROOT, alternate, floorLine, formatNumber, ratios, summarize, unmeasured } from "./harness.js";

const COMMAND = path.join(ROOT, "scripts", "changelog", "changelog.ts");

/** Seconds of one `npm run changelog` run up to `rev`. */
function run(rev: string): number {
  const out = mkdtempSync(path.join(tmpdir(), "bench-changelog-"));
  try {
    const started = performance.now();
    const args = [...RUN_TYPESCRIPT, COMMAND, "--out", out, "--rev", rev];
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: "ignore" });
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function changelogFloors(rounds: number): Promise<string[]> {
  const commits = specCommits(ROOT);
  const half = commits[Math.floor(commits.length / 2) - 1];
  if (!half) return [unmeasured("changelog", "fewer than two spec commits in this clone's history")];
  const halfCount = Math.floor(commits.length / 2);
  const figures = await alternate(rounds, {
    full: async () => ({ s: run("HEAD") }),
    half: async () => ({ s: run(half.sha) }),
  });
  const full = figures.full.s ?? [];
  const firstHalf = figures.half.s ?? [];
  const perCommit = (values: number[], n: number) => values.map((v) => (v * 1000) / n);
  return [
    floorLine({
      name: `changelog of the whole history (${commits.length} spec commits) <= 30 s`,
      value: summarize(full),
      unit: "s",
      digits: 2,
      compare: "<=",
      target: 30,
    }),
    floorLine({
      name: "changelog linear: time per spec commit, whole history / first half <= 1.5",
      value: summarize(ratios(perCommit(full, commits.length), perCommit(firstHalf, halfCount))),
      unit: "x",
      digits: 2,
      compare: "<=",
      target: 1.5,
      details: [
        `whole ${formatNumber(summarize(perCommit(full, commits.length)).median)} ms per commit`,
        `first half (${halfCount}) ${formatNumber(summarize(perCommit(firstHalf, halfCount)).median)} ms per commit`,
      ],
    }),
  ];
}
