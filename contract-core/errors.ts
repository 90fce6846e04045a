/** Turns Ajv errors into ContractErrors with a pointer into the exchange and a location in the spec. */
import type { ErrorObject } from "ajv";
import type { ContractError } from "./types.js";
import { escapeToken, join } from "./pointer.js";

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function listOf(values: unknown): string {
  return (Array.isArray(values) ? values : [values]).map((v) => (typeof v === "string" ? v : show(v))).join(" or ");
}

/** A plain message for one Ajv error, with the offending value where it helps. */
function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `missing required property "${propertyOf(error)}"`;
    case "additionalProperties":
    case "unevaluatedProperties":
    case "propertyNames":
      return `property "${propertyOf(error)}" is not allowed`;
    case "type":
      return `must be ${listOf(p.type)}, got ${show(error.data)}`;
    case "enum":
      return `must be one of ${listOf(p.allowedValues)}, got ${show(error.data)}`;
    case "const":
      return `must be ${show(p.allowedValue)}, got ${show(error.data)}`;
    case "format":
      return `must be a valid ${String(p.format)}, got ${show(error.data)}`;
    default:
      return `${error.message ?? error.keyword}${error.data !== undefined && typeof error.data !== "object" ? `, got ${show(error.data)}` : ""}`;
  }
}

/** The property a `required` / `additionalProperties` / `unevaluatedProperties` / `propertyNames` error is about. */
function propertyOf(error: ErrorObject): string | undefined {
  const p = error.params as Record<string, unknown>;
  const name =
    p.missingProperty ??
    p.additionalProperty ??
    p.unevaluatedProperty ??
    (error.keyword === "propertyNames" ? p.propertyName : undefined);
  return name === undefined ? undefined : String(name);
}

/**
 * `base` is the pointer of the validated value in the exchange (e.g. `/body`, `/query`).
 * A missing or forbidden property points at the property itself.
 */
export function fromAjv(
  errors: ErrorObject[] | null | undefined,
  side: ContractError["side"],
  base: string,
  locate: (error: ErrorObject) => string,
): ContractError[] {
  // A value of the wrong type also fails its format (int32 applies to numbers): report the type only.
  // A rejected property name is reported once by its propertyNames error, not by the inner subschema errors.
  const list = errors ?? [];
  const typeErrors = new Set(list.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  const kept = list.filter(
    (e) =>
      !(e.keyword === "format" && typeErrors.has(e.instancePath)) &&
      !(e.keyword !== "propertyNames" && e.propertyName !== undefined),
  );
  const seen = new Set<string>();
  return kept.flatMap((error) => {
    const property = propertyOf(error);
    const suffix = property === undefined ? "" : `/${escapeToken(property)}`;
    const converted: ContractError = {
      side,
      pointer: `${base}${error.instancePath}${suffix}`,
      schemaPath: locate(error),
      message: describe(error),
    };
    // The same finding from two schemas (e.g. a rule repeated through allOf) is reported once.
    const key = `${converted.pointer}\u0000${converted.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [converted];
  });
}

/** Spec location of the keyword that failed, from the parent schema object Ajv reports (verbose mode). */
export function locator(locations: WeakMap<object, string>) {
  return (error: ErrorObject): string => {
    const parent = error.parentSchema;
    const at = parent ? locations.get(parent) : undefined;
    return at ? join(at, error.keyword) : error.schemaPath;
  };
}
