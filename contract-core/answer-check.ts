/**
 * Checks one answer (status, headers, body) against the documented answers of its operation, with the node-free
 * schema checker (schema-check.ts): the typed client's validation middleware runs it in a page or a test. It
 * reports the first mismatch in the contract's words (violations.ts): `body/data must have required property
 * 'slug'`. Properties the schema does not name are accepted (`additionalProperties: false` is not enforced on
 * answers), as the reference tells clients to accept fields it adds later.
 */
import { followRef, isObj, type Obj } from "./pointer.js";
import { createSpecChecker, type SchemaCheck } from "./schema-check.js";
import { describeViolation, violationFromAjv } from "./violations.js";

/** The first way an answer differs from its operation's documented answers. */
export interface AnswerMismatch {
  operationId: string;
  /** `GET /people/{slug}`: the method and the spec's path template. */
  operation: string;
  status: number;
  /** What differs: an undocumented status, a missing or invalid required header, or the body. */
  part: "status" | "header" | "body";
  /** JSON pointer into the body (`/data/full_name`; "" for the body itself), or the header's name. */
  pointer: string;
  /** The first violation in the contract's words: `body/data/full_name must be string`. */
  message: string;
}

export interface AnswerToCheck {
  /** Upper- or lower-case HTTP method. */
  method: string;
  /** The spec's path template (`/people/{slug}`), as openapi-fetch's `schemaPath` gives it. */
  path: string;
  status: number;
  headers: Headers;
  /** The body's text ("" for none). */
  body: string;
}

export interface AnswerChecker {
  /** The first mismatch of `answer`, or null when it is one of the documented answers. */
  check(answer: AnswerToCheck): AnswerMismatch | null;
}

/** The document without `additionalProperties: false`: answers may carry properties the spec adds later. */
function openSchemas(doc: unknown): unknown {
  return JSON.parse(JSON.stringify(doc), (key, value: unknown) =>
    isObj(value) && value.additionalProperties === false ? { ...value, additionalProperties: true } : value,
  );
}

/** The documented response for `status`: the exact code, then its range (`4XX`), then `default`. */
function documentedResponse(responses: Obj, status: number): unknown {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

export function createAnswerChecker(spec: unknown): AnswerChecker {
  const doc = openSchemas(spec) as Obj;
  const checker = createSpecChecker(doc);
  // The checks this checker compiled, by schema: each answer schema is read once per checker.
  const compiled = new Map<unknown, SchemaCheck>();
  const compile = (schema: unknown) => {
    let check = compiled.get(schema);
    if (!check) compiled.set(schema, (check = checker.compile(schema)));
    return check;
  };
  const deref = (node: unknown) => followRef(doc, node).node;

  return {
    check({ method, path, status, headers, body }) {
      const lower = method.toLowerCase();
      const item = deref((doc.paths as Obj | undefined)?.[path]);
      const op = isObj(item) ? deref(item[lower]) : undefined;
      const operation = `${method.toUpperCase()} ${path}`;
      if (!isObj(op)) {
        return {
          operationId: "",
          operation,
          status,
          part: "status",
          pointer: "",
          message: `${operation} is not an operation of the spec`,
        };
      }
      const operationId = String(op.operationId ?? "");
      const mismatch = (part: AnswerMismatch["part"], pointer: string, message: string): AnswerMismatch => ({
        operationId,
        operation,
        status,
        part,
        pointer,
        message,
      });
      const responses = (op.responses ?? {}) as Obj;
      const response = deref(documentedResponse(responses, status));
      if (!isObj(response)) {
        const documented = Object.keys(responses).join(", ");
        return mismatch("status", "", `status ${status} is not documented (documented: ${documented})`);
      }
      for (const [name, raw] of Object.entries((response.headers ?? {}) as Obj)) {
        const header = deref(raw);
        if (!isObj(header) || header.required !== true) continue;
        const value = headers.get(name);
        if (value === null) return mismatch("header", name, `header ${name} is required and missing`);
        const schema = deref(header.schema);
        const type = isObj(schema) ? schema.type : undefined;
        const typed = type === "integer" || type === "number" ? (value.trim() === "" ? value : Number(value)) : value;
        const error = compile(header.schema ?? {})(typed);
        if (error) return mismatch("header", name, describeViolation({ ...violationFromAjv("header", error), name }));
      }
      const json = isObj(response.content) ? (response.content as Obj)["application/json"] : undefined;
      if (!isObj(json)) {
        if (body.trim() === "") return null;
        return mismatch("body", "", "body is sent where the spec documents none");
      }
      if (body.trim() === "") return mismatch("body", "", "body is empty where the spec documents application/json");
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return mismatch("body", "", "body is not JSON where the spec documents application/json");
      }
      const error = compile(json.schema ?? {})(value);
      return error ? mismatch("body", error.instancePath, describeViolation(violationFromAjv("body", error))) : null;
    },
  };
}
