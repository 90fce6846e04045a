/**
 * The bundled description covers exactly the reference's operations (its method and path pairs, read from the
 * reference), each documented as the reference asks; the generated OPERATIONS constant every other test
 * counts with is the same list.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPERATIONS, listOperations, loadSpec, operationKey } from "../../contract-core/index.js";
import { REFERENCE_ENV, referencePath } from "../../scripts/trace/cli.js";

const doc = loadSpec() as Record<string, any>;
const operations = listOperations(doc).map(({ method, path, operation }) => ({
  key: operationKey(method, path),
  op: operation as any,
}));

/**
 * The reference's operations: every `METHOD /path` it names (its headings, tables and lists), read from the
 * reference itself, so no hand copy of the operation list is kept. Without the reference this fails, naming it.
 */
function referenceOperations(): string[] {
  const path = referencePath(undefined);
  if (!path) throw new Error(`the written reference is needed: put it beside the repository or set ${REFERENCE_ENV}`);
  const text = readFileSync(path, "utf8");
  return [...new Set(text.match(/\b(?:GET|POST|PUT|PATCH|DELETE) \/[A-Za-z0-9_{}/.-]*[A-Za-z0-9_}]/g) ?? [])];
}

describe("the bundled description", () => {
  it("has exactly the reference's method and path pairs, as the generated OPERATIONS lists them", () => {
    expect(operations.map((o) => o.key).sort()).toEqual(referenceOperations().sort());
    expect(OPERATIONS.map((o) => operationKey(o.method, o.path))).toEqual(operations.map((o) => o.key));
    expect(OPERATIONS.map((o) => o.operationId)).toEqual(operations.map((o) => o.op.operationId));
  });

  it("serves them under a server URL ending in /v1, with both auth schemes as alternatives", () => {
    // Production first (every part reads servers[0]), then the local sandbox and mock.
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([
      "{origin}/v1",
      "http://127.0.0.1:4011/v1",
      "http://127.0.0.1:4010/v1",
    ]);
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.apiKeyAuth).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-Api-Key",
    });
  });

  it.each(operations.map((o) => [o.key, o.op]))(
    "%s: operationId, one tag, summary, description, org header, shared errors",
    (_key, op: any) => {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z]+$/);
      expect(op.tags).toHaveLength(1);
      expect(op.summary).toBeTruthy();
      expect(op.description.length).toBeGreaterThan(60);
      expect(op.parameters.some((p: any) => p.$ref === "#/components/parameters/OrgIdHeader")).toBe(true);
      for (const status of ["400", "401", "429", "500", "5XX"]) expect(op.responses, status).toHaveProperty(status);
      // "Get account stays available to inspect access.allowed": every operation but GET /me documents 402.
      if (op.operationId === "getAccount") expect(op.responses).not.toHaveProperty("402");
      else expect(op.responses).toHaveProperty("402");
      const retryAfter = doc.components.responses.TooManyRequests.headers["Retry-After"];
      const header = retryAfter.$ref ? doc.components.headers[retryAfter.$ref.split("/").pop()] : retryAfter;
      expect(header.required).toBe(true);
    },
  );

  it("documents a 204 without a body on both deletes", () => {
    for (const path of ["/lists/{id}", "/targets/{id}"]) {
      const ok = doc.paths[path].delete.responses["204"];
      expect(ok).toBeDefined();
      expect(ok.content).toBeUndefined();
    }
  });

  it("never lets a preferences response carry the webhook URL or secret", () => {
    const names = (schema: any) => schema.propertyNames?.not?.enum ?? [];
    const schemas = doc.components.schemas;
    expect(names(schemas.NotificationPreferences)).toEqual(expect.arrayContaining(["webhook_url", "webhook_secret"]));
    expect(names(schemas.StoredNotificationPreferences)).toEqual(
      expect.arrayContaining(["webhook", "webhook_url", "webhook_secret"]),
    );
    expect(names(schemas.WebhookStatus)).toEqual(expect.arrayContaining(["webhook_url", "webhook_secret"]));
    expect(JSON.stringify(doc.components.examples)).not.toMatch(/webhook_(url|secret)"\s*:/);
  });

  it("flags every shape the reference does not show, and only with the documented extension", () => {
    const flagged = Object.entries<any>(doc.components.schemas)
      .filter(([, s]) => s["x-shape-not-shown"])
      .map(([n]) => n);
    expect(flagged).toEqual(expect.arrayContaining(["Account", "OpenObject", "ServerErrorBody"]));
    const extensions = new Set(JSON.stringify(doc).match(/"x-[a-zA-Z-]+"/g));
    const documented = readFileSync(new URL("../EXTENSIONS.md", import.meta.url), "utf8");
    for (const ext of extensions) expect(documented, ext).toContain(`\`${ext.slice(1, -1)}\``);
  });
});
