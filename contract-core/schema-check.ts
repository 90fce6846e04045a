/**
 * Checks values against the spec's schemas with @cfworker/json-schema and reports the first violation as an
 * Ajv error object (keyword, instancePath, params, and the message in Ajv's words), so violations.ts words it
 * as it words the contract tests' Ajv errors. It interprets schemas instead of generating code: no `eval`
 * (a page with a strict Content-Security-Policy can run it) and a few kB in a browser bundle, where Ajv and
 * its formats weigh about 44 kB gzipped. The sandbox (every host) and the mock's own request checks use it;
 * the contract tests keep Ajv (ajv.ts), whose full reports they need.
 */
import { dereference, validate, type OutputUnit, type Schema } from "@cfworker/json-schema";
import { COMPONENTS_ID, pointRefsAt } from "./component-refs.js";
import { escapeToken, isObj, unescapeToken } from "./pointer.js";
import { termListRule, termsOf } from "./term-list.js";
import type { AjvLikeError } from "./violations.js";

/** A violation as Ajv reports it (the fields violations.ts and the sandbox's state checks read). */
export interface SchemaError extends AjvLikeError {
  message: string;
}

/** The first violation of `value`, or null when it is valid. Values must be JSON (no `undefined`). */
export type SchemaCheck = (value: unknown) => SchemaError | null;

/** What `createSpecChecker` returns: a checker for the document's schemas. */
export interface SpecChecker {
  /** The check of `schema`, a schema of the document whose `$ref`s point into `#/components/schemas`. */
  compile(schema: unknown): SchemaCheck;
}

/** Each compiled schema gets an id of its own under this base (the checker's lookup holds them all). */
const BASE = "https://contract.talent-graph.example/schema/";

/**
 * The OpenAPI integer format with a range (ajv-formats' int32 check): @cfworker/json-schema checks formats on
 * strings only. int64 needs nothing: ajv-formats takes any integer for it, as `type: integer` does.
 */
const INTEGER_FORMATS: Record<string, [number, number]> = { int32: [-(2 ** 31), 2 ** 31 - 1] };

/** Ajv's comparison of each number bound: `must be <= 100`. */
const COMPARISONS: Record<string, string> = {
  minimum: ">=",
  maximum: "<=",
  exclusiveMinimum: ">",
  exclusiveMaximum: "<",
};

/** Ajv's words for each count limit: `must NOT have fewer than 1 characters`. */
const COUNT_LIMITS: Record<string, [string, string]> = {
  minLength: ["fewer", "characters"],
  maxLength: ["more", "characters"],
  minItems: ["fewer", "items"],
  maxItems: ["more", "items"],
  minProperties: ["fewer", "properties"],
  maxProperties: ["more", "properties"],
};

/** Ajv's message and params for a keyword that failed with `value` (the schema's value for that keyword). */
function ajvMessage(keyword: string, value: unknown): { message: string; params: Record<string, unknown> } {
  const comparison = COMPARISONS[keyword];
  if (comparison) return { message: `must be ${comparison} ${String(value)}`, params: { comparison, limit: value } };
  const count = COUNT_LIMITS[keyword];
  if (count)
    return { message: `must NOT have ${count[0]} than ${String(value)} ${count[1]}`, params: { limit: value } };
  switch (keyword) {
    case "type":
      return { message: `must be ${String(value)}`, params: { type: value } };
    case "multipleOf":
      return { message: `must be multiple of ${String(value)}`, params: { multipleOf: value } };
    case "pattern":
      return { message: `must match pattern "${String(value)}"`, params: { pattern: value } };
    case "format":
      return { message: `must match format "${String(value)}"`, params: { format: value } };
    case "enum":
      return { message: "must be equal to one of the allowed values", params: { allowedValues: value } };
    case "const":
      return { message: "must be equal to constant", params: { allowedValue: value } };
    case "not":
      return { message: "must NOT be valid", params: {} };
    case "anyOf":
      return { message: "must match a schema in anyOf", params: {} };
    case "oneOf":
      return { message: "must match exactly one schema in oneOf", params: {} };
    case "contains":
      return { message: "must contain at least 1 valid item(s)", params: { minContains: 1 } };
    default:
      return { message: "must be valid", params: {} };
  }
}

/** The tokens of an output unit's location (`#/a%20b/c~1d`: URI-encoded JSON pointer tokens). */
const tokens = (location: string) =>
  location === "#"
    ? []
    : location
        .slice(2)
        .split("/")
        .map((token) => unescapeToken(decodeURIComponent(token)));

