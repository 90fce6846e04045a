/**
 * Request validation derived from the spec: for every operation, one Ajv validator over its path
 * parameters, one over its query parameters (strings coerced to the schema types) and one over its JSON
 * body, compiled from the parameter and request-body schemas of generated/openapi.json, plus the rules that
 * tie query parameters together (`x-requires`, through contract-core, as the mock reads them). No parameter
 * rule is written here; only the rules the spec cannot express live in the domain code.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import {
  brokenDependency,
  createSpecCompiler,
  describeViolation,
  parseQueryInteger,
  queryValues,
  sentIn,
  singleQueryValue,
  violationFromAjv,
  type SpecCompiler,
} from "../../../contract-core/portable.js";
import { invalidRequest } from "../contract/errors.js";
import type { JsonObject, OperationSpec, SpecIndex } from "../contract/spec.js";

/** The validated input, coerced to the schema types the handler is typed with. */
export interface ValidatedInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/** Validates and coerces path parameters, query and body; throws ApiError 400 invalid_request naming the first problem. */
export type RequestValidator = (
  params: Record<string, string>,
  query: URLSearchParams,
  body: unknown,
) => ValidatedInput;

/** The violation in contract-core's words (the mock describes it the same way): "limit must be <= 100", "body/name must ...". */
function describeError(where: "query" | "path" | "body", error: ErrorObject | undefined): string {
  return error ? describeViolation(violationFromAjv(where, error)) : `invalid ${where}`;
}

function objectSchema(params: OperationSpec["parameters"], location: "query" | "path"): JsonObject {
  const list = params.filter((p) => p.in === location);
  return {
    type: "object",
    properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
    required: list.filter((p) => p.required).map((p) => p.name),
  };
}

function hasType(schema: JsonObject, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/** Integers are parsed by the core's one rule before Ajv: its coercion would take `Infinity`, `1e309` and `1e2`. */
function strictInteger(name: string, raw: string): number {
  const parsed = parseQueryInteger(name, raw);
  if (!parsed.ok) throw invalidRequest(parsed.message);
  return parsed.value;
}

function check<T>(validate: ValidateFunction, where: "query" | "path" | "body", value: T): T {
  if (!validate(value)) throw invalidRequest(describeError(where, validate.errors?.[0]));
  return value;
}

/** One validator per operation, compiled on first use (keeps start-up short). */
export function compileRequestValidators(spec: SpecIndex): Map<string, RequestValidator> {
  type Compilers = { coercing: SpecCompiler; strict: SpecCompiler };
  let compilers: Compilers | null = null;
  const options = { allErrors: false, verbose: false, useDefaults: false } as const;
  const instances = (): Compilers =>
    (compilers ??= {
      coercing: createSpecCompiler(spec.doc, { ...options, coerceTypes: true }),
      strict: createSpecCompiler(spec.doc, { ...options, coerceTypes: false }),
    });
  const out = new Map<string, RequestValidator>();
  for (const op of spec.operations) {
    let compiled: RequestValidator | null = null;
    out.set(op.operationId, (params, query, body) =>
      (compiled ??= compileOperation(op, instances().coercing, instances().strict))(params, query, body),
    );
  }
  return out;
}

function compileOperation(op: OperationSpec, coercing: SpecCompiler, strict: SpecCompiler): RequestValidator {
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const validateQuery = coercing.compile(objectSchema(op.parameters, "query"));
  const validatePath = coercing.compile(objectSchema(op.parameters, "path"));
  const validateBody = op.requestBody ? strict.compile(op.requestBody.schema) : null;
  function query(raw: URLSearchParams): Record<string, unknown> {
    const value: Record<string, unknown> = {};
    // Read once: a search operation declares dozens of parameters.
    const given = queryValues(raw);
    for (const p of queryParams) {
      const all = given.get(p.name);
      if (all === undefined) continue;
      if (hasType(p.schema, "array")) {
        value[p.name] = all.flatMap((v) => v.split(","));
        continue;
      }
      const one = singleQueryValue(p.name, all, p.schema.type);
      if (!one.ok) throw invalidRequest(one.message);
      value[p.name] = hasType(p.schema, "integer") ? strictInteger(p.name, one.value) : one.value;
    }
    // Before the schemas, as the mock checks it before Prism: both name the same problem first.
    const broken = brokenDependency(op.dependencies, sentIn(given));
    if (broken) throw invalidRequest(broken);
    return check(validateQuery, "query", value);
  }
  function body(raw: unknown): unknown {
    if (!validateBody) return raw;
    if (raw === undefined || raw === null) {
      if (op.requestBody!.required) throw invalidRequest("body must be a JSON object");
      return raw;
    }
    return check(validateBody, "body", raw);
  }
  return (params, raw, value) => ({
    params: check(validatePath, "path", { ...params }),
    query: query(raw),
    body: body(value),
  });
}
