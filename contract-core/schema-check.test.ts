// The schema checker (@cfworker/json-schema) names the first violation in Ajv's words: each keyword the spec
// uses, refused with the words violations.ts gives it, and the same judgement and words as Ajv's on the
// spec's own schemas with their examples broken at random.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAjv, createSpecCompiler } from "./ajv.js";
import { COMPONENTS_ID, pointRefsAt } from "./component-refs.js";
import { createSpecChecker } from "./schema-check.js";
import { loadSpec } from "./spec.js";
import { describeViolation, violationFromAjv } from "./violations.js";
import { deref, isObj, type Obj } from "./pointer.js";
import { listOperations } from "./operations.js";

const doc = {
  components: {
    schemas: {
      Name: { type: "string", minLength: 1, maxLength: 3 },
      Item: {
        type: "object",
        required: ["name", "count"],
        additionalProperties: false,
        properties: {
          name: { $ref: "#/components/schemas/Name" },
          count: { type: ["integer", "null"], minimum: 1, format: "int32" },
          big: { type: "integer", format: "int64" },
          kind: { enum: ["a", "b"] },
          tags: { type: "array", items: { type: "string", pattern: "\\S" }, maxItems: 2, uniqueItems: true },
          fixed: { const: false },
          counts: { type: "object", additionalProperties: { type: "integer" } },
          filters: { type: "object", propertyNames: { not: { enum: ["limit"] } } },
          either: { anyOf: [{ type: "string" }, { type: "array", contains: { const: "x" } }] },
          trimmed: { type: "string", pattern: "^\\s*\\S(?:[\\s\\S]{0,78}\\S)?\\s*$" },
          even: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 2 },
          some: { type: "array", minItems: 1 },
          bag: { type: "object", minProperties: 1, maxProperties: 2 },
          one: { oneOf: [{ type: "integer" }, { type: "number" }] },
          never: false,
        },
      },
    },
  },
};
const item = createSpecChecker(doc).compile({ $ref: "#/components/schemas/Item" });
const words = (value: unknown) => {
  const error = item(value);
  return error && describeViolation(violationFromAjv("body", error));
};
const ajvItem = createSpecCompiler(doc, { allErrors: false, verbose: false }).compile({
  $ref: "#/components/schemas/Item",
});
const ajvWords = (value: unknown) =>
  ajvItem(value) ? null : describeViolation(violationFromAjv("body", ajvItem.errors![0]!));
const valid = { name: "ab", count: 2 };

