// Request generation: the same seed gives the same sequence, every operation is covered with valid and
// invalid requests, the mutations the brief names are all produced, and discovered ids are used.
import { describe, expect, test } from "vitest";
import { DEFAULT_SPEC_PATH } from "../../contract-core/index.js";
import { loadOperations } from "./operations.js";
import { RequestGenerator } from "./requests.js";

const spec = loadOperations(DEFAULT_SPEC_PATH);
const generate = (seed: number, count = 600, extra: Partial<Parameters<RequestGenerator["generate"]>[0]> = {}) =>
  new RequestGenerator(spec).generate({ seed, count, revokedKey: true, ...extra });

describe("request generation", () => {
  test("the same seed gives the same request sequence, another seed another one", () => {
    const first = generate(1234);
    expect(generate(1234)).toEqual(first);
    expect(first).toHaveLength(600);
    const other = generate(1235);
    expect(other.map((r) => `${r.method} ${r.path} ${r.body ?? ""}`)).not.toEqual(
      first.map((r) => `${r.method} ${r.path} ${r.body ?? ""}`),
    );
  });

  test("every operation gets valid and invalid requests", () => {
    const requests = generate(99);
    for (const op of spec.operations) {
      const own = requests.filter((r) => r.operationId === op.operationId);
      expect(
        own.some((r) => r.intent === "valid"),
        op.operationId,
      ).toBe(true);
      expect(
        own.some((r) => r.intent === "invalid"),
        op.operationId,
      ).toBe(true);
    }
  });

  test("the mutations cover wrong types, ranges, empty values, enums, required, non-finite numbers, JSON, content types, sizes, encodings and keys", () => {
    const kinds = new Set(
      generate(7, 4000)
        .map((r) => r.mutation?.split(" ")[0])
        .filter(Boolean),
    );
    for (const kind of [
      "wrong_type",
      "out_of_range",
      "bad_enum",
      "missing_required",
      "non_finite",
      "bad_json",
      "wrong_content_type",
      "huge_value",
      "bad_percent_encoding",
      "missing_key",
      "malformed_key",
      "revoked_key",
      "wrong_format",
      "empty_value",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  test("non-finite integers include Infinity and 1e309", () => {
    const paths = generate(7, 4000)
      .filter((r) => r.mutation?.startsWith("non_finite"))
      .map((r) => r.path);
    expect(paths.some((p) => /=Infinity\b/.test(p))).toBe(true);
    expect(paths.some((p) => /=1e309\b/.test(p))).toBe(true);
  });

  test("no revoked-key request without a revoked key, and no key in any request", () => {
    const requests = generate(5, 600, { revokedKey: false });
    expect(requests.some((r) => r.auth === "revoked")).toBe(false);
    expect(
      requests.every((r) => !("x-api-key" in r.headers) && !/^Bearer \S{8,}/.test(r.headers.authorization ?? "")),
    ).toBe(true);
  });

  test("discovered ids are used by valid requests", () => {
    const requests = generate(3, 900, { seeds: { getPerson: { slug: ["zz-discovered-person"] } } });
    const valid = requests.filter((r) => r.operationId === "getPerson" && r.intent === "valid");
    expect(valid.filter((r) => r.path.startsWith("/people/zz-discovered-person")).length).toBeGreaterThan(
      valid.length / 3,
    );
  });

  test("deletes come last, so that the ids found before the run serve the other operations", () => {
    const methods = generate(11).map((r) => r.method);
    const firstDelete = methods.indexOf("DELETE");
    expect(firstDelete).toBeGreaterThan(0);
    expect(methods.slice(firstDelete).every((m) => m === "DELETE")).toBe(true);
  });

  test("a restricted run only has the named operations", () => {
    expect(new Set(generate(1, 50, { operations: ["getAccount"] }).map((r) => r.operationId))).toEqual(
      new Set(["getAccount"]),
    );
  });
});
