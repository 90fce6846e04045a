// Checks the mock makes before Prism sees a request: integer query parameters in the core's one form
// (decimal digits, finite), and a first-error check of large bodies so that Prism's work stays bounded
// (see FULL_REPORT_BODY_BYTES).
import type { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import {
  createSpecCompiler,
  deref,
  describeViolation,
  isObj,
  parseQueryInteger,
  violationFromAjv,
  type Obj,
} from "../../contract-core/index.js";

type Schema = Record<string, unknown>;
type IHttpOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

function isInteger(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const type = (schema as Schema).type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}

/** One message naming each integer query parameter not written as a decimal integer, or undefined. */
export function queryIntegerViolations(
  operation: IHttpOperation,
  query: Record<string, string | string[]>,
): string | undefined {
  const messages: string[] = [];
  for (const param of operation.request?.query ?? []) {
    if (!isInteger(param.schema)) continue;
    const value = query[param.name];
    if (value === undefined) continue;
    for (const raw of Array.isArray(value) ? value : [value]) {
      const parsed = parseQueryInteger(param.name, raw);
      if (!parsed.ok) messages.push(parsed.message);
    }
  }
  return messages.length > 0 ? messages.join("; ") : undefined;
}

/**
 * A body larger than this that breaks its schema is answered from a first-error check (its first violation,
 * in the core's words) and never reaches Prism: Prism words every violation, about 25 microseconds each on
 * the event loop, so an array of 500,000 wrong items (1 MiB) would block the mock for over ten seconds.
 * A smaller invalid body goes to Prism, whose message names every violation.
 */
export const FULL_REPORT_BODY_BYTES = 16 * 1024;

export type BodyPrecheck = (operation: IHttpOperation, body: unknown, bytes: number) => string | undefined;

/** The first-error body check, from the bundled document (schemas compiled once per operation). */
export function bodyPrecheck(doc: Obj): BodyPrecheck {
  const compiler = createSpecCompiler(doc, { allErrors: false, verbose: false });
  const compiled = new Map<string, ((body: unknown) => string | undefined) | null>();
  const compile = (operation: IHttpOperation) => {
    const key = `${operation.method} ${operation.path}`;
    if (!compiled.has(key)) {
      const item = isObj(doc.paths) ? deref(doc, doc.paths[operation.path]) : undefined;
      const op = isObj(item) ? deref(doc, item[operation.method]) : undefined;
      const requestBody = isObj(op) ? deref(doc, op.requestBody) : undefined;
      const media =
        isObj(requestBody) && isObj(requestBody.content)
          ? deref(doc, requestBody.content["application/json"])
          : undefined;
      const validate = isObj(media) && media.schema !== undefined ? compiler.compile(media.schema) : undefined;
      compiled.set(
        key,
        validate
          ? (body) => {
              if (validate(body)) return undefined;
              const first = validate.errors?.[0];
              return first ? describeViolation(violationFromAjv("body", first)) : "body is invalid";
            }
          : null,
      );
    }
    return compiled.get(key);
  };
  return (operation, body, bytes) => {
    if (bytes <= FULL_REPORT_BODY_BYTES || body === undefined || typeof body === "string") return undefined;
    return compile(operation)?.(body);
  };
}
