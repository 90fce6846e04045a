/**
 * ARCHITECTURE.md names only what exists: every identifier it quotes is declared in the sources, every `.ts`
 * path it quotes is a file. The checker is shown finding a helper that does not exist.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../contract-core/index.js";
import { declaredNames, quotedNames, unresolvedNames } from "./architecture-names.js";

const SANDBOX = join(REPO_ROOT, "mocks/sandbox");
/** Quoted words that are no code name, and why. */
const NOT_CODE: Record<string, string> = {
  Host: "the HTTP request header",
  __code: "the query stand-in for the Prefer header (`__code=404`)",
};
const BASES = ["", "core", "hosts/node", "hosts/msw", "contract", "areas"]
  .map((d) => join(SANDBOX, d))
  .concat(REPO_ROOT);
const declared = declaredNames(REPO_ROOT, ["mocks", "contract-core", "generated", "client"]);

describe("ARCHITECTURE.md", () => {
  it("quotes only names and files that exist", () => {
    const text = readFileSync(join(SANDBOX, "ARCHITECTURE.md"), "utf8");
    const { names, paths } = unresolvedNames(text, declared, BASES);
    expect(names.filter((n) => !(n in NOT_CODE))).toEqual([]);
    expect(paths).toEqual([]);
    expect(quotedNames(text).names.length).toBeGreaterThan(30);
  });

  it("finds a helper that does not exist, in backticks or in a map's list", () => {
    const text =
      "Throw `conflictHelper()`; see `core/nowhere.ts`.\n```\n  errors.ts   ApiError, notFound/conflictHelper\n```\n";
    expect(unresolvedNames(text, declared, BASES)).toEqual({ names: ["conflictHelper"], paths: ["core/nowhere.ts"] });
    expect(quotedNames("```\n hosts/node/cross-server.test.ts\n```").names).toEqual([]);
  });
});
