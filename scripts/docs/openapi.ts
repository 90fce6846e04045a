/**
 * Typed views (plain JSON) over a bundled OpenAPI 3.1 document for the docs build and the code-sample
 * generator; pointers, `$ref`s and operations come from the contract core, in its strict mode.
 */
import { isObj, listOperations as coreListOperations, type HttpMethod } from "../../contract-core/portable.js";
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type OpenApiDoc = JsonObject;

export type { HttpMethod } from "../../contract-core/portable.js";

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

/** The docs build follows `$ref`s in the core's strict mode: an external, missing or circular one throws. */
export const STRICT = { strict: true } as const;

/** The core's list of operations; a document without a paths object is refused. */
export function listOperations(doc: OpenApiDoc): OperationRef[] {
  if (!isObject(doc.paths)) throw new Error("The OpenAPI document has no paths object");
  return coreListOperations(doc) as OperationRef[];
}

export function operationLabel(op: Pick<OperationRef, "path" | "method" | "operation">): string {
  const id = typeof op.operation.operationId === "string" ? ` (${op.operation.operationId})` : "";
  return `${op.method.toUpperCase()} ${op.path}${id}`;
}
