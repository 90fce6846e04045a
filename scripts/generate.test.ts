// The spec's constants (error types, operations) as `npm run generate` writes them, and the spec it refuses.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SPEC_PATH, REPO_ROOT, loadSpec } from "../contract-core/index.js";
import { renderSpecConstants } from "./generate.js";

const bundle = () => structuredClone(loadSpec(DEFAULT_SPEC_PATH)) as Record<string, any>;

describe("renderSpecConstants", () => {
  it("writes the Error schema's enum and every operation, as committed in generated/spec-constants.ts", () => {
    const text = renderSpecConstants(bundle());
    expect(text).toBe(readFileSync(`${REPO_ROOT}/generated/spec-constants.ts`, "utf8"));
    expect(text).toContain('  "certification_target_unsupported",\n');
    expect(text).toContain('  { operationId: "getPerson", method: "GET", path: "/people/{slug}" },\n');
  });

  it("adds an error type added to the enum", () => {
    const doc = bundle();
    doc.components.schemas.Error.properties.error.properties.type.enum.push("rate_limited");
    expect(renderSpecConstants(doc)).toContain('  "rate_limited",\n] as const;');
  });

  it("refuses a spec whose Error type has no enum of strings, so no hand copy can stand in", () => {
    const noEnum = bundle();
    delete noEnum.components.schemas.Error.properties.error.properties.type.enum;
    expect(() => renderSpecConstants(noEnum)).toThrow("components/schemas/Error's error.type has no enum");
    const numbers = bundle();
    numbers.components.schemas.Error.properties.error.properties.type.enum = [400];
    expect(() => renderSpecConstants(numbers)).toThrow("has no enum");
  });
});
