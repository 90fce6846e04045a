/**
 * vitest's global setup: every test run starts with an empty suite log (dist/coverage/suite/, see suite-log.ts).
 * It runs in vitest's main process, which resolves no `.js` specifiers to sources, so it imports nothing of ours.
 */
import { rmSync } from "node:fs";

export default function clearSuiteLog(): void {
  rmSync(new URL("../dist/coverage/suite", import.meta.url), { recursive: true, force: true });
}
