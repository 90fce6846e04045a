/**
 * Checks a consumer contract (contract-core/consumer-contract.ts) against a bundled spec: for each interaction,
 * the operation still exists, its status is still documented, each response field it received is still in the
 * documented answer with a compatible type, and (for an answer below 400) its request is still one the spec
 * takes: every parameter it sent still declared, every required parameter and body property sent, every body
 * field still accepted with a compatible type. Each problem names the consumer, the operation and the field.
 */
import {
  typesOf,
  type ConsumerContract,
  type ConsumerInteraction,
  type FieldTypes,
} from "../../contract-core/consumer-contract.js";
import { followRef, isObj, listOperations, unescapeToken, type Obj } from "../../contract-core/index.js";

export interface ConsumerProblem {
  consumer: string;
  operationId: string;
  /** `GET /people/{slug}` as the contract recorded it. */
  operation: string;
  status: number;
  /** Where: `response /data/headline`, `request body /name`, `query limit`, or "" for the operation. */
  field: string;
  /** What no longer holds, in words. */
  message: string;
}

type Schema = Obj | boolean;

/** A schema with its `$ref`s followed and its `allOf` parts (and, with `alternatives`, `anyOf`/`oneOf` too). */
function expand(doc: Obj, schema: unknown, alternatives: boolean): Schema[] {
  const node = followRef(doc, schema).node;
  if (typeof node === "boolean") return [node];
  if (!isObj(node)) return [];
  const parts = [...((node.allOf as unknown[]) ?? []), ...(alternatives ? [...((node.anyOf as unknown[]) ?? []), ...((node.oneOf as unknown[]) ?? [])] : [])];
  return [node, ...parts.flatMap((part) => expand(doc, part, alternatives))];
}

/**
 * The schemas a field's token leads to from `schemas`; whether one of them refuses unknown properties; whether
 * none says anything of what is under it (no properties, no items: a shape the reference does not show).
 */
function step(doc: Obj, schemas: Schema[], token: string): { next: Schema[]; closed: boolean; unspecified: boolean } {
  const next: Schema[] = [];
  let closed = false;
  const expanded = schemas.flatMap((s) => expand(doc, s, true));
  const structure = token === "*" ? ["items", "prefixItems"] : ["properties", "additionalProperties", "patternProperties"];
  const unspecified = !expanded.some((s) => isObj(s) && structure.some((keyword) => s[keyword] !== undefined));
  for (const schema of expanded) {
    if (schema === true) next.push(true);
    if (typeof schema === "boolean") continue;
    if (token === "*") {
      if (schema.items !== undefined) next.push(schema.items as Schema);
      continue;
    }
    const declared = (schema.properties as Obj | undefined)?.[token];
    if (declared !== undefined) next.push(declared as Schema);
    else if (isObj(schema.additionalProperties)) next.push(schema.additionalProperties);
    else if (schema.additionalProperties === false) closed = true;
  }
  return { next, closed, unspecified };
}

/** The JSON types `schemas` allow (null: any type). */
function allowedTypes(doc: Obj, schemas: Schema[]): Set<string> | null {
  const types = new Set<string>();
  for (const schema of schemas.flatMap((s) => expand(doc, s, true))) {
    if (schema === true) return null;
    if (typeof schema === "boolean") continue;
    if (typeof schema.type === "string") types.add(schema.type);
    else if (Array.isArray(schema.type)) for (const t of schema.type) types.add(String(t));
    else if (schema.enum === undefined && schema.const === undefined && !schema.$ref && !schema.allOf && !schema.anyOf && !schema.oneOf)
      return null; // a schema that names no type takes any
  }
  return types;
}

const compatible = (recorded: string, allowed: Set<string> | null) =>
  allowed === null ||
  typesOf(recorded).every((t) => allowed.has(t) || (t === "integer" && allowed.has("number")));

const tokensOf = (pointer: string) => (pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeToken));

/**
 * The fields of `fields` that `schema` no longer has or types otherwise, each once (a missing object is named,
 * not every field under it). A field under a schema that shows no shape is accepted; in a `request`, so is a field
 * an open object does not declare.
 */
