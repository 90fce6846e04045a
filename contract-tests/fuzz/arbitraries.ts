/**
 * JSON Schema (OpenAPI 3.1) to fast-check arbitraries of values the schema accepts. Sizes are kept small
 * (strings up to 24 characters, arrays up to 3 items) so that a run of thousands of requests stays cheap;
 * the examples of a schema are mixed in as seeds so that valid requests reach real data.
 */
import fc from "fast-check";
import { deref, isObj, type OpenApiDocument, type Obj } from "../../contract-core/index.js";

const MAX_STRING = 24;
const MAX_ITEMS = 3;
const MAX_DEPTH = 5;

export class SchemaArbitraries {
  private readonly cache = new Map<Obj, fc.Arbitrary<unknown>>();
  declare private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
  }

  /** Follows `$ref`s and merges `allOf` parts into one schema (properties, required, and the rest shallowly). */
  resolve(schema: unknown): Obj {
    const node = deref(this.doc, schema);
    if (!isObj(node)) return {};
    if (!Array.isArray(node.allOf)) return node;
    const merged: Obj = { ...node, allOf: undefined };
    const properties: Obj = { ...(isObj(node.properties) ? node.properties : {}) };
    const required = new Set<string>(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const part of node.allOf) {
      const resolved = this.resolve(part);
      for (const [key, value] of Object.entries(resolved))
        if (!(key in merged) || merged[key] === undefined) merged[key] = value;
      if (isObj(resolved.properties)) Object.assign(properties, resolved.properties);
      if (Array.isArray(resolved.required)) for (const name of resolved.required) required.add(name as string);
    }
    return { ...merged, properties, required: [...required] };
  }

  /** The types a schema allows (`type` as a string or an array; none means any JSON value). */
  types(schema: Obj): string[] {
    if (typeof schema.type === "string") return [schema.type];
    if (Array.isArray(schema.type)) return schema.type as string[];
    if (isObj(schema.properties)) return ["object"];
    return [];
  }

  /** Valid values of `schema`, its examples weighted in. */
  valid(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
    const node = this.resolve(schema);
    const cached = this.cache.get(node);
    if (cached && depth === 0) return cached;
    const arb = this.build(node, depth);
    if (depth === 0) this.cache.set(node, arb);
    return arb;
  }

  private build(schema: Obj, depth: number): fc.Arbitrary<unknown> {
    if ("const" in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
    const examples = [
      ...(Array.isArray(schema.examples) ? schema.examples : []),
      ...("example" in schema ? [schema.example] : []),
    ];
    const types = this.types(schema);
    const generated =
      types.length === 0
        ? fc.constantFrom<unknown>("x", 1, true)
        : fc.oneof(...types.map((type) => this.ofType(type, schema, depth)));
    return examples.length > 0
      ? fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: 1 }, { arbitrary: generated, weight: 2 })
      : generated;
  }

  private ofType(type: string, schema: Obj, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer(intRange(schema));
      case "number": {
        const { min, max } = intRange(schema);
        return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      }
      case "string":
        return this.string(schema);
      case "array":
        return this.array(schema, depth);
      case "object":
        return this.object(schema, depth);
      default:
        return fc.constant(null);
    }
  }

  private string(schema: Obj): fc.Arbitrary<string> {
    const { minLength, maxLength } = lengths(schema.minLength, schema.maxLength, MAX_STRING);
    const dates = fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString());
    switch (schema.format) {
      case "uuid":
        return fc.uuid();
      case "date-time":
        return dates;
      case "date":
        return dates.map((d) => d.slice(0, 10));
      case "uri":
        return fc.webUrl();
      case "email":
        return fc.emailAddress();
    }
    if (typeof schema.pattern === "string") {
      const limit = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
      return fc
        .stringMatching(new RegExp(schema.pattern, "u"))
        .filter((s) => s.length >= minLength && s.length <= limit);
    }
    return fc.string({ minLength, maxLength });
  }

  private array(schema: Obj, depth: number): fc.Arbitrary<unknown[]> {
    const { minLength, maxLength } = lengths(schema.minItems, schema.maxItems, MAX_ITEMS);
    const items = depth >= MAX_DEPTH ? fc.constant(null) : this.valid(schema.items ?? {}, depth + 1);
    return schema.uniqueItems === true
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  private object(schema: Obj, depth: number): fc.Arbitrary<Obj> {
    const properties = isObj(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    const names = Object.keys(properties).filter((name) => required.includes(name) || depth < MAX_DEPTH);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const name of names) {
      const prop = this.resolve(properties[name]);
      if (prop.readOnly === true) continue;
      model[name] = this.valid(prop, depth + 1);
    }
    return fc.record(model, { requiredKeys: required.filter((name) => name in model) });
  }
}

/** A string's or array's length bounds from the schema, the upper one capped at `cap` (and never below the lower). */
function lengths(min: unknown, max: unknown, cap: number): { minLength: number; maxLength: number } {
  const minLength = typeof min === "number" ? min : 0;
  return { minLength, maxLength: Math.max(minLength, Math.min(typeof max === "number" ? max : cap, cap)) };
}

/** Integer bounds of a schema, clamped to a small window so generated values stay realistic. */
function intRange(schema: Obj): { min: number; max: number } {
  let min =
    typeof schema.minimum === "number"
      ? schema.minimum
      : typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + 1
        : -1000;
  let max =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - 1
        : min + 2000;
  if (max - min > 2000) max = min + 2000;
  if (min > max) min = max;
  return { min: Math.ceil(min), max: Math.floor(max) };
}