/** An output unit's location as Ajv's instancePath (`/a b/c~1d`: JSON pointer, not URI-encoded). */
const instancePath = (location: string) =>
  tokens(location)
    .map((token) => `/${escapeToken(token)}`)
    .join("");

/** The value at `location` (JSON pointer tokens after `#`) in `value`. */
function at(value: unknown, location: string): unknown {
  let node = value;
  for (const token of tokens(location)) node = isObj(node) || Array.isArray(node) ? (node as never)[token] : undefined;
  return node;
}

/**
 * The first unit that names a violation: past the units that only wrap their subschema's units, with
 * the property an `additionalProperties: false` refused and the name a `propertyNames` schema refused.
 */
function firstViolation(units: OutputUnit[]): {
  unit: OutputUnit;
  at: string;
  property?: string;
  propertyName?: string;
} {
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const next = units[i + 1];
    // `additionalProperties: false` fails as a `false` schema located at the property itself.
    if (unit.keyword === "additionalProperties" && next?.keyword === "false")
      return { unit, at: unit.instanceLocation, property: tokens(next.instanceLocation).at(-1)! };
    if (unit.keyword === "propertyNames" && next) {
      // Ajv reports a refused name at the object that holds it.
      const leaf = firstViolation(units.slice(i + 1));
      return { ...leaf, at: unit.instanceLocation, propertyName: tokens(next.instanceLocation).at(-1)! };
    }
    // A unit followed by one inside it only says that a subschema failed ($ref, properties, items, anyOf,
    // contains, ...): Ajv reports the inner violation first.
    if (next?.keywordLocation.startsWith(`${unit.keywordLocation}/`)) continue;
    // A `false` subschema's unit is located at the instance, not under the keyword that holds it.
    if (next?.keyword === "false" && next.instanceLocation.startsWith(`${unit.instanceLocation}/`)) continue;
    return { unit, at: unit.instanceLocation };
  }
  return { unit: units[0]!, at: units[0]!.instanceLocation };
}

/**
 * A checker for any schema of the document, its component `$ref`s pointing to the document's
 * `#/components/schemas`. The components are read once per checker; each `compile` reads its schema once.
 */
