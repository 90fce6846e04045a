/**
 * The values the spec holds for code to act on (a parameter's default and clamp, a property's bound, an enum's
 * values), read from the loaded spec at run time and typed from generated/: a spec change changes what the
 * sandbox does with no code edit, and a name the spec does not have fails tsc. Each read fails closed: a value
 * the code needs and the spec no longer gives throws, naming where it looked.
 */
import type { components } from "../../../generated/schema.js";
import type { OperationId, QueryParams } from "./context.js";
import { resolveRef, type JsonObject, type SpecIndex } from "./spec.js";

type Schemas = components["schemas"];
type QueryName<Id extends OperationId> = keyof QueryParams<Id> & string;

function parameterSchema(spec: SpecIndex, id: OperationId, name: string): JsonObject {
  const op = spec.byId.get(id);
  const param = op?.parameters.find((p) => p.in === "query" && p.name === name);
  if (!param) throw new Error(`spec: operation ${id} has no query parameter ${name}`);
  return resolveRef<JsonObject>(spec.doc, param.schema) ?? {};
}

function need<T>(value: unknown, ok: (v: unknown) => boolean, where: string): T {
  if (!ok(value)) throw new Error(`spec: ${where} is missing or not the kind of value the sandbox reads`);
  return value as T;
}

/** A query parameter's `default`, typed as the parameter. */
export function parameterDefault<Id extends OperationId, N extends QueryName<Id>>(
  spec: SpecIndex,
  id: Id,
  name: N,
): NonNullable<QueryParams<Id>[N]> {
  return need(parameterSchema(spec, id, name).default, (v) => v !== undefined && v !== null, `${id} ${name} default`);
}

/** A query parameter's value, or its spec default when absent. */
export function parameterValue<Id extends OperationId, N extends QueryName<Id>>(
  spec: SpecIndex,
  id: Id,
  name: N,
  query: QueryParams<Id>,
): NonNullable<QueryParams<Id>[N]> {
  const given = query[name];
  return given === undefined || given === null ? parameterDefault(spec, id, name) : (given as never);
}

export interface Clamp {
  minimum: number;
  maximum: number;
}

function clampOf(schema: JsonObject, where: string): Clamp {
  const clamp = need<JsonObject>(schema["x-clamp"], (v) => typeof v === "object" && v !== null, `${where} x-clamp`);
  const bound = (key: "minimum" | "maximum", fallback: number) =>
    clamp[key] === undefined ? fallback : need<number>(clamp[key], Number.isInteger, `${where} x-clamp.${key}`);
  return { minimum: bound("minimum", Number.MIN_SAFE_INTEGER), maximum: bound("maximum", Number.MAX_SAFE_INTEGER) };
}

/** A query parameter's `x-clamp` (spec/EXTENSIONS.md): the range a value is clamped into, not refused outside. */
export function parameterClamp<Id extends OperationId>(spec: SpecIndex, id: Id, name: QueryName<Id>): Clamp {
  return clampOf(parameterSchema(spec, id, name), `${id} ${name}`);
}

function propertySchema(spec: SpecIndex, schema: string, property: string): JsonObject {
  const components = (spec.doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  const owner = resolveRef<JsonObject | undefined>(spec.doc, components?.[schema]);
  const raw = (owner?.properties as Record<string, unknown> | undefined)?.[property];
  if (raw === undefined) throw new Error(`spec: components/schemas/${schema} has no property ${property}`);
  return resolveRef<JsonObject>(spec.doc, raw) ?? {};
}

type PropertyOf<S extends keyof Schemas> = keyof Schemas[S] & string;
type Bound = "minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems";

/** A component property's bound keyword (`maxLength`, `maxItems`, ...). */
export function propertyBound<S extends keyof Schemas>(
  spec: SpecIndex,
  schema: S,
  property: PropertyOf<S>,
  keyword: Bound,
): number {
  const where = `components/schemas/${schema}/properties/${property} ${keyword}`;
  return need(propertySchema(spec, schema, property)[keyword], Number.isInteger, where);
}

/** A component property's `default` (null allowed: a default of null is a value), typed as the property. */
export function propertyDefault<S extends keyof Schemas, P extends PropertyOf<S>>(
  spec: SpecIndex,
  schema: S,
  property: P,
): Schemas[S][P] {
  const node = propertySchema(spec, schema, property);
  const where = `components/schemas/${schema}/properties/${property} default`;
  return need(node.default, () => Object.hasOwn(node, "default"), where);
}

/** A component property's `x-clamp`. */
export function propertyClamp<S extends keyof Schemas>(spec: SpecIndex, schema: S, property: PropertyOf<S>): Clamp {
  return clampOf(propertySchema(spec, schema, property), `components/schemas/${schema}/properties/${property}`);
}

/** An enum component's values in the spec's order (a value the generated union lacks can appear only here). */
export function enumValues<S extends keyof Schemas>(spec: SpecIndex, schema: S): readonly Schemas[S][] {
  const components = (spec.doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
  const node = resolveRef<JsonObject | undefined>(spec.doc, components?.[schema]);
  return need(node?.enum, (v) => Array.isArray(v) && v.length > 0, `components/schemas/${schema} enum`);
}
