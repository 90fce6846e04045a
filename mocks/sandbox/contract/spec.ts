/**
 * Indexes the bundled spec (generated/openapi.json, parsed by the host) into its operations: method, path, parameters,
 * request body and responses with local $refs to parameters, request bodies, responses and examples
 * resolved. Schemas keep their $refs (validation.ts compiles them against the spec's components).
 */
import {
  followRef,
  isObj,
  listOperations,
  paramDependencies,
  serverBasePath,
  type ParamDependency,
} from "../../../contract-core/portable.js";

export type JsonObject = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required: boolean;
  schema: JsonObject;
}

export interface ResponseSpec {
  description?: string;
  headers?: JsonObject;
  content?: Record<string, { schema?: JsonObject; example?: unknown; examples?: Record<string, unknown> }>;
}

export interface OperationSpec {
  operationId: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Spec path, e.g. /people/{slug}. */
  path: string;
  parameters: ParameterSpec[];
  /** Rules tying query parameters together (`x-requires`, read by contract-core). */
  dependencies: ParamDependency[];
  requestBody: { required: boolean; schema: JsonObject } | null;
  responses: Record<string, ResponseSpec>;
}

export interface SpecIndex {
  doc: JsonObject;
  /** Base path of the server URL (/v1). */
  basePath: string;
  operations: OperationSpec[];
  byId: Map<string, OperationSpec>;
}

/** Resolves a local $ref (chains included) against the document; throws when it does not resolve. */
export function resolveRef<T = unknown>(doc: JsonObject, value: unknown): T {
  const { node, ref } = followRef(doc, value, { strict: true });
  if (ref !== undefined && node === undefined) throw new Error(`Unresolved ref ${ref}`);
  return node as T;
}

export function indexSpec(doc: JsonObject): SpecIndex {
  const operations: OperationSpec[] = [];
  for (const { path, method, operation: op, pathItem } of listOperations(doc)) {
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    const params = new Map<string, ParameterSpec>();
    const declared = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])];
    for (const raw of declared) {
      const p = resolveRef<JsonObject>(doc, raw);
      params.set(`${p.in}:${p.name}`, {
        name: String(p.name),
        in: p.in as ParameterSpec["in"],
        required: p.required === true,
        schema: isObj(p.schema) ? p.schema : {},
      });
    }
    const body = op.requestBody ? resolveRef<JsonObject>(doc, op.requestBody) : null;
    const json = body && isObj(body.content) ? (body.content["application/json"] as JsonObject | undefined) : undefined;
    const responses: Record<string, ResponseSpec> = {};
    for (const [status, r] of Object.entries(isObj(op.responses) ? op.responses : {})) {
      responses[status] = resolveRef<ResponseSpec>(doc, r);
    }
    operations.push({
      operationId: String(op.operationId),
      method: method.toUpperCase() as OperationSpec["method"],
      path,
      parameters: [...params.values()],
      dependencies: paramDependencies(doc, declared),
      requestBody: json && isObj(json.schema) ? { required: body!.required === true, schema: json.schema } : null,
      responses,
    });
  }
  return { doc, basePath: serverBasePath(doc), operations, byId: new Map(operations.map((o) => [o.operationId, o])) };
}

/** The documented response for a status: exact code, then its class (4XX/5XX), then default. */
export function responseFor(op: OperationSpec, status: number): ResponseSpec | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

/** The first example body of a response (example, or the first of examples), with refs resolved. */
export function exampleBody(doc: JsonObject, response: ResponseSpec): unknown {
  const media = response.content?.["application/json"];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = media.examples ? Object.values(media.examples)[0] : undefined;
  return first === undefined ? undefined : resolveRef<JsonObject>(doc, first).value;
}
