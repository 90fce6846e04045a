/**
 * Compiles an OpenAPI document into a model of operations with ready Ajv validators:
 * component schemas are moved into one `$defs` document (compiled once, shared by refs),
 * every body/parameter/header validator is compiled eagerly and cached per operation and status.
 */
import type { ValidateFunction } from "ajv";
import { createAjv } from "./ajv.js";
import { escapeToken, isObj, join, resolvePointer, type Obj } from "./pointer.js";
import { serverBasePath, type OpenApiDocument } from "./spec.js";


/** Base of the ids under which each component schema is added to Ajv once (shared by every validator). */
const SCHEMA_BASE = "https://talent-graph.invalid/components/schemas/";
const LOCAL_SCHEMA_REF = /^#\/components\/schemas\/([^/]+)(\/.*)?$/;
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** Header parameters OpenAPI says to ignore (they are described elsewhere). */
const IGNORED_HEADER_PARAMS = new Set(["accept", "content-type", "authorization"]);

export interface ParamSpec {
  name: string;
  /** Name as found in the exchange: header names lower-cased. */
  key: string;
  pointer: string;
  required: boolean;
  schema: Obj;
  style: string;
  explode: boolean;
}

/** A group of parameters (or response headers) validated together as one object. */
export interface ParamSet {
  params: ParamSpec[];
  validate: ValidateFunction;
}

export interface MediaModel {
  type: string;
  pointer: string;
  validate: ValidateFunction | null;
}

export interface ResponseModel {
  key: string;
  pointer: string;
  media: MediaModel[];
  headers: ParamSet;
}

/** `name` is lower-cased for headers; `label` is how to show it (`X-Api-Key`). */
export type Credential = { in: "header" | "query" | "cookie"; name: string; label: string; scheme?: string };

export interface OperationModel {
  operationId: string;
  method: string;
  pathTemplate: string;
  pointer: string;
  path: ParamSet;
  query: ParamSet;
  header: ParamSet;
  /** Alternatives; each alternative needs all its credentials. An empty alternative means anonymous access. */
  security: Credential[][];
  securityPointer: string;
  requestBody: { required: boolean; pointer: string; media: MediaModel[] } | null;
  responses: Map<string, ResponseModel>;
}

export interface ContractModel {
  basePath: string;
  operations: OperationModel[];
  /** Spec location of every schema object, for error reporting. */
  locations: WeakMap<object, string>;
  /** Schema lookup for `$ref`s (used by parameter coercion). */
  resolveSchema(schema: Obj): Obj;
}


/** Rewrites `#/components/schemas/X/...` refs to `<SCHEMA_BASE>X#/...` and records every object's location. */
function prepare(doc: OpenApiDocument): { clone: Obj; locations: WeakMap<object, string> } {
  const clone = structuredClone(doc) as Obj;
  const locations = new WeakMap<object, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object" || locations.has(node)) return;
    locations.set(node, pointer);
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, join(pointer, index)));
    const obj = node as Obj;
    const local = typeof obj.$ref === "string" ? LOCAL_SCHEMA_REF.exec(obj.$ref) : null;
    if (local) obj.$ref = `${SCHEMA_BASE}${local[1]}${local[2] ? `#${local[2]}` : ""}`;
    for (const [key, value] of Object.entries(obj)) walk(value, join(pointer, key));
  };
  walk(clone, "#");
  return { clone, locations };
}

