/**
 * Generates `x-codeSamples` (curl and the project's typed client) for every operation of a bundled
 * OpenAPI document, from the spec itself: the server URL, the security schemes and the examples of
 * parameters and request bodies. Nothing here is written per operation.
 *
 * Rules (documented in the README's docs section):
 * - path parameters: the parameter's example (`example`, then the first `examples` entry, then the
 *   schema's example/default/first enum value);
 * - query parameters: every required one (schema fallbacks apply too), then the first
 *   MAX_OPTIONAL_QUERY optional ones, in spec order, that carry a parameter-level example
 *   (`example`/`examples`): a first request, not every filter at once;
 * - header parameters are left out (the organization header is for platform keys only);
 * - JSON body: the media type's `example`, then its first `examples` entry, then the schema's example;
 * - the key always comes from the `TALENT_GRAPH_API_KEY` environment variable, never a literal.
 * A missing example never stops the build: a visible `<name>` placeholder is used and a warning returned.
 */
import { deref, serverUrl as resolveServerUrl } from "../../contract-core/portable.js";
import {
  STRICT,
  isObject,
  listOperations,
  operationLabel,
  type HttpMethod,
  type Json,
  type JsonObject,
  type OpenApiDoc,
  type OperationRef,
} from "./openapi.js";

export const API_KEY_ENV = "TALENT_GRAPH_API_KEY";
export const CLIENT_MODULE = "talent-graph-api-contract/client";
export const CLIENT_FACTORY = "createTalentGraphClient";
export const MAX_OPTIONAL_QUERY = 2;

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface AuthHeader {
  name: string;
  /** Header value as a shell fragment; contains `$TALENT_GRAPH_API_KEY`. */
  value: string;
}

export interface SampleRequest {
  method: HttpMethod;
  /** Path template as written in the spec, e.g. `/people/{slug}`. */
  path: string;
  baseUrl: string;
  pathParams: JsonObject;
  query: JsonObject;
  body: Json | undefined;
  auth: AuthHeader | undefined;
}

/** Returns a copy of `bundle` where every operation carries generated `x-codeSamples`. */
export function withCodeSamples(bundle: OpenApiDoc): { doc: OpenApiDoc; warnings: string[] } {
  const doc = structuredClone(bundle);
  const warnings: string[] = [];
  for (const op of listOperations(doc)) {
    if (op.operation["x-codeSamples"] !== undefined) {
      warnings.push(`${operationLabel(op)}: hand-written x-codeSamples replaced by generated ones`);
    }
    const request = sampleRequest(doc, op, warnings);
    const samples: CodeSample[] = SAMPLE_LANGUAGES.map(({ lang, label, render }) => ({
      lang,
      label,
      source: render(request),
    }));
    op.operation["x-codeSamples"] = samples as unknown as Json;
  }
  return { doc, warnings };
}

/** The generated languages, in display order (Redoc needs the same list in its `codeSamples` option). */
export const SAMPLE_LANGUAGES = [
  { lang: "curl", label: "curl", render: curlSample },
  { lang: "TypeScript", label: "Typed client", render: clientSample },
] as const;

export function sampleRequest(doc: OpenApiDoc, op: OperationRef, warnings: string[]): SampleRequest {
  const pathParams: JsonObject = {};
  const query: JsonObject = {};
  let optionalQuery = 0;
  for (const param of operationParameters(doc, op)) {
    const name = String(param.name);
    if (param.in === "path") {
      const value = parameterExample(doc, param, true);
      if (value === undefined) warnings.push(`${operationLabel(op)}: path parameter "${name}" has no example`);
      pathParams[name] = value ?? `<${name}>`;
    } else if (param.in === "query" && param.required === true) {
      const value = parameterExample(doc, param, true);
      if (value === undefined)
        warnings.push(`${operationLabel(op)}: required query parameter "${name}" has no example`);
      query[name] = value ?? `<${name}>`;
    } else if (param.in === "query" && optionalQuery < MAX_OPTIONAL_QUERY) {
      const value = parameterExample(doc, param, false);
      if (value === undefined) continue;
      query[name] = value;
      optionalQuery += 1;
    }
  }
  return {
    method: op.method,
    path: op.path,
    baseUrl: serverUrl(doc),
    pathParams,
    query,
    body: requestBodyExample(doc, op, warnings),
    auth: authHeader(doc, op),
  };
}

/** Path-item parameters merged with operation parameters (the operation wins on name + location). */
export function operationParameters(doc: OpenApiDoc, op: OperationRef): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const list of [op.pathItem.parameters, op.operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = deref<Json | undefined>(doc, raw, STRICT);
      if (isObject(param)) byKey.set(`${String(param.in)}:${String(param.name)}`, param);
    }
  }
  return [...byKey.values()];
}

function firstExample(doc: OpenApiDoc, holder: JsonObject): Json | undefined {
  if (holder.example !== undefined) return holder.example;
  if (isObject(holder.examples)) {
    for (const raw of Object.values(holder.examples)) {
      const example = deref<Json | undefined>(doc, raw, STRICT);
      if (isObject(example) && example.value !== undefined) return example.value;
    }
  }
  return undefined;
}

function schemaExample(doc: OpenApiDoc, rawSchema: Json | undefined): Json | undefined {
  const schema = deref<Json | undefined>(doc, rawSchema, STRICT);
  if (!isObject(schema)) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  return undefined;
}