describe("createSpecChecker", () => {
  it("passes a valid value", () => {
    expect(item(valid)).toBeNull();
    expect(item({ ...valid, count: 2 ** 31 - 1, big: 2 ** 60 })).toBeNull();
    expect(item({ ...valid, name: "😀😀😀" })).toBeNull(); // 3 code points, 6 UTF-16 units
    expect(item({ ...valid, count: null, tags: ["a", "b"], fixed: false, counts: { a: 1 }, either: ["x"] })).toBeNull();
  });

  it.each([
    ["a value of another type", "str", "body must be object"],
    ["a missing required property", { count: 1 }, "body must have required property 'name'"],
    ["a property the schema does not list", { ...valid, z: 1 }, "body must NOT have additional property 'z'"],
    ["a too short string behind a $ref", { ...valid, name: "" }, "body/name must NOT have fewer than 1 characters"],
    ["a too long string", { ...valid, name: "abcd" }, "body/name must NOT have more than 3 characters"],
    [
      "a string too long in code points",
      { ...valid, name: "😀😀😀😀" },
      "body/name must NOT have more than 3 characters",
    ],
    ["a number under the minimum", { ...valid, count: 0 }, "body/count must be >= 1"],
    ["a fraction for an integer or null", { ...valid, count: 1.5 }, "body/count must be integer,null"],
    ["an int32 past its range", { ...valid, count: 2 ** 31 }, 'body/count must match format "int32"'],
    ["an int32 under its range", { ...valid, count: -(2 ** 31) - 1 }, "body/count must be >= 1"],
    ["an int64 that is not an integer", { ...valid, big: 0.5 }, "body/big must be integer"],
    ["a value outside an enum", { ...valid, kind: "c" }, "body/kind must be one of: a, b"],
    ["too many items", { ...valid, tags: ["a", "b", "c"] }, "body/tags must NOT have more than 2 items"],
    [
      "duplicate items",
      { ...valid, tags: ["a", "a"] },
      "body/tags must NOT have duplicate items (items ## 1 and 0 are identical)",
    ],
    ["a blank item", { ...valid, tags: [" "] }, "body/tags/0 must not be blank"],
    ["a value other than the constant", { ...valid, fixed: true }, "body/fixed must be equal to constant"],
    ["a wrong additional value", { ...valid, counts: { a: "1" } }, "body/counts/a must be integer"],
    ["a property name the schema refuses", { ...valid, filters: { limit: 1 } }, "body/filters must NOT be valid"],
    ["a value no anyOf branch takes", { ...valid, either: 1 }, "body/either must be string"],
    ["an array without the item it must contain", { ...valid, either: ["y"] }, "body/either must be string"],
    ["a trimmed length", { ...valid, trimmed: "" }, "body/trimmed must be 1-80 characters after trimming"],
    ["a number at an exclusive minimum", { ...valid, even: 0 }, "body/even must be > 0"],
    ["a number at an exclusive maximum", { ...valid, even: 10 }, "body/even must be < 10"],
    ["a number that is not a multiple", { ...valid, even: 3 }, "body/even must be multiple of 2"],
    ["too few items", { ...valid, some: [] }, "body/some must NOT have fewer than 1 items"],
    ["too few properties", { ...valid, bag: {} }, "body/bag must NOT have fewer than 1 properties"],
    ["too many properties", { ...valid, bag: { a: 1, b: 2, c: 3 } }, "body/bag must NOT have more than 2 properties"],
    ["a value two oneOf branches take", { ...valid, one: 1 }, "body/one must match exactly one schema in oneOf"],
    ["any value for a false schema", { ...valid, never: 1 }, "body/never boolean schema is false"],
  ])("refuses %s, in Ajv's words", (_name, value, expected) => {
    expect(words(value)).toBe(expected);
    expect(ajvWords(value)).toBe(expected);
  });

  it("names the property a propertyNames schema refused", () => {
    expect(item({ ...valid, filters: { limit: 1 } })).toMatchObject({ keyword: "not", propertyName: "limit" });
  });
});

// Agreement with Ajv on the spec itself: every component schema, its examples as the valid values, each
// broken at one place (a value replaced, a property removed or added). Both must judge alike, and where both
// refuse, the first violation must read the same.
const spec = loadSpec();
const ajv = createAjv(spec, { allErrors: false, verbose: false });
const ajvComponents = COMPONENTS_ID;
ajv.addSchema({
  $id: ajvComponents,
  $defs: JSON.parse(pointRefsAt(JSON.stringify((spec.components as Obj).schemas), "")),
});
const checker = createSpecChecker(spec);
const schemas = (spec.components as { schemas: Record<string, unknown> }).schemas;
const examples = Object.values((spec.components as { examples: Record<string, { value: unknown }> }).examples).map(
  (e) => e.value,
);

type Path = (string | number)[];
function paths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (isObj(value)) return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}
/** A copy of `value` edited at `path`: the containers on the path are copied, the rest is shared (never written). */
function change(value: unknown, path: Path, edit: (parent: Obj | unknown[], key: string | number) => void): unknown {
  const shallow = (v: unknown) => (Array.isArray(v) ? [...v] : { ...(v as Obj) });
  const copy = shallow(value);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] = shallow(parent[key]) as typeof parent;
  edit(parent as Obj | unknown[], path.at(-1)!);
  return copy;
}

