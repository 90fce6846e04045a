/** `npm run build:client [-- --out <dir>]`: the ./client export alone (scripts/build/build.ts builds every export). */
import path from "node:path";
import { isMain, runCommand, type CommandSpec } from "../../contract-core/index.js";
import { buildClientChecked, OUT_OPTION, printBuild } from "./build.js";

export const BUILD_CLIENT_COMMAND: CommandSpec = {
  name: "npm run build:client",
  summary:
    "Compiles the typed client to dist/ (ESM JavaScript and declarations) and checks that the built entry loads.",
  options: OUT_OPTION,
};

if (isMain(import.meta.url)) {
  await runCommand(BUILD_CLIENT_COMMAND, async ({ values }) => {
    printBuild(
      "build:client",
      await buildClientChecked(typeof values.out === "string" ? path.resolve(values.out) : undefined),
    );
  });
}
