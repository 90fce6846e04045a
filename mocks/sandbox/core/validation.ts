/**
 * Request validation derived from the spec: for every operation, one schema check (contract-core's) over its
 * path parameters, one over its query parameters (strings read as the schema types) and one over its JSON
 * body, read from the parameter and request-body schemas of generated/openapi.json, plus the rules that
 * tie query parameters together (`x-requires`, through contract-core, as the mock reads them). No parameter
 * rule is written here; only the rules the spec cannot express live in the domain code.
 */
import {
  brokenDependency,
  createSpecChecker,
  describeViolation,
  parseQueryInteger,
  queryValues,
  sentIn,
  singleQueryValue,
  violationFromAjv,
  type SchemaCheck,
  type SchemaError,
  type SpecChecker,
} from "../../../contract-core/portable.js";
import { invalidRequest } from "../contract/errors.js";
import { resolveRef, type JsonObject, type OperationSpec, type SpecIndex } from "../contract/spec.js";

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
function describeError(where: "query" | "path" | "body", error: SchemaError): string {
  return describeViolation(violationFromAjv(where, error));
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

/**
 * A query or path value as its schema's type: an integer by the core's one rule (decimal digits, finite: a
 * number parser would take `Infinity`, `1e309` and `1e2`), `true`/`false` as a boolean, a decimal as a number.
 * Any other text stays a string, so the schema check names the type it must be.
 */
function typedValue(name: string, schema: JsonObject, raw: string): unknown {
  if (hasType(schema, "integer")) {
    const parsed = parseQueryInteger(name, raw);
    if (!parsed.ok) throw invalidRequest(parsed.message);
    return parsed.value;
  }
  if (hasType(schema, "boolean") && (raw === "true" || raw === "false")) return raw === "true";
  if (hasType(schema, "number") && raw.trim() !== "" && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

function check<T>(checkValue: SchemaCheck, where: "query" | "path" | "body", value: T): T {
  const error = checkValue(value);
  if (error) throw invalidRequest(describeError(where, error));
  return value;
}

/** One validator per operation, made on first use (keeps start-up short). */
export function compileRequestValidators(spec: SpecIndex): Map<string, RequestValidator> {
  let checker: SpecChecker | null = null;
  const out = new Map<string, RequestValidator>();
  for (const op of spec.operations) {
    let compiled: RequestValidator | null = null;
    out.set(op.operationId, (params, query, body) =>
      (compiled ??= compileOperation(spec.doc, op, (checker ??= createSpecChecker(spec.doc))))(params, query, body),
    );
  }
  return out;
}

function compileOperation(doc: JsonObject, op: OperationSpec, checker: SpecChecker): RequestValidator {
  const queryParams = op.parameters.filter((p) => p.in === "query");
  /** A parameter schema with its `$ref` followed: the type its text is read as. */
  const typeOf = (schema: unknown): JsonObject => resolveRef<JsonObject>(doc, schema) ?? {};
  const validateQuery = checker.compile(objectSchema(op.parameters, "query"));
  const validatePath = checker.compile(objectSchema(op.parameters, "path"));
  const validateBody = op.requestBody ? checker.compile(op.requestBody.schema) : null;
  function query(raw: URLSearchParams): Record<string, unknown> {
    const value: Record<string, unknown> = {};
    // Read once: a search operation declares dozens of parameters.
    const given = queryValues(raw);
    for (const p of queryParams) {
      const all = given.get(p.name);
      if (all === undefined) continue;
      const schema = typeOf(p.schema);
      if (hasType(schema, "array")) {
        const items = typeOf(schema.items);
        value[p.name] = all.flatMap((v) => v.split(",")).map((v) => typedValue(p.name, items, v));
        continue;
      }
      const one = singleQueryValue(p.name, all, p.schema.type);
      if (!one.ok) throw invalidRequest(one.message);
      value[p.name] = typedValue(p.name, schema, one.value);
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
    // Path parameters stay text: the spec's are strings (a number there would be named by the check).
    params: check(validatePath, "path", { ...params }),
    query: query(raw),
    body: body(value),
  });
}
