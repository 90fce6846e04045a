// Violation wording, the error vocabulary, pointer resolution and operation iteration, with the inputs they must reject.
import { describe, expect, it } from "vitest";
import { describeViolation, describeViolations, violationFromAjv } from "./violations.js";
import {
  ERROR_TYPES,
  TYPE_BY_STATUS,
  errorBody,
  errorTypeForStatus,
  isErrorBody,
  isFrameworkErrorBody,
} from "./error-vocabulary.js";
import { deref, followRef, resolvePointer } from "./pointer.js";
import { HTTP_METHODS, OPERATIONS, listOperations } from "./operations.js";
import { loadSpec, SpecLoadError, DEFAULT_SPEC_PATH } from "./spec.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("violation wording", () => {
  it("names the parameter, not its location", () => {
    expect(describeViolation({ location: "query", name: "limit", message: "must be <= 100" })).toBe(
      "limit must be <= 100",
    );
    expect(describeViolation({ location: "body", name: "", message: "must have required property 'status'" })).toBe(
      "body must have required property 'status'",
    );
    expect(
      describeViolation({ location: "body", name: "name", message: "must NOT have fewer than 1 characters" }),
    ).toBe("body/name must NOT have fewer than 1 characters");
    expect(describeViolations([])).toBe("invalid request");
    const twice = { location: "query", name: "limit", message: "must be <= 100" } as const;
    expect(describeViolations([twice, twice])).toBe("limit must be <= 100");
  });

  it("words Ajv errors the same way", () => {
    const max = { keyword: "maximum", instancePath: "/limit", params: { limit: 100 }, message: "must be <= 100" };
    expect(describeViolation(violationFromAjv("query", max))).toBe("limit must be <= 100");
    const en = { keyword: "enum", instancePath: "/view", params: { allowedValues: ["full", "compact"] }, message: "x" };
    expect(describeViolation(violationFromAjv("query", en))).toBe("view must be one of: full, compact");
    const req = { keyword: "required", instancePath: "", params: { missingProperty: "status" } };
    expect(describeViolation(violationFromAjv("body", req))).toBe("body must have required property 'status'");
    expect(describeViolation(violationFromAjv("query", req))).toBe("query must have required property 'status'");
    const extra = { keyword: "additionalProperties", instancePath: "/a", params: { additionalProperty: "b" } };
    expect(describeViolation(violationFromAjv("body", extra))).toBe("body/a must NOT have additional property 'b'");
    // The spec's "1-80 characters after trimming" pattern is worded as the reference says it; any other pattern is not.
    const pattern = (source: string) => ({
      keyword: "pattern",
      instancePath: "/name",
      params: { pattern: source },
      message: `must match pattern "${source}"`,
    });
    const trimmed = String.raw`^\s*\S(?:[\s\S]{0,78}\S)?\s*$`;
    expect(describeViolation(violationFromAjv("body", pattern(trimmed)))).toBe(
      "body/name must be 1-80 characters after trimming",
    );
    expect(describeViolation(violationFromAjv("body", pattern("^[a-z]+$")))).toBe(
      'body/name must match pattern "^[a-z]+$"',
    );
  });
});

