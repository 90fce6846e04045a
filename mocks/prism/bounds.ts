// Checks the mock makes before Prism sees a request: integer query parameters in the core's one form
// (decimal digits, finite), empty query values against their schema (Prism takes `?keywords=` as absent),
// the rules that tie query parameters together (`x-requires`, read by contract-core as the sandbox reads them),
// and a first-error check of large bodies so that Prism's work stays bounded (see FULL_REPORT_BODY_BYTES).
import type { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import {
  brokenDependency,
  createSpecCompiler,
  deref,
  describeViolation,
  isObj,
  paramDependencies,
  parseQueryInteger,
  sentIn,
  violationFromAjv,
  type Obj,
  type ParamDependency,
} from "../../contract-core/index.js";

type Schema = Record<string, unknown>;
type IHttpOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

function schemaTypes(schema: Schema): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** The spec's own path item and operation object behind a Prism operation (Prism's copies carry its own keys). */
function specOperation(doc: Obj, operation: IHttpOperation): { item: unknown; op: unknown } {
  const item = isObj(doc.paths) ? deref(doc, doc.paths[operation.path]) : undefined;
  return { item, op: isObj(item) ? deref(doc, item[operation.method]) : undefined };
}

/** The parameters the spec declares for a Prism operation: its path item's, then its own. */
function declaredParameters(doc: Obj, operation: IHttpOperation): unknown[] {
  const { item, op } = specOperation(doc, operation);
  return [item, op].flatMap((o) => (isObj(o) && Array.isArray(o.parameters) ? o.parameters : []));
}

/** The first Ajv error of a failed check, in the core's words. */
function firstViolation(
  location: "query" | "body",
  errors: Parameters<typeof violationFromAjv>[1][] | null | undefined,
  prefix = "",
): string | undefined {
  const first = errors?.[0];
  return first
    ? describeViolation(violationFromAjv(location, { ...first, instancePath: prefix + first.instancePath }))
    : undefined;
}

export type QueryPrecheck = (operation: IHttpOperation, query: Record<string, string | string[]>) => string | undefined;

/**
 * One message naming each query parameter the mock must refuse before Prism: an integer not written as a
 * decimal integer (the core's one rule), or an empty value its schema refuses; else the message of the first
 * `x-requires` rule the query breaks (`min_role_months` without `role_family` or `roles`). Prism drops an
 * empty value as if the parameter were absent, so `?keywords=` would otherwise be a 200 where the sandbox and
 * the reference's minLength say 400. The empty value is judged as the sandbox judges it: a string, or a
 * one-item array `[""]` for an array parameter.
 */
export function queryPrecheck(doc: Obj): QueryPrecheck {
  const compiler = createSpecCompiler(doc, { allErrors: false, verbose: false });
  // The spec's own parameter schemas: Prism's copies carry a draft-07 `$schema` and `x-stoplight` keys.
  const validators = new Map<string, ReturnType<typeof compiler.compile> | null>();
  const validatorFor = (operation: IHttpOperation, name: string) => {
    const key = `${operation.method} ${operation.path} ${name}`;
    if (!validators.has(key)) {
      const param = declaredParameters(doc, operation)
        .map((p) => deref(doc, p))
        .find((p) => isObj(p) && p.in === "query" && p.name === name);
      const schema = isObj(param) && isObj(param.schema) ? (deref(doc, param.schema) as Schema) : undefined;
      validators.set(
        key,
        schema ? Object.assign(compiler.compile(schema), { isArray: schemaTypes(schema).includes("array") }) : null,
      );
    }
    return validators.get(key) as (ReturnType<typeof compiler.compile> & { isArray: boolean }) | null;
  };
  const emptyValueViolation = (operation: IHttpOperation, name: string): string | undefined => {
    const validate = validatorFor(operation, name);
    if (!validate || validate(validate.isArray ? [""] : "")) return undefined;
    return firstViolation("query", validate.errors, `/${name}`) ?? `${name} is invalid`;
  };
  const dependencies = new Map<string, ParamDependency[]>();
  const dependenciesOf = (operation: IHttpOperation): ParamDependency[] => {
    const key = `${operation.method} ${operation.path}`;
    let rules = dependencies.get(key);
    if (!rules) {
      dependencies.set(key, (rules = paramDependencies(doc, declaredParameters(doc, operation))));
    }
    return rules;
  };
  return (operation, query) => {
    const messages: string[] = [];
    for (const param of operation.request?.query ?? []) {
      const value = query[param.name];
      if (value === undefined) continue;
      const integer = isObj(param.schema) && schemaTypes(param.schema as Schema).includes("integer");
      for (const raw of Array.isArray(value) ? value : [value]) {
        if (integer) {
          const parsed = parseQueryInteger(param.name, raw);
          if (!parsed.ok) messages.push(parsed.message);
        } else if (raw === "") {
          const message = emptyValueViolation(operation, param.name);
          if (message) messages.push(message);
        }
      }
    }
    return messages.length > 0 ? messages.join("; ") : brokenDependency(dependenciesOf(operation), sentIn(query));
  };
}

/**
 * A body larger than this that breaks its schema is answered from a first-error check (its first violation,
 * in the core's words) and never reaches Prism: Prism words every violation, about 25 microseconds each on
 * the event loop, so an array of 500,000 wrong items (1 MiB) would block the mock for over ten seconds.
 * A smaller invalid body goes to Prism, whose message names every violation.
 */
const FULL_REPORT_BODY_BYTES = 16 * 1024;

export type BodyPrecheck = (operation: IHttpOperation, body: unknown, bytes: number) => string | undefined;

/** The first-error body check, from the bundled document (schemas compiled once per operation). */
export function bodyPrecheck(doc: Obj): BodyPrecheck {
  const compiler = createSpecCompiler(doc, { allErrors: false, verbose: false });
  const compiled = new Map<string, ((body: unknown) => string | undefined) | null>();
  const compile = (operation: IHttpOperation) => {
    const key = `${operation.method} ${operation.path}`;
    if (!compiled.has(key)) {
      const { op } = specOperation(doc, operation);
      const requestBody = isObj(op) ? deref(doc, op.requestBody) : undefined;
      const media =
        isObj(requestBody) && isObj(requestBody.content)
          ? deref(doc, requestBody.content["application/json"])
          : undefined;
      const validate = isObj(media) && media.schema !== undefined ? compiler.compile(media.schema) : undefined;
      compiled.set(
        key,
        validate
          ? (body) => (validate(body) ? undefined : (firstViolation("body", validate.errors) ?? "body is invalid"))
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
