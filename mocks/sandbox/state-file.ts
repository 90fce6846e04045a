/** The Node host's state storage: --state-file <path>, written atomically (temporary file, then rename). */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { StateStorage } from "./context.js";

export function stateFile(path: string): StateStorage {
  return {
    location: path,
    read: () => (existsSync(path) ? readFileSync(path, "utf8") : null),
    write(text) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, path);
    },
  };
}