describe("error vocabulary", () => {
  it("maps each status to the reference's type and no other", () => {
    expect(TYPE_BY_STATUS).toEqual({
      400: "invalid_request",
      401: "unauthorized",
      402: "payment_required",
      404: "not_found",
      409: "conflict",
    });
    expect(errorTypeForStatus(429)).toBeUndefined();
    expect(errorTypeForStatus(500)).toBeUndefined();
    for (const type of Object.values(TYPE_BY_STATUS)) expect(ERROR_TYPES).toContain(type);
  });

  it("builds and recognizes both shapes, a long message kept whole (the spec bounds none)", () => {
    expect(errorBody("not_found", "no such person")).toEqual({
      error: { type: "not_found", message: "no such person" },
    });
    expect(errorBody("invalid_request", "x".repeat(5000)).error.message).toHaveLength(5000);
    expect(isErrorBody({ error: { type: "conflict", message: "m" } }, "conflict")).toBe(true);
    expect(isErrorBody({ error: { type: "conflict", message: "m" } }, "not_found")).toBe(false);
    expect(isErrorBody({ error: { type: "conflict", message: "" } })).toBe(false);
    expect(isErrorBody({ statusCode: 429, error: "Too Many Requests", message: "slow" })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
    expect(isFrameworkErrorBody({ statusCode: 429, error: "Too Many Requests", message: "slow" })).toBe(true);
    expect(isFrameworkErrorBody({ error: { type: "x", message: "y" } })).toBe(false);
  });
});

describe("pointers and $refs", () => {
  const doc = {
    a: { "b/c": [1, { d: 2 }] },
    r1: { $ref: "#/r2" },
    r2: { $ref: "#/a" },
    loop: { $ref: "#/loop" },
    ext: { $ref: "other.yaml#/x" },
    sib: { $ref: "#/t", description: "own" },
    t: { type: "string", description: "target" },
  };
  it("resolves pointers with escapes and arrays; undefined when absent", () => {
    expect(resolvePointer(doc, "#/a/b~1c/1/d")).toBe(2);
    expect(resolvePointer(doc, "/a/b~1c/0")).toBe(1);
    expect(resolvePointer(doc, "#")).toBe(doc);
    expect(resolvePointer(doc, "#/a/missing")).toBeUndefined();
    expect(resolvePointer(doc, "#/a/b~1c/0/deeper")).toBeUndefined();
    expect(resolvePointer(doc, "#/a/toString")).toBeUndefined();
  });

  it("follows chains, stops on cycles and external refs, and throws in strict mode", () => {
    expect(deref(doc, doc.r1)).toBe(doc.a);
    expect(followRef(doc, doc.r1).ref).toBe("#/a");
    expect(deref(doc, doc.loop)).toEqual({ $ref: "#/loop" });
    expect(deref(doc, doc.ext)).toBe(doc.ext);
    expect(() => deref(doc, doc.loop, { strict: true })).toThrow("Circular $ref #/loop");
    expect(() => deref(doc, doc.ext, { strict: true })).toThrow("Only local $refs");
    expect(() => deref(doc, { $ref: "#/nope" }, { strict: true })).toThrow("Unresolvable $ref #/nope");
    expect(deref(doc, doc.sib, { mergeSiblings: true })).toEqual({ type: "string", description: "own" });
    expect(deref(doc, doc.sib)).toBe(doc.t);
  });
});

describe("operations and spec loading", () => {
  it("lists every operation of the bundle with all eight methods considered", () => {
    expect(HTTP_METHODS).toHaveLength(8);
    const ops = listOperations(loadSpec(DEFAULT_SPEC_PATH));
    expect(ops.map((o) => [o.operation.operationId, o.method.toUpperCase(), o.path])).toEqual(
      OPERATIONS.map((o) => [o.operationId, o.method, o.path]),
    );
    expect(new Set(ops.map((o) => o.operation.operationId)).size).toBe(OPERATIONS.length);
    expect(
      listOperations({ paths: { "/x": { trace: { operationId: "t" }, parameters: [] } } }).map((o) => o.method),
    ).toEqual(["trace"]);
    expect(listOperations({})).toEqual([]);
  });

  it("reads YAML and JSON and rejects what is not an OpenAPI document, naming the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "core-spec-"));
    try {
      const yaml = join(dir, "a.yaml");
      writeFileSync(yaml, "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n");
      expect(loadSpec(yaml).openapi).toBe("3.1.0");
      const bad = join(dir, "b.json");
      writeFileSync(bad, "{ nope");
      expect(() => loadSpec(bad)).toThrow(SpecLoadError);
      expect(() => loadSpec(bad)).toThrow(/b\.json is not valid JSON/);
      const swagger = join(dir, "c.yaml");
      writeFileSync(swagger, "swagger: '2.0'\n");
      expect(() => loadSpec(swagger)).toThrow(/c\.yaml is not an OpenAPI document/);
      expect(() => loadSpec(join(dir, "missing.json"))).toThrow(/cannot read .*missing\.json: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
