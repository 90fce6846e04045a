/**
 * Typed views (plain JSON) over a bundled OpenAPI 3.1 document for the docs build and the code-sample
 * generator; pointers, `$ref`s and operations come from the contract core, in its strict mode.
 */
import { deref as coreDeref, isObj, listOperations as coreListOperations, type HttpMethod } from "../../contract-core/index.js";
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type OpenApiDoc = JsonObject;

export { HTTP_METHODS, type HttpMethod } from "../../contract-core/index.js";

export interface OperationRef {
  path: string;
  method: HttpMethod;
  operation: JsonObject;
  /** Parameters declared on the path item, shared by its operations. */
  pathItem: JsonObject;
}

export function isObject(value: unknown): value is JsonObject {
  return isObj(value);
}

/** Resolves a local JSON pointer (`#/components/...`), failing loudly on anything else. */
export function resolvePointer(doc: OpenApiDoc, ref: string): Json {
  return deref(doc, { $ref: ref }) as Json;
}

/** Follows `$ref` chains until a non-reference node is reached; throws on external, missing or circular ones. */
export function deref(doc: OpenApiDoc, node: Json | undefined): Json | undefined {
  return coreDeref(doc, node, { strict: true }) as Json | undefined;
}

export function listOperations(doc: OpenApiDoc): OperationRef[] {
  if (!isObject(doc.paths)) throw new Error("The OpenAPI document has no paths object");
  return coreListOperations(doc).map((op) => {
    const pathItem = deref(doc, op.pathItem as JsonObject);
    return { ...op, operation: op.operation as JsonObject, pathItem: (isObject(pathItem) ? pathItem : {}) as JsonObject };
  });
}

export function operationLabel(op: Pick<OperationRef, "path" | "method" | "operation">): string {
  const id = typeof op.operation.operationId === "string" ? ` (${op.operation.operationId})` : "";
  return `${op.method.toUpperCase()} ${op.path}${id}`;
}
