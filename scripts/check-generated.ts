/**
 * npm run check:generated: regenerate into a temporary folder and fail with a readable diff when
 * generated/ is stale.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, type CommandSpec } from "../contract-core/index.js";
import { GENERATED_FILES, generate, repoRoot } from "./generate.js";

export const CHECK_GENERATED_COMMAND: CommandSpec = {
  name: "npm run check:generated",
  summary: "Regenerates into a temporary folder and fails with a readable diff when a generated file is stale.",
};

await runCommand(CHECK_GENERATED_COMMAND, async () => {
  const dir = mkdtempSync(join(tmpdir(), "tg-drift-"));
  let stale = 0;
  try {
    await generate(dir);
    for (const { name, committed: path } of GENERATED_FILES) {
      const committed = join(repoRoot, path);
      const fresh = join(dir, name);
      if (existsSync(committed) && readFileSync(committed, "utf8") === readFileSync(fresh, "utf8")) continue;
      stale++;
      console.error(`✘ ${path} is stale`);
      const diff = spawnSync("git", ["diff", "--no-index", "--stat", "--", committed, fresh], { encoding: "utf8" });
      const full = spawnSync("git", ["diff", "--no-index", "-U2", "--", committed, fresh], { encoding: "utf8" });
      console.error((diff.stdout || "(missing file)").trim());
      console.error(full.stdout.split("\n").slice(0, 60).join("\n"));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (stale) {
    console.error(`\n${stale} generated file(s) differ from spec/. Run \`npm run generate\`, review the diff, commit.`);
    return 1;
  }
  console.log(`✔ generated files are in sync with spec/ (${GENERATED_FILES.map((f) => f.committed).join(", ")})`);
  return 0;
});