function parameterExample(doc: OpenApiDoc, param: JsonObject, useSchema: boolean): Json | undefined {
  return firstExample(doc, param) ?? (useSchema ? schemaExample(doc, param.schema) : undefined);
}

function requestBodyExample(doc: OpenApiDoc, op: OperationRef, warnings: string[]): Json | undefined {
  const body = deref<Json | undefined>(doc, op.operation.requestBody, STRICT);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const mediaType = Object.keys(body.content).find((type) => /^application\/(.+\+)?json\b/.test(type));
  if (mediaType === undefined) {
    warnings.push(`${operationLabel(op)}: request body has no JSON media type; samples send none`);
    return undefined;
  }
  const media = deref<Json | undefined>(doc, body.content[mediaType], STRICT);
  const example = isObject(media) ? (firstExample(doc, media) ?? schemaExample(doc, media.schema)) : undefined;
  if (example === undefined && body.required === true) {
    warnings.push(`${operationLabel(op)}: required request body has no example; samples send {}`);
    return {};
  }
  return example;
}

/** The server URL the samples call (contract-core's resolution); a spec without one gives no runnable sample. */
export function serverUrl(doc: OpenApiDoc): string {
  const url = resolveServerUrl(doc);
  if (url === "") throw new Error("The spec declares no server URL");
  return url;
}

/** The header of the first security alternative that applies to the operation. */
function authHeader(doc: OpenApiDoc, op: OperationRef): AuthHeader | undefined {
  const requirements = op.operation.security ?? doc.security;
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined;
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const key = `$${API_KEY_ENV}`;
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    for (const name of Object.keys(requirement)) {
      const scheme = deref<Json | undefined>(doc, schemes[name], STRICT);
      if (!isObject(scheme)) continue;
      if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "bearer") {
        return { name: "Authorization", value: `Bearer ${key}` };
      }
      if (scheme.type === "apiKey" && scheme.in === "header" && typeof scheme.name === "string") {
        return { name: scheme.name, value: key };
      }
    }
  }
  return undefined;
}

export function requestUrl(request: SampleRequest): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(scalar(request.pathParams[name]))),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(scalar(item)));
  }
  const qs = search.toString();
  return `${request.baseUrl}${path}${qs ? `?${qs}` : ""}`;
}

function scalar(value: Json | undefined): Json | undefined {
  return isObject(value) || Array.isArray(value) ? JSON.stringify(value) : value;
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSample(request: SampleRequest): string {
  const lines = [
    `curl -sS${request.method === "get" ? "" : ` -X ${request.method.toUpperCase()}`} ${shellQuote(requestUrl(request))}`,
  ];
  // Double quotes so the shell expands the variable; the key itself never appears in the sample.
  if (request.auth) lines.push(`-H "${request.auth.name}: ${request.auth.value}"`);
  if (request.body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`--data ${shellQuote(JSON.stringify(request.body, null, 2))}`);
  }
  return lines.join(" \\\n  ");
}

export function clientSample(request: SampleRequest): string {
  const params: JsonObject = {};
  if (Object.keys(request.pathParams).length > 0) params.path = request.pathParams;
  if (Object.keys(request.query).length > 0) params.query = request.query;
  const init: JsonObject = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (request.body !== undefined) init.body = request.body;
  const call = `const { data, error } = await client.${request.method.toUpperCase()}(${JSON.stringify(request.path)}`;
  const args = Object.keys(init).length > 0 ? `, ${tsLiteral(init, 0, LINE_WIDTH - call.length - 4)}` : "";
  return [
    `import { ${CLIENT_FACTORY} } from ${JSON.stringify(CLIENT_MODULE)};`,
    "",
    `const client = ${CLIENT_FACTORY}({`,
    `  baseUrl: ${JSON.stringify(request.baseUrl)},`,
    `  apiKey: process.env.${API_KEY_ENV}!,`,
    "});",
    "",
    `${call}${args});`,
  ].join("\n");
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const LINE_WIDTH = 88;

/**
 * Prints a JSON value as a TypeScript literal: identifier keys unquoted, a value kept on one line when
 * it fits in `budget` characters, else one entry per line.
 */
export function tsLiteral(value: Json, indent = 0, budget = LINE_WIDTH - indent): string {
  const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
  const nested = (item: Json, prefix: string) =>
    tsLiteral(item, indent + 2, LINE_WIDTH - indent - 2 - prefix.length - 1);
  if (Array.isArray(value))
    return wrap(
      "[",
      "]",
      value.map((item) => nested(item, "")),
      indent,
      "",
      budget,
    );
  if (isObject(value)) {
    const entries = Object.entries(value).map(([name, item]) => `${key(name)}: ${nested(item, `${key(name)}: `)}`);
    return wrap("{", "}", entries, indent, " ", budget);
  }
  return JSON.stringify(value);
}

function wrap(open: string, close: string, items: string[], indent: number, pad: string, budget: number): string {
  if (items.length === 0) return `${open}${close}`;
  const inline = `${open}${pad}${items.join(", ")}${pad}${close}`;
  if (!inline.includes("\n") && inline.length <= budget) return inline;
  const inner = " ".repeat(indent + 2);
  return `${open}\n${items.map((item) => `${inner}${item},`).join("\n")}\n${" ".repeat(indent)}${close}`;
}
