/**
 * The cells of contract coverage, read from the bundled spec: every operation, each documented response status
 * (`2XX`-style ranges and `default` included) with its named examples, and each documented request parameter.
 */
import { listOperations } from "./operations.js";
import { deref, isObj, type Obj } from "./pointer.js";

export interface StatusCell {
  /** As the spec writes it: `201`, `4XX`, `default`. */
  status: string;
  /** Named examples of the status's media types, in document order. */
  examples: string[];
  /** Their values, by name (the first media type that names it). */
  values: Map<string, unknown>;
}

export interface ParamCell {
  in: "path" | "query" | "header";
  name: string;
}

export interface OperationCells {
  operationId: string;
  method: string;
  path: string;
  statuses: StatusCell[];
  parameters: ParamCell[];
}

/** A parameter's key as the contract validator reports it in error pointers (`/query/limit`, `/headers/x-a`). */
export function paramPointer(param: ParamCell): string {
  return param.in === "header" ? `/headers/${param.name.toLowerCase()}` : `/${param.in}/${param.name}`;
}

/** Header parameters OpenAPI describes elsewhere, as the contract validator ignores them. */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

function parametersOf(doc: unknown, list: unknown): ParamCell[] {
  const out: ParamCell[] = [];
  for (const raw of Array.isArray(list) ? list : []) {
    const param = deref<Obj>(doc, raw);
    if (!isObj(param) || typeof param.name !== "string") continue;
    if (param.in !== "path" && param.in !== "query" && param.in !== "header") continue;
    if (param.in === "header" && IGNORED_HEADERS.has(param.name.toLowerCase())) continue;
    out.push({ in: param.in, name: param.name });
  }
  return out;
}

/** Every cell of the spec, operations in document order. */
export function cellsOf(doc: unknown): OperationCells[] {
  return listOperations(doc).map(({ path, method, operation, pathItem }) => {
    const statuses: StatusCell[] = Object.entries(isObj(operation.responses) ? operation.responses : {}).map(
      ([status, raw]) => {
        const response = deref<Obj>(doc, raw);
        const values = new Map<string, unknown>();
        const examples = Object.values(isObj(response?.content) ? response.content : {}).flatMap((media) => {
          if (!isObj(media) || !isObj(media.examples)) return [];
          for (const [name, ref] of Object.entries(media.examples)) {
            const example = deref<Obj>(doc, ref);
            if (!values.has(name) && isObj(example) && "value" in example) values.set(name, example.value);
          }
          return Object.keys(media.examples);
        });
        return { status: status.toUpperCase(), examples: [...new Set(examples)], values };
      },
    );
    // Operation parameters override path-item ones with the same name and location.
    const own = parametersOf(doc, operation.parameters);
    const shared = parametersOf(doc, pathItem.parameters).filter(
      (p) => !own.some((o) => o.in === p.in && o.name === p.name),
    );
    return {
      operationId: String(operation.operationId),
      method: method.toUpperCase(),
      path,
      statuses,
      parameters: [...shared, ...own],
    };
  });
}
