/** `npm run bench -- suite`: the wall and CPU seconds of one `npm test` in this checkout. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { ROOT } from "./harness.js";

/** CPU seconds (user + system) of this process's ended children (fields 16-17 of /proc/self/stat, 100 ticks/s). */
function childrenCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / 100;
}

export async function suiteFigures(): Promise<string[]> {
  const cpu0 = childrenCpuSeconds();
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn("npm", ["test"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject).once("close", resolve);
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = childrenCpuSeconds() - cpu0;
  return [`suite: npm test exited ${code}, ${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} s CPU`];
}
