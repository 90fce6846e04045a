/**
 * Minimal, dependency-free helpers over a bundled OpenAPI 3.1 document (plain JSON), shared by the
 * docs build and the code-sample generator.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type OpenApiDoc = JsonObject;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationRef {
  path: string;
  method: HttpMethod;
  operation: JsonObject;
  /** Parameters declared on the path item, shared by its operations. */
  pathItem: JsonObject;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON pointer (`#/components/...`), failing loudly on anything else. */
export function resolvePointer(doc: OpenApiDoc, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported in the bundle, got ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !(key in node)) throw new Error(`Unresolvable $ref ${ref}`);
    node = node[key] as Json;
  }
  return node;
}

/** Follows `$ref` chains until a non-reference node is reached. */
export function deref(doc: OpenApiDoc, node: Json | undefined): Json | undefined {
  const seen = new Set<string>();
  let current = node;
  while (isObject(current) && typeof current.$ref === "string") {
    if (seen.has(current.$ref)) throw new Error(`Circular $ref ${current.$ref}`);
    seen.add(current.$ref);
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

export function listOperations(doc: OpenApiDoc): OperationRef[] {
  const paths = doc.paths;
  if (!isObject(paths)) throw new Error("The OpenAPI document has no paths object");
  const operations: OperationRef[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = deref(doc, rawItem);
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) operations.push({ path, method, operation, pathItem });
    }
  }
  return operations;
}

export function operationLabel(op: Pick<OperationRef, "path" | "method" | "operation">): string {
  const id = typeof op.operation.operationId === "string" ? ` (${op.operation.operationId})` : "";
  return `${op.method.toUpperCase()} ${op.path}${id}`;
}