function fieldProblems(doc: Obj, schema: unknown, fields: FieldTypes, request: boolean): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const failed: string[] = [];
  for (const pointer of Object.keys(fields).sort()) {
    if (failed.some((f) => pointer.startsWith(`${f}/`))) continue;
    let schemas: Schema[] = [schema as Schema];
    let accepted = false;
    for (const token of tokensOf(pointer)) {
      const { next, closed, unspecified } = step(doc, schemas, token);
      if (next.length === 0 && (unspecified || (request && !closed))) accepted = true;
      schemas = next;
      if (next.length === 0) break;
    }
    if (accepted) continue;
    const label = pointer || "/";
    if (schemas.length === 0) {
      failed.push(pointer);
      problems.push({ field: label, message: request ? "no longer accepted" : "no longer in the documented answer" });
      continue;
    }
    const allowed = allowedTypes(doc, schemas);
    if (!compatible(fields[pointer]!, allowed)) {
      failed.push(pointer);
      const was = typesOf(fields[pointer]!).join(" or ");
      problems.push({ field: label, message: `was ${was}, the spec now says ${[...(allowed ?? [])].sort().join(" or ")}` });
    }
  }
  if (request) {
    // Every property the spec requires of each object sent (the schema's own `required` and its allOf parts').
    for (const pointer of Object.keys(fields).filter((p) => typesOf(fields[p]!).includes("object"))) {
      let schemas: Schema[] = [schema as Schema];
      for (const token of tokensOf(pointer)) schemas = step(doc, schemas, token).next;
      const required = schemas
        .flatMap((s) => expand(doc, s, false))
        .flatMap((s) => (isObj(s) && Array.isArray(s.required) ? (s.required as string[]) : []));
      for (const name of new Set(required))
        if (fields[`${pointer}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`] === undefined)
          problems.push({ field: `${pointer}/${name}`, message: "required now and not sent" });
    }
  }
  return problems;
}

/** The documented response for `status`: the exact code, then its range (`4XX`), then `default`. */
const documented = (responses: Obj, status: number): unknown =>
  responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;

function interactionProblems(doc: Obj, i: ConsumerInteraction): { field: string; message: string }[] {
  const ops = listOperations(doc);
  const found =
    ops.find((o) => o.operation.operationId === i.operationId) ??
    ops.find((o) => `${o.method.toUpperCase()} ${o.path}` === i.operation);
  if (!found) return [{ field: "", message: "the operation is no longer in the spec" }];
  const op = found.operation as Obj;
  const problems: { field: string; message: string }[] = [];
  const responses = (followRef(doc, op.responses).node ?? {}) as Obj;
  const response = followRef(doc, documented(responses, i.status)).node;
  if (!isObj(response)) return [{ field: "", message: `status ${i.status} is no longer documented` }];
  const json = followRef(doc, (response.content as Obj | undefined)?.["application/json"]).node;
  const received = Object.keys(i.response).length > 0;
  if (received && !isObj(json)) problems.push({ field: "response", message: "the answer no longer documents a JSON body" });
  else if (received)
    for (const p of fieldProblems(doc, (json as Obj).schema ?? true, i.response, false))
      problems.push({ field: `response ${p.field}`, message: p.message });
  if (i.status >= 400) return problems; // a request the API refused: its shape is no promise of the spec
  const params = [...((found.pathItem.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])]
    .map((p) => followRef(doc, p).node)
    .filter(isObj);
  for (const where of ["path", "query", "header"] as const) {
    const declared = params.filter((p) => p.in === where);
    const same = (a: string, b: string) => (where === "header" ? a.toLowerCase() === b.toLowerCase() : a === b);
    for (const name of i.request[where])
      if (!declared.some((p) => same(String(p.name), name)))
        problems.push({ field: `${where} ${name}`, message: "no longer a parameter of the operation" });
    for (const p of declared)
      if ((p.required === true || where === "path") && !i.request[where].some((name) => same(String(p.name), name)))
        problems.push({ field: `${where} ${String(p.name)}`, message: "required now and not sent" });
  }
  const body = followRef(doc, op.requestBody).node;
  const bodySchema = isObj(body) ? followRef(doc, (body.content as Obj | undefined)?.["application/json"]).node : undefined;
  if (i.request.body === null) {
    if (isObj(body) && body.required === true) problems.push({ field: "request body", message: "required now and not sent" });
  } else if (!isObj(bodySchema)) problems.push({ field: "request body", message: "the operation no longer takes a JSON body" });
  else
    for (const p of fieldProblems(doc, bodySchema.schema ?? true, i.request.body, true))
      problems.push({ field: `request body ${p.field}`, message: p.message });
  return problems;
}

/** Every problem of `contract` against the bundled spec `doc`, in the contract's order. */
export function checkConsumerContract(contract: ConsumerContract, doc: Obj): ConsumerProblem[] {
  return contract.interactions.flatMap((i) =>
    interactionProblems(doc, i).map((p) => ({
      consumer: contract.consumer.name,
      operationId: i.operationId,
      operation: i.operation,
      status: i.status,
      ...p,
    })),
  );
}
