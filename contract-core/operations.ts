/**
 * The HTTP methods of an OpenAPI path item, iteration over a document's operations, and the spec's own
 * operations as a constant (generated from the bundle, for code and tests that need the list or its length).
 */
import { OPERATIONS } from "../generated/spec-constants.js";
import { deref, isObj, type Obj } from "./pointer.js";

/** Every operation of the spec (operationId, method, path template), in document order: `npm run generate` writes it. */
export { OPERATIONS };
export type SpecOperation = (typeof OPERATIONS)[number];

/** Every method a path item can hold (OpenAPI 3.1 `Path Item Object`), in the order the spec lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  path: string;
  method: HttpMethod;
  operation: Obj;
  /** The (dereferenced) path item: its `parameters` are shared by its operations. */
  pathItem: Obj;
}

/** Every operation of `doc`, in document order (paths) and method order (HTTP_METHODS). */
export function listOperations(doc: unknown): OperationEntry[] {
  const paths = isObj(doc) ? doc.paths : undefined;
  if (!isObj(paths)) return [];
  const operations: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = deref(doc, rawItem);
    if (!isObj(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObj(operation)) operations.push({ path, method, operation, pathItem });
    }
  }
  return operations;
}

/** `GET /people/{slug}`. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}
