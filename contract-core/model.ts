/**
 * Compiles an OpenAPI document into a model of operations with ready Ajv validators:
 * each component schema is registered with Ajv under its own id (compiled once, shared by every `$ref`),
 * every body/parameter/header validator is compiled eagerly and cached per operation and status
 * (responses shared through `#/components/responses` and identical parameter groups compile once).
 */
import type { ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { createAjv } from "./ajv.js";
import { escapeToken, followRef, isObj, join, resolvePointer, type Obj } from "./pointer.js";
import { serverBasePath, type OpenApiDocument } from "./servers.js";
import { HTTP_METHODS } from "./operations.js";

/** Base of the ids under which each component schema is added to Ajv once (shared by every validator). */
const SCHEMA_BASE = "https://talent-graph.invalid/components/schemas/";
const LOCAL_SCHEMA_REF = /^#\/components\/schemas\/([^/]+)(\/.*)?$/;
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

const objectAt = (parent: unknown, key: string): Obj => (isObj(parent) && isObj(parent[key]) ? parent[key] : {});

class ModelCompiler {
  private readonly clone: Obj;
  readonly locations: WeakMap<object, string>;
  private readonly ajv: Ajv2020;
  private readonly componentSchemas: Obj;
  private readonly securitySchemes: Obj;
  private readonly paramSets = new Map<string, ParamSet>();

  constructor(doc: OpenApiDocument) {
    ({ clone: this.clone, locations: this.locations } = prepare(doc));
    this.ajv = createAjv(this.clone);
    this.componentSchemas = objectAt(this.clone.components, "schemas");
    this.securitySchemes = objectAt(this.clone.components, "securitySchemes");
    // One Ajv entry per component: a ref to a whole registered schema is compiled once and shared.
    for (const [name, schema] of Object.entries(this.componentSchemas))
      this.ajv.addSchema(schema as Obj, `${SCHEMA_BASE}${escapeToken(name)}`);
  }

  /** Follows local `$ref`s of non-schema objects (responses, parameters, headers, request bodies). */
  deref(node: unknown, pointer: string): { node: Obj; pointer: string } {
    const { node: target, ref } = followRef(this.clone, node, { strict: true });
    if (!isObj(target)) throw new Error(`expected an object at ${ref ?? pointer}`);
    return { node: target, pointer: ref ?? pointer };
  }

  /** Follows rewritten component schema refs (for parameter coercion). */
  readonly resolveSchema = (schema: Obj): Obj => {
    let current = schema;
    for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops++) {
      const [name = "", fragment = ""] = current.$ref.startsWith(SCHEMA_BASE)
        ? current.$ref.slice(SCHEMA_BASE.length).split("#")
        : [];
      const target = name ? resolvePointer(this.componentSchemas, `#/${name}${fragment}`) : undefined;
      if (!isObj(target)) break;
      current = target;
    }
    return current;
  };

  private compile(schema: unknown, pointer: string): ValidateFunction {
    try {
      return this.ajv.compile(isObj(schema) ? schema : {});
    } catch (error) {
      throw new Error(`cannot compile the schema at ${pointer}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Parameters validated together as one object; identical groups (e.g. the shared X-Service-Org-Id header) compile once. */
  private paramSet(params: ParamSpec[], pointer: string): ParamSet {
    const cacheKey = params.map((p) => `${p.pointer}|${p.key}|${p.required}|${p.style}|${p.explode}`).join("\n");
    const cached = this.paramSets.get(cacheKey);
    if (cached) return cached;
    const wrapper = {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p.key, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.key),
    };
    this.locations.set(wrapper, pointer);
    const set = { params, validate: this.compile(wrapper, pointer) };
    this.paramSets.set(cacheKey, set);
    return set;
  }

  private mediaModels(content: unknown, pointer: string): MediaModel[] {
    return Object.entries(isObj(content) ? content : {}).map(([type, media]) => {
      const at = join(pointer, "content", type);
      const schema = isObj(media) ? media.schema : undefined;
      return {
        type: type.toLowerCase(),
        pointer: at,
        validate: schema === undefined ? null : this.compile(schema, join(at, "schema")),
      };
    });
  }

  /** A response shared through `#/components/responses/...` compiles once: Ajv keeps a function per schema object. */
  private responseModel(raw: unknown, pointer: string): Omit<ResponseModel, "key"> {
    const { node: response, pointer: at } = this.deref(raw, pointer);
    const headers: ParamSpec[] = Object.entries(isObj(response.headers) ? response.headers : {})
      .filter(([name]) => name.toLowerCase() !== "content-type")
      .map(([name, rawHeader]) => {
        const header = this.deref(rawHeader, join(at, "headers", name));
        const schema = isObj(header.node.schema) ? header.node.schema : {};
        return {
          name,
          key: name.toLowerCase(),
          pointer: header.pointer,
          required: header.node.required === true,
          schema,
          style: "simple",
          explode: false,
        };
      });
    return {
      pointer: at,
      media: this.mediaModels(response.content, at),
      headers: this.paramSet(headers, join(at, "headers")),
    };
  }

  private credential(schemeName: string): Credential {
    const scheme = this.deref(this.securitySchemes[schemeName], join("#/components/securitySchemes", schemeName)).node;
    if (scheme.type === "apiKey") {
      const where = scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header";
      const name = String(scheme.name);
      return {
        in: where,
        name: where === "header" ? name.toLowerCase() : name,
        label: where === "header" ? `${name}: <key>` : `${where} ${name}`,
      };
    }
    // http (bearer, basic, ...); oauth2 / openIdConnect send a bearer token in practice.
    const kind = scheme.type === "http" ? String(scheme.scheme ?? "bearer").toLowerCase() : "bearer";
    return {
      in: "header",
      name: "authorization",
      label: `Authorization: ${kind[0]!.toUpperCase()}${kind.slice(1)} <key>`,
      scheme: kind,
    };
  }

  private credentials(requirements: unknown): Credential[][] {
    return (Array.isArray(requirements) ? requirements : []).map((requirement) =>
      Object.keys(isObj(requirement) ? requirement : {}).map((name) => this.credential(name)),
    );
  }

  /** Path-item and operation parameters; the operation's win on the same name and location. */
  private parameters(lists: [unknown, string][]): Map<string, ParamSpec & { in: string }> {
    const byKey = new Map<string, ParamSpec & { in: string }>();
    for (const [list, pointer] of lists) {
      (Array.isArray(list) ? list : []).forEach((raw, index) => {
        const { node: param, pointer: at } = this.deref(raw, join(pointer, "parameters", index));
        const where = String(param.in);
        const name = String(param.name);
        const key = where === "header" ? name.toLowerCase() : name;
        if (where === "header" && IGNORED_HEADER_PARAMS.has(key)) return;
        const style =
          typeof param.style === "string" ? param.style : where === "query" || where === "cookie" ? "form" : "simple";
        byKey.set(`${where}:${key}`, {
          in: where,
          name,
          key,
          pointer: at,
          style,
          required: param.required === true || where === "path",
          schema: isObj(param.schema) ? param.schema : {},
          explode: typeof param.explode === "boolean" ? param.explode : style === "form",
        });
      });
    }
    return byKey;
  }

  private operation(
    pathTemplate: string,
    item: { node: Obj; pointer: string },
    method: string,
    operation: Obj,
  ): OperationModel {
    const opPointer = join(item.pointer, method);
    const params = [
      ...this.parameters([
        [item.node.parameters, item.pointer],
        [operation.parameters, opPointer],
      ]).values(),
    ];
    const paramsIn = (where: string) =>
      this.paramSet(
        params.filter((p) => p.in === where),
        join(opPointer, "parameters"),
      );
    const responses = new Map<string, ResponseModel>();
    for (const [key, raw] of Object.entries(isObj(operation.responses) ? operation.responses : {})) {
      responses.set(key.toUpperCase(), { key, ...this.responseModel(raw, join(opPointer, "responses", key)) });
    }
    const body =
      operation.requestBody === undefined
        ? undefined
        : this.deref(operation.requestBody, join(opPointer, "requestBody"));
    const ownSecurity = operation.security !== undefined;
    return {
      operationId:
        typeof operation.operationId === "string" ? operation.operationId : `${method.toUpperCase()} ${pathTemplate}`,
      method: method.toUpperCase(),
      pathTemplate,
      pointer: opPointer,
      path: paramsIn("path"),
      query: paramsIn("query"),
      header: paramsIn("header"),
      security: this.credentials(ownSecurity ? operation.security : this.clone.security),
      securityPointer: ownSecurity ? join(opPointer, "security") : "#/security",
      requestBody: body
        ? {
            required: body.node.required === true,
            pointer: body.pointer,
            media: this.mediaModels(body.node.content, body.pointer),
          }
        : null,
      responses,
    };
  }

  operations(): OperationModel[] {
    return Object.entries(isObj(this.clone.paths) ? this.clone.paths : {}).flatMap(([pathTemplate, rawItem]) => {
      const item = this.deref(rawItem, join("#/paths", pathTemplate));
      return HTTP_METHODS.filter((m) => isObj(item.node[m])).map((m) =>
        this.operation(pathTemplate, item, m, item.node[m] as Obj),
      );
    });
  }
}

export function compileModel(doc: OpenApiDocument): ContractModel {
  const compiler = new ModelCompiler(doc);
  return {
    basePath: serverBasePath(doc),
    operations: compiler.operations(),
    locations: compiler.locations,
    resolveSchema: compiler.resolveSchema,
  };
}
