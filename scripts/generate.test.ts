// The spec's constants (error types, operations) as `npm run generate` writes them, and the spec it refuses.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, loadSpec } from "../contract-core/index.js";
import { renderSpecConstants } from "./generate.js";

const bundle = () => structuredClone(loadSpec(DEFAULT_SPEC_PATH)) as Record<string, any>;

describe("renderSpecConstants", () => {
  it("writes the Error type's known values and every operation, as committed in generated/spec-constants.ts", () => {
    const text = renderSpecConstants(bundle());
    expect(text).toBe(readFileSync(`${REPO_ROOT}/generated/spec-constants.ts`, "utf8"));
    expect(text).toContain('  "certification_target_unsupported",\n');
    expect(text).toContain('  { operationId: "getPerson", method: "GET", path: "/people/{slug}" },\n');
  });

  it("adds an error type added to the list", () => {
    const doc = bundle();
    doc.components.schemas.Error.properties.error.properties.type["x-known-values"].push("rate_limited");
    expect(renderSpecConstants(doc)).toContain('  "rate_limited",\n] as const;');
  });

  it("refuses a spec whose Error type lists no strings, so no hand copy can stand in", () => {
    const none = bundle();
    delete none.components.schemas.Error.properties.error.properties.type["x-known-values"];
    expect(() => renderSpecConstants(none)).toThrow("components/schemas/Error's error.type has no x-known-values");
    const numbers = bundle();
    numbers.components.schemas.Error.properties.error.properties.type["x-known-values"] = [400];
    expect(() => renderSpecConstants(numbers)).toThrow("has no x-known-values");
  });
});
