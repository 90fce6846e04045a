/**
 * Each house rule: the clean fixture gives no diagnostic; the fixture changed in exactly one place gives
 * exactly that rule's diagnostic (Zalando/Baloise-style ruleset tests).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runSpectral } from "./lint.js";
import { bundleRuleset, rootRuleset } from "./ruleset.js";

type Doc = Record<string, any>;
const cleanBundle = (): Doc => JSON.parse(readFileSync(new URL("./fixtures/clean.json", import.meta.url), "utf8"));
const ROOT = fileURLToPath(new URL("../../spec/openapi.yaml", import.meta.url));
const cleanRoot = () => readFileSync(ROOT, "utf8");
const codes = (ds: { code: string | number }[]) => ds.map((d) => String(d.code));

describe("house Spectral rules on the bundle", () => {
  it("the clean fixture has no diagnostic", async () => {
    expect(codes(await runSpectral(bundleRuleset, cleanBundle()))).toEqual([]);
  });

  it.each<[string, (d: Doc) => void]>([
    ["tg-operation-id-camel-case", (d) => (d.paths["/lists"].get.operationId = "List_lists")],
    ["tg-shared-error-responses", (d) => (d.paths["/lists"].post.responses["401"] = structuredClone(d.components.responses.Unauthorized))],
    ["tg-snake-case-properties", (d) => (d.components.schemas.List.properties.createdBy = { type: "string", description: "Creator." })],
    ["tg-property-description", (d) => (d.components.schemas.List.properties.created_by = { type: "string" })],
    ["oas3-valid-media-example", (d) => (d.components.examples.ListsPage.value.data[0].member_count = "three")],
  ])("%s: one change gives exactly that diagnostic", async (rule, change) => {
    const doc = cleanBundle();
    change(doc);
    expect(codes(await runSpectral(bundleRuleset, doc))).toEqual([rule]);
  });

  it("a missing shared error response is named", async () => {
    const doc = cleanBundle();
    delete doc.paths["/lists"].get.responses["402"];
    const ds = await runSpectral(bundleRuleset, doc);
    expect(codes(ds)).toEqual(["tg-shared-error-responses"]);
    expect(ds[0]?.message).toContain("402");
  });
});

describe("house Spectral rules on the root", () => {
  it("the real root has no diagnostic", async () => {
    expect(codes(await runSpectral(rootRuleset, cleanRoot(), ROOT))).toEqual([]);
  });

  it.each<[string, (text: string) => string]>([
    ["tg-path-item-ref", (t) => t.replace("  /me:\n    $ref: paths/me.yaml\n", "  /me:\n    get:\n      operationId: getAccount\n")],
    ["tg-root-only-refs", (t) => t + "webhooks: {}\n"],
    ["tg-root-components-ref", (t) => t.replace("    bearerAuth:\n      $ref: components/securitySchemes/bearerAuth.yaml\n", "    bearerAuth:\n      type: http\n      scheme: bearer\n")],
  ])("%s: one change gives exactly that diagnostic", async (rule, change) => {
    const text = change(cleanRoot());
    expect(text).not.toBe(cleanRoot());
    expect(codes(await runSpectral(rootRuleset, text, ROOT))).toEqual([rule]);
  });
});