describe("createSpecChecker agrees with Ajv on the spec's schemas", () => {
  const cases = Object.keys(schemas).map((name) => {
    const ref = { $ref: `#/components/schemas/${name}` };
    const ajvCheck = ajv.compile({ $ref: `${ajvComponents}#/$defs/${name}` });
    const check = checker.compile(ref);
    const own = examples.flatMap((e) => {
      const inner = isObj(e) && "data" in e ? [e, e.data, ...(Array.isArray(e.data) ? e.data : [])] : [e];
      return inner.filter((v) => ajvCheck(v));
    });
    return { name, ajvCheck, check, own };
  });

  it("finds valid examples for most schemas (the corpus is not empty)", () => {
    expect(cases.filter((c) => c.own.length > 0).length).toBeGreaterThan(15);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => breakAndCompare(c));
});

/** The spec's own schemas of each operation: its query parameters as one object, its body, its JSON answers. */
describe("createSpecChecker agrees with Ajv on each operation's schemas", () => {
  const rewrite = (schema: unknown) =>
    JSON.parse(
      JSON.stringify(schema).replace(/"\$ref":"#\/components\/schemas\//g, `"$ref":"${ajvComponents}#/$defs/`),
    );
  const exampleValues = (media: unknown): unknown[] => {
    if (!isObj(media)) return [];
    const named = isObj(media.examples) ? Object.values(media.examples).map((e) => (deref(spec, e) as Obj).value) : [];
    return [...("example" in media ? [media.example] : []), ...named];
  };
  const cases = listOperations(spec).flatMap(({ operation, pathItem }) => {
    const id = String(operation.operationId);
    const params = [...((pathItem.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])]
      .map((p) => deref(spec, p) as Obj)
      .filter((p) => p.in === "query");
    const query = {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.name),
    };
    const queryExample = Object.fromEntries(params.filter((p) => "example" in p).map((p) => [p.name, p.example]));
    const body = deref(spec, operation.requestBody) as Obj | undefined;
    const bodyMedia = isObj(body?.content) ? (body.content as Obj)["application/json"] : undefined;
    const answers = Object.entries((operation.responses as Obj) ?? {}).map(([status, r]) => {
      const content = (deref(spec, r) as Obj).content;
      return [status, isObj(content) ? content["application/json"] : undefined] as const;
    });
    return [
      [`${id} query`, query, [queryExample]] as const,
      ...(isObj(bodyMedia) ? [[`${id} body`, (bodyMedia as Obj).schema, exampleValues(bodyMedia)] as const] : []),
      ...answers
        .filter(([, media]) => isObj(media) && media.schema)
        .map(([status, media]) => [`${id} ${status}`, (media as Obj).schema, exampleValues(media)] as const),
    ];
  });
  it.each(cases)("%s", (_name, schema, values) => {
    const ajvCheck = ajv.compile(rewrite(schema));
    breakAndCompare({ ajvCheck, check: checker.compile(schema), own: values.filter((v) => ajvCheck(v)) });
  });
});

/** Values broken per schema: enough to reach every keyword the spec uses, short enough for `npm test`. */
const RUNS = 300;

interface Compared {
  ajvCheck: ReturnType<typeof ajv.compile>;
  check: ReturnType<typeof checker.compile>;
  /** Valid values to break (examples of the spec that Ajv takes). */
  own: unknown[];
}

/** Each valid value broken at one place: both checks judge alike, and where both refuse, the words agree. */
function breakAndCompare({ ajvCheck, check, own }: Compared) {
  const seeds = own.length > 0 ? own : [{}];
  // Each seed's places, listed once: the property breaks the same few seeds hundreds of times.
  const places = new Map(seeds.map((seed) => [seed, paths(seed)]));
  fc.assert(
    fc.property(
      fc.constantFrom(...seeds),
      fc.nat(),
      fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constant("zz")),
      (seed, at, replacement) => {
        const all = places.get(seed)!;
        const path = all[at % all.length]!;
        const broken =
          path.length === 0
            ? (replacement ?? null)
            : change(seed, path, (parent, key) => {
                if (replacement === undefined && !Array.isArray(parent)) delete (parent as Obj)[key];
                else if (replacement === "zz" && isObj(parent)) (parent as Obj).zz_extra = 1;
                else (parent as never as Record<string | number, unknown>)[key] = replacement ?? null;
              });
        const ours = check(broken);
        const theirs = ajvCheck(broken) ? null : ajvCheck.errors![0]!;
        // The expectations run where the two differ (about 100,000 values are compared in all): each fails there.
        if ((ours === null) !== (theirs === null)) expect(ours === null).toBe(theirs === null);
        if (ours && theirs) {
          const [mine, ajvs] = [ours, theirs].map((e) => describeViolation(violationFromAjv("body", e)));
          if (mine !== ajvs) expect(mine).toBe(ajvs);
        }
      },
    ),
    { numRuns: RUNS, seed: 20261128 },
  );
}
