// scripts/examples-list.ts: the rendering, and mocks/prism/EXAMPLES.md kept in step with the spec.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH as DEFAULT_SPEC, loadSpec } from "../../contract-core/index.js";
import { DEFAULT_OUT, renderExamplesList } from "../../scripts/examples-list.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/openapi.yaml", import.meta.url));

describe("examples list", () => {
  const text = renderExamplesList(loadSpec(FIXTURE), "fixture");

  it("lists every operation with its named examples and the Prefer header that picks each", () => {
    expect(text).toContain("each of the 5 operations");
    expect(text).toContain("## searchPeople: `GET /v1/people`");
    expect(text).toContain("| 200 | `full` (served by default) | Full rows | `Prefer: example=full` |");
    expect(text).toContain("| 200 | `compact` | Compact rows (view=compact) | `Prefer: example=compact` |");
    expect(text).toContain("| 429 | (unnamed) | TooManyRequests | `Prefer: code=429` |");
    expect(text).toContain("Shared error responses: 400, 401, 402, 429, 500 (see");
    expect(text).toContain("| 204 | (no body) (served by default) |  | (default) |");
  });

  it("does not mark an error response as served by default", () => {
    expect(text).not.toMatch(/\| 4\d\d [^\n]*served by default/);
  });

  it("mocks/prism/EXAMPLES.md is up to date with generated/openapi.json (run npm run ts -- scripts/examples-list.ts)", () => {
    expect(existsSync(DEFAULT_SPEC), "generated/openapi.json is missing: run npm run generate").toBe(true);
    const expected = renderExamplesList(loadSpec(DEFAULT_SPEC), "generated/openapi.json");
    expect(existsSync(DEFAULT_OUT) ? readFileSync(DEFAULT_OUT, "utf8") : "").toBe(expected);
  });
});
