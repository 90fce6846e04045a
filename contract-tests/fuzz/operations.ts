/**
 * The spec as the fuzzer needs it: every operation with its parameters, request body and examples, all
 * local `$ref`s of parameters and bodies followed (schemas keep theirs; the arbitraries follow them lazily).
 */
import {
  deref,
  isObj,
  listOperations,
  loadSpec,
  serverBasePath,
  type OpenApiDocument,
  type Obj,
} from "../../contract-core/index.js";

export type ParamLocation = "path" | "query" | "header";

export interface FuzzParam {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: Obj;
  /** The parameter's own `example`/`examples` (seeds for valid values). */
  examples: unknown[];
}

export interface FuzzBody {
  required: boolean;
  mediaType: string;
  schema: Obj;
  /** The media type's named examples (seeds for valid bodies). */
  examples: unknown[];
}

export interface FuzzOperation {
  operationId: string;
  method: string;
  pathTemplate: string;
  params: FuzzParam[];
  body: FuzzBody | null;
  /** Whether the operation needs a key (top-level or operation `security` not empty). */
  secured: boolean;
}

export interface FuzzSpec {
  doc: OpenApiDocument;
  basePath: string;
  operations: FuzzOperation[];
}

/** Header parameters that OpenAPI describes elsewhere and the fuzzer sets itself. */
const OWN_HEADERS = new Set(["accept", "content-type", "authorization"]);

function examplesOf(doc: OpenApiDocument, node: Obj): unknown[] {
  const out: unknown[] = [];
  if ("example" in node) out.push(node.example);
  if (isObj(node.examples)) {
    for (const example of Object.values(node.examples)) {
      const resolved = deref(doc, example);
      if (isObj(resolved) && "value" in resolved) out.push(resolved.value);
    }
  }
  return out;
}

/** A `security` list needs a key unless it is empty or one of its alternatives is `{}` (anonymous). */
const needsKey = (security: unknown): boolean =>
  Array.isArray(security) &&
  security.length > 0 &&
  !security.some((alt) => isObj(alt) && Object.keys(alt).length === 0);

export function readOperations(doc: OpenApiDocument): FuzzSpec {
  const operations: FuzzOperation[] = [];
  for (const { path: pathTemplate, method, operation: op, pathItem: item } of listOperations(doc)) {
    if (typeof op.operationId !== "string") continue;
    const byKey = new Map<string, FuzzParam>();
    for (const raw of [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...(Array.isArray(op.parameters) ? op.parameters : []),
    ]) {
      const param = deref(doc, raw);
      if (!isObj(param) || typeof param.name !== "string") continue;
      const where = param.in as ParamLocation;
      if (
        !["path", "query", "header"].includes(where) ||
        (where === "header" && OWN_HEADERS.has(param.name.toLowerCase()))
      )
        continue;
      const schema = isObj(param.schema) ? param.schema : {};
      byKey.set(`${where}:${param.name}`, {
        name: param.name,
        in: where,
        required: param.required === true || where === "path",
        schema,
        examples: [...examplesOf(doc, param), ...examplesOf(doc, deref(doc, schema) as Obj)],
      });
    }
    let body: FuzzBody | null = null;
    const requestBody = deref(doc, op.requestBody);
    if (isObj(requestBody) && isObj(requestBody.content)) {
      const [mediaType, media] =
        Object.entries(requestBody.content).find(([type]) => /json/i.test(type)) ??
        Object.entries(requestBody.content)[0] ??
        [];
      if (mediaType && isObj(media))
        body = {
          required: requestBody.required === true,
          mediaType,
          schema: isObj(media.schema) ? media.schema : {},
          examples: examplesOf(doc, media),
        };
    }
    operations.push({
      operationId: op.operationId,
      method: method.toUpperCase(),
      pathTemplate,
      params: [...byKey.values()],
      body,
      secured: needsKey(Array.isArray(op.security) ? op.security : doc.security),
    });
  }
  return { doc, basePath: serverBasePath(doc), operations };
}

export function loadOperations(specPath: string): FuzzSpec {
  return readOperations(loadSpec(specPath));
}