export function compileModel(doc: OpenApiDocument): ContractModel {
  const { clone, locations } = prepare(doc);
  const ajv = createAjv(clone);
  const componentSchemas = (isObj(clone.components) && isObj(clone.components.schemas) ? clone.components.schemas : {}) as Obj;
  // One Ajv entry per component: a ref to a whole registered schema is compiled once and shared.
  for (const [name, schema] of Object.entries(componentSchemas)) ajv.addSchema(schema as Obj, `${SCHEMA_BASE}${escapeToken(name)}`);

  const deref = (node: unknown, pointer: string): { node: Obj; pointer: string } => {
    let current = node;
    let at = pointer;
    for (let hops = 0; isObj(current) && typeof current.$ref === "string"; hops++) {
      if (hops > 20 || !current.$ref.startsWith("#/")) throw new Error(`unsupported $ref ${current.$ref} at ${at}`);
      at = current.$ref;
      current = resolvePointer(clone, at);
      if (current === undefined) throw new Error(`unresolvable $ref ${at}`);
    }
    if (!isObj(current)) throw new Error(`expected an object at ${at}`);
    return { node: current, pointer: at };
  };

  const resolveSchema = (schema: Obj): Obj => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
      const ref = current.$ref;
      const [name = "", fragment = ""] = ref.startsWith(SCHEMA_BASE) ? ref.slice(SCHEMA_BASE.length).split("#") : [];
      const target = name ? resolvePointer(componentSchemas, `#/${name}${fragment}`) : undefined;
      if (!isObj(target)) break;
      current = target;
    }
    return current;
  };

  const compile = (schema: unknown, pointer: string): ValidateFunction => {
    try {
      return ajv.compile(isObj(schema) ? schema : {});
    } catch (error) {
      throw new Error(`cannot compile the schema at ${pointer}: ${(error as Error).message}`);
    }
  };

  // Identical parameter groups (e.g. the shared X-Service-Org-Id header) compile once.
  const paramSets = new Map<string, ParamSet>();
  const paramSet = (params: ParamSpec[], pointer: string): ParamSet => {
    const cacheKey = params.map((p) => `${p.pointer}|${p.key}|${p.required}|${p.style}|${p.explode}`).join("\n");
    const cached = paramSets.get(cacheKey);
    if (cached) return cached;
    const wrapper = {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p.key, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.key),
    };
    locations.set(wrapper, pointer);
    const set = { params, validate: compile(wrapper, pointer) };
    paramSets.set(cacheKey, set);
    return set;
  };

  const mediaModels = (content: unknown, pointer: string): MediaModel[] =>
    isObj(content)
      ? Object.entries(content).map(([type, media]) => {
          const at = join(pointer, "content", type);
          const schema = isObj(media) ? media.schema : undefined;
          return { type: type.toLowerCase(), pointer: at, validate: schema === undefined ? null : compile(schema, join(at, "schema")) };
        })
      : [];

  // A response shared through $ref (#/components/responses/...) is compiled once.
  const sharedResponses = new WeakMap<Obj, Omit<ResponseModel, "key">>();
  const responseModel = (raw: unknown, pointer: string): Omit<ResponseModel, "key"> => {
    const { node: response, pointer: at } = deref(raw, pointer);
    const cached = sharedResponses.get(response);
    if (cached) return cached;
    const headers: ParamSpec[] = Object.entries(isObj(response.headers) ? response.headers : {})
      .filter(([name]) => name.toLowerCase() !== "content-type")
      .map(([name, rawHeader]) => {
        const header = deref(rawHeader, join(at, "headers", name));
        const schema = isObj(header.node.schema) ? header.node.schema : {};
        return { name, key: name.toLowerCase(), pointer: header.pointer, required: header.node.required === true, schema, style: "simple", explode: false };
      });
    const model = { pointer: at, media: mediaModels(response.content, at), headers: paramSet(headers, join(at, "headers")) };
    sharedResponses.set(response, model);
    return model;
  };

  const securitySchemes = (isObj(clone.components) && isObj(clone.components.securitySchemes) ? clone.components.securitySchemes : {}) as Obj;
  const credentialsOf = (requirements: unknown): Credential[][] =>
    (Array.isArray(requirements) ? requirements : []).map((requirement) =>
      Object.keys(isObj(requirement) ? requirement : {}).map((schemeName) => {
        const scheme = deref(securitySchemes[schemeName], join("#/components/securitySchemes", schemeName)).node;
        if (scheme.type === "http") {
          const kind = String(scheme.scheme ?? "bearer").toLowerCase();
          return { in: "header", name: "authorization", label: `Authorization: ${kind[0]!.toUpperCase()}${kind.slice(1)} <key>`, scheme: kind };
        }
        if (scheme.type === "apiKey") {
          const where = scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header";
          const name = String(scheme.name);
          return { in: where, name: where === "header" ? name.toLowerCase() : name, label: where === "header" ? `${name}: <key>` : `${where} ${name}` };
        }
        return { in: "header", name: "authorization", label: "Authorization: Bearer <token>", scheme: "bearer" }; // oauth2 / openIdConnect: a bearer token in practice
      }),
    );

  const operations: OperationModel[] = [];
  const paths = isObj(clone.paths) ? clone.paths : {};
  for (const [pathTemplate, rawItem] of Object.entries(paths)) {
    const itemPointer = join("#/paths", pathTemplate);
    const item = deref(rawItem, itemPointer);
    for (const method of HTTP_METHODS) {
      const operation = item.node[method];
      if (!isObj(operation)) continue;
      const opPointer = join(item.pointer, method);
      const operationId = typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${pathTemplate}`;

      // Operation parameters override path-item parameters with the same name and location.
      const byKey = new Map<string, ParamSpec & { in: string }>();
      const addParams = (list: unknown, pointer: string): void => {
        (Array.isArray(list) ? list : []).forEach((raw, index) => {
          const { node: param, pointer: at } = deref(raw, join(pointer, "parameters", index));
          const where = String(param.in);
          const name = String(param.name);
          const key = where === "header" ? name.toLowerCase() : name;
          if (where === "header" && IGNORED_HEADER_PARAMS.has(key)) return;
          const style = typeof param.style === "string" ? param.style : where === "query" || where === "cookie" ? "form" : "simple";
          byKey.set(`${where}:${key}`, {
            in: where, name, key, pointer: at, style,
            required: param.required === true || where === "path",
            schema: isObj(param.schema) ? param.schema : {},
            explode: typeof param.explode === "boolean" ? param.explode : style === "form",
          });
        });
      };
      addParams(item.node.parameters, item.pointer);
      addParams(operation.parameters, opPointer);
      const paramsIn = (where: string) => paramSet([...byKey.values()].filter((p) => p.in === where), join(opPointer, "parameters"));

      const responses = new Map<string, ResponseModel>();
      for (const [key, raw] of Object.entries(isObj(operation.responses) ? operation.responses : {})) {
        responses.set(key.toUpperCase(), { key, ...responseModel(raw, join(opPointer, "responses", key)) });
      }

      let requestBody: OperationModel["requestBody"] = null;
      if (operation.requestBody !== undefined) {
        const body = deref(operation.requestBody, join(opPointer, "requestBody"));
        requestBody = { required: body.node.required === true, pointer: body.pointer, media: mediaModels(body.node.content, body.pointer) };
      }

      const ownSecurity = operation.security !== undefined;
      operations.push({
        operationId, method: method.toUpperCase(), pathTemplate, pointer: opPointer,
        path: paramsIn("path"), query: paramsIn("query"), header: paramsIn("header"),
        security: credentialsOf(ownSecurity ? operation.security : clone.security),
        securityPointer: ownSecurity ? join(opPointer, "security") : "#/security",
        requestBody, responses,
      });
    }
  }
  return { basePath: serverBasePath(doc), operations, locations, resolveSchema };
}