export function createSpecChecker(doc: unknown): SpecChecker {
  const components = (doc as { components?: { schemas?: unknown } } | null)?.components?.schemas ?? {};
  const rewrite = (text: string, base: string) => JSON.parse(pointRefsAt(text, base), withIntegerBounds) as Schema;
  const lookup = dereference({ $id: COMPONENTS_ID, $defs: rewrite(JSON.stringify(components), "") });
  let count = 0;
  const componentTermLists = JSON.stringify(components).includes('"x-term-list"');
  return {
    compile(schema) {
      const text = JSON.stringify(schema ?? {});
      const root = { ...(rewrite(text, COMPONENTS_ID) as object), $id: `${BASE}${++count}` };
      dereference(root, lookup);
      const termLists = componentTermLists || text.includes('"x-term-list"');
      return (value) => {
        const result = validate(value, root, "2020-12", lookup, true);
        if (!result.valid) return toAjv(root, value, result.errors);
        return termLists ? termListViolation(root, value, "", 0) : null;
      };
    },
  };

  /**
   * The first `x-term-list` (term-list.ts) that a valid value breaks, as a violation of keyword `x-term-list`
   * at the string: followed through `$ref`, `allOf` and the properties of an object.
   */
  function termListViolation(schema: unknown, value: unknown, path: string, depth: number): SchemaError | null {
    if (!isObj(schema) || depth > 64) return null;
    const rule = termListRule(schema);
    // A list with an alias is checked with it, from the object that holds both (below); on its own, alone.
    if (rule && typeof value === "string" && (rule.alias === undefined || path === "")) {
      const found = termsOf(rule, value);
      if (!found.ok) return { keyword: "x-term-list", instancePath: path, params: { rule }, message: found.message };
    }
    if (typeof schema.$ref === "string") {
      const found = termListViolation(
        lookup[(schema.__absolute_ref__ ?? schema.$ref) as string],
        value,
        path,
        depth + 1,
      );
      if (found) return found;
    }
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) {
        const found = termListViolation(part, value, path, depth + 1);
        if (found) return found;
      }
    if (isObj(schema.properties) && isObj(value))
      for (const [name, sub] of Object.entries(schema.properties)) {
        const at = `${path}/${escapeToken(name)}`;
        const aliased = termListRule(sub);
        if (aliased?.alias !== undefined && (value[name] !== undefined || value[aliased.alias] !== undefined)) {
          // A list with a single-term alias: the alias's value counts as one more term of it.
          const alias = value[aliased.alias];
          const own = value[name];
          const found = termsOf(
            aliased,
            typeof own === "string" ? own : undefined,
            typeof alias === "string" ? alias : undefined,
          );
          if (!found.ok)
            return { keyword: "x-term-list", instancePath: at, params: { rule: aliased }, message: found.message };
        }
        if (Object.hasOwn(value, name)) {
          const found = termListViolation(sub, value[name], at, depth + 1);
          if (found) return found;
        }
      }
    return null;
  }

  /** The schema node a keyword location points at, following the `$ref`s on the way. */
  function schemaAt(root: Schema, location: string): unknown {
    let node: unknown = root;
    for (const token of tokens(location)) {
      if (token === "$ref" && isObj(node)) {
        const ref = (node.__absolute_ref__ ?? node.$ref) as string;
        node = lookup[ref];
      } else node = isObj(node) || Array.isArray(node) ? (node as never)[token] : undefined;
    }
    return node;
  }

  function toAjv(root: Schema, value: unknown, units: OutputUnit[]): SchemaError {
    const { unit, at: location, property, propertyName } = firstViolation(units);
    const path = instancePath(location);
    const extra = propertyName === undefined ? {} : { propertyName };
    if (property !== undefined)
      return {
        keyword: "additionalProperties",
        instancePath: path,
        params: { additionalProperty: property },
        message: "must NOT have additional properties",
        ...extra,
      };
    const parent = schemaAt(root, unit.keywordLocation.slice(0, unit.keywordLocation.lastIndexOf("/"))) as Schema;
    if (unit.keyword === "required") {
      const present = at(value, unit.instanceLocation) as Record<string, unknown>;
      const missing = (parent.required as string[]).find((name) => !Object.hasOwn(present, name));
      return {
        keyword: "required",
        instancePath: path,
        params: { missingProperty: missing },
        message: `must have required property '${missing}'`,
      };
    }
    const items = at(value, unit.instanceLocation);
    if (unit.keyword === "contains" && Array.isArray(items) && items.length > 0) {
      // @cfworker/json-schema keeps no item's units when none matches; Ajv reports the first item's violation.
      const location = `${unit.instanceLocation}/0`;
      const first = validate(
        items[0],
        schemaAt(root, unit.keywordLocation) as Schema,
        "2020-12",
        lookup,
        true,
        null,
        location,
        unit.keywordLocation,
      );
      if (!first.valid) return toAjv(root, value, first.errors);
    }
    if (unit.keyword === "uniqueItems") {
      const texts = (items as unknown[]).map((item) => JSON.stringify(item));
      const j = texts.findIndex((text, index) => texts.indexOf(text) !== index);
      const i = texts.indexOf(texts[j]!);
      return {
        keyword: "uniqueItems",
        instancePath: path,
        params: { i, j },
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      };
    }
    if (unit.keyword === "false")
      return { keyword: "false schema", instancePath: path, params: {}, message: "boolean schema is false" };
    const bound = isObj(parent) ? integerFormatBound(parent, unit.keyword) : undefined;
    if (bound) return { instancePath: path, ...ajvMessage("format", bound), keyword: "format", ...extra };
    return { keyword: unit.keyword, instancePath: path, ...ajvMessage(unit.keyword, parent[unit.keyword]), ...extra };
  }
}

/**
 * JSON.parse reviver: a number schema with format int32 gets the format's bounds as minimum/maximum where its
 * own are wider (its own narrower bounds keep their words); `integerFormatBound` tells them apart.
 */
function withIntegerBounds(this: unknown, _key: string, node: unknown): unknown {
  if (!isObj(node) || typeof node.format !== "string" || !INTEGER_FORMATS[node.format]) return node;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (!types.includes("integer") && !types.includes("number")) return node;
  const [low, high] = INTEGER_FORMATS[node.format]!;
  const out: Record<string, unknown> = { ...node };
  if (!(typeof node.minimum === "number" && node.minimum >= low)) out.minimum = low;
  if (!(typeof node.maximum === "number" && node.maximum <= high)) out.maximum = high;
  return out;
}

/** The integer format whose bound a minimum/maximum violation broke, when the bound is the format's. */
function integerFormatBound(schema: Record<string, unknown>, keyword: string): string | undefined {
  const bounds = typeof schema.format === "string" ? INTEGER_FORMATS[schema.format] : undefined;
  if (!bounds) return undefined;
  if (keyword === "minimum" && schema.minimum === bounds[0]) return schema.format as string;
  if (keyword === "maximum" && schema.maximum === bounds[1]) return schema.format as string;
  return undefined;
}
