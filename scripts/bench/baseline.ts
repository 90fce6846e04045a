/**
 * The old commit every floor is measured beside: a detached git worktree of it, made on first use in the
 * temporary folder (Node strips no types under node_modules) and sharing this checkout's node_modules (its
 * dependencies are the same), so its sandbox, mock and client run from their own sources in the same run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./harness.js";

/** 6f4f303 unless BENCH_BASE names another commit (`BENCH_BASE=a47e20d npm run bench -- sandbox`). */
export const BASE_COMMIT = process.env.BENCH_BASE || "6f4f303";

/** Where the old commit's checkout is made, in the words of `--help` and the README (a test holds them to it). */
export const BASE_LOCATION = "a git worktree of it in the system's temporary folder";

/** The folder of the old commit's checkout. */
export const baseCheckoutDir = (commit = BASE_COMMIT): string => join(tmpdir(), `talent-graph-bench-${commit}`);

/** The old commit's checkout (made now when missing); throws when git cannot make it. */
export function baseCheckout(): string {
  const dir = baseCheckoutDir();
  if (!existsSync(join(dir, "package.json"))) {
    execFileSync("git", ["worktree", "prune"], { cwd: ROOT, stdio: "ignore" });
    execFileSync("git", ["worktree", "add", "--detach", "--force", dir, BASE_COMMIT], { cwd: ROOT, stdio: "ignore" });
  }
  // The old checkout runs on this checkout's packages; a link left pointing elsewhere is replaced.
  const modules = join(dir, "node_modules");
  if (!existsSync(modules)) {
    rmSync(modules, { force: true });
    symlinkSync(join(ROOT, "node_modules"), modules);
  }
  return dir;
}
