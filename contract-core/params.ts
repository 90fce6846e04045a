/** Parameter and header values arrive as strings: coerce them per their schema before validation. */
import type { ContractModel, ParamSet, ParamSpec } from "./model.js";
import type { Obj } from "./pointer.js";

const NUMBER = /^-?(\d+|\d*\.\d+)([eE][+-]?\d+)?$/;

function typesOf(schema: Obj, model: ContractModel): string[] {
  const resolved = model.resolveSchema(schema);
  const type = resolved.type;
  return Array.isArray(type) ? type.map(String) : typeof type === "string" ? [type] : [];
}

function coerceScalar(value: string, schema: Obj, model: ContractModel): unknown {
  const types = typesOf(schema, model);
  if ((types.includes("integer") || types.includes("number")) && NUMBER.test(value)) return Number(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.includes("null") && value === "null" && !types.includes("string")) return null;
  return value;
}

const SEPARATORS: Record<string, string> = { form: ",", simple: ",", spaceDelimited: " ", pipeDelimited: "|" };

function coerceParam(values: string[], param: ParamSpec, model: ContractModel): unknown {
  const schema = model.resolveSchema(param.schema);
  if (typesOf(schema, model).includes("array")) {
    const items = (schema.items ?? {}) as Obj;
    const raw = param.explode ? values : values.flatMap((v) => v.split(SEPARATORS[param.style] ?? ","));
    return raw.map((v) => coerceScalar(v, items, model));
  }
  // A repeated scalar parameter is kept as an array so the type check reports it.
  return values.length === 1
    ? coerceScalar(values[0]!, param.schema, model)
    : values.map((v) => coerceScalar(v, param.schema, model));
}

/** Builds the object validated by a ParamSet: only documented names, coerced values. */
export function coerceParams(set: ParamSet, lookup: (key: string) => string[], model: ContractModel): Obj {
  const out: Obj = {};
  for (const param of set.params) {
    const values = lookup(param.key);
    if (values.length > 0) out[param.key] = coerceParam(values, param, model);
  }
  return out;
}
