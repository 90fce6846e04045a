// Checks the mock makes before Prism sees a request: integer query parameters in the core's one form
// (decimal digits, finite), empty query values against their schema (Prism takes `?keywords=` as absent),
// the rules that tie query parameters together (`x-requires`, read by contract-core as the sandbox reads them),
// the limits of term lists (`x-term-list`, applied by the shared schema checker as in the sandbox),
// and a first-error check of large bodies so that Prism's work stays bounded (see FULL_REPORT_BODY_BYTES).
import type { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import {
  brokenDependency,
  createSpecChecker,
  deref,
  describeViolation,
  isObj,
  paramDependencies,
  parseQueryInteger,
  sentIn,
  termListRule,
  violationFromAjv,
  type Obj,
  type ParamDependency,
  type SchemaCheck,
} from "../../contract-core/index.js";
import type { EngineRequest } from "./engine-request.js";

type IHttpOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

function schemaTypes(schema: unknown): unknown[] {
  const type = isObj(schema) ? schema.type : undefined;
  return Array.isArray(type) ? type : [type];
}

/**
 * A body larger than this that breaks its schema is answered from a first-error check (its first violation,
 * in the core's words) and never reaches Prism: Prism words every violation, about 25 microseconds each on
 * the event loop, so an array of 500,000 wrong items (1 MiB) would block the mock for over ten seconds.
 * A smaller invalid body goes to Prism, whose message names every violation.
 */
const FULL_REPORT_BODY_BYTES = 16 * 1024;

/** What the checks read of one operation in the spec itself (Prism's copies carry a draft-07 `$schema` and its own keys). */
interface OperationRules {
  querySchemas: Map<unknown, unknown>;
  dependencies: ParamDependency[];
  bodySchema: unknown;
  /** The query parameters declaring `x-term-list` (and their aliases), as one object schema; undefined: none. */
  termLists: { schema: Obj; names: string[] } | undefined;
}

function operationRules(doc: Obj, operation: IHttpOperation): OperationRules {
  const item = isObj(doc.paths) ? deref(doc, doc.paths[operation.path]) : undefined;
  const op = isObj(item) ? deref(doc, item[operation.method]) : undefined;
  const parameters = [item, op].flatMap((o) => (isObj(o) && Array.isArray(o.parameters) ? o.parameters : []));
  const requestBody = isObj(op) ? deref(doc, op.requestBody) : undefined;
  const media =
    isObj(requestBody) && isObj(requestBody.content) ? deref(doc, requestBody.content["application/json"]) : undefined;
  const querySchemas = new Map(
    parameters
      .map((p) => deref(doc, p))
      .filter((p): p is Obj => isObj(p) && p.in === "query" && isObj(p.schema))
      .map((p) => [p.name, deref(doc, p.schema)]),
  );
  const lists = [...querySchemas].filter(([, schema]) => termListRule(schema) !== undefined);
  const names = [
    ...new Set(
      lists.flatMap(([name, schema]) => {
        const alias = termListRule(schema)?.alias;
        return alias === undefined ? [name as string] : [name as string, alias];
      }),
    ),
  ];
  return {
    querySchemas,
    termLists:
      lists.length === 0 ? undefined : { schema: { type: "object", properties: Object.fromEntries(lists) }, names },
    dependencies: paramDependencies(doc, parameters),
    bodySchema: isObj(media) ? media.schema : undefined,
  };
}

/**
 * The message for a request the mock must refuse before Prism, else undefined:
 * - one naming each query parameter given an integer not written as a decimal integer (the core's one rule),
 *   or an empty value its schema refuses. Prism drops an empty value as if the parameter were absent, so
 *   `?keywords=` would otherwise be a 200 where the sandbox and the reference's minLength say 400. The empty
 *   value is judged as the sandbox judges it: a string, or a one-item array `[""]` for an array parameter;
 * - else the message of the first `x-requires` rule the query breaks (`min_role_months` without `role_family`);
 * - else, for a JSON body over FULL_REPORT_BODY_BYTES, its first violation.
 */
export function requestPrecheck(doc: Obj) {
  const checker = createSpecChecker(doc);
  /** Each schema read once (the spec's own objects, so the same object for the same parameter or body). */
  const checks = new Map<unknown, SchemaCheck>();
  const rules = new Map<IHttpOperation, OperationRules>();
  /** The first violation of `value` against `schema`, in the core's words; `prefix` names the parameter. */
  const firstViolation = (location: "query" | "body", schema: unknown, value: unknown, prefix = "") => {
    let check = checks.get(schema);
    if (!check) checks.set(schema, (check = checker.compile(schema)));
    const first = check(value);
    return first
      ? describeViolation(violationFromAjv(location, { ...first, instancePath: prefix + first.instancePath }))
      : undefined;
  };
  type Checked = Pick<EngineRequest, "query" | "body" | "bodyBytes">;
  return (operation: IHttpOperation, { query, body, bodyBytes }: Checked): string | undefined => {
    let found = rules.get(operation);
    if (!found) rules.set(operation, (found = operationRules(doc, operation)));
    const messages: string[] = [];
    for (const param of operation.request?.query ?? []) {
      const value = query[param.name];
      if (value === undefined) continue;
      const schema = found.querySchemas.get(param.name);
      for (const raw of Array.isArray(value) ? value : [value]) {
        if (schemaTypes(param.schema).includes("integer")) {
          const parsed = parseQueryInteger(param.name, raw);
          if (!parsed.ok) messages.push(parsed.message);
        } else if (raw === "" && schema !== undefined) {
          const empty = schemaTypes(schema).includes("array") ? [""] : "";
          const message = firstViolation("query", schema, empty, `/${param.name}`);
          if (message) messages.push(message);
        }
      }
    }
    if (messages.length > 0) return messages.join("; ");
    const broken = brokenDependency(found.dependencies, sentIn(query));
    if (broken) return broken;
    if (found.termLists) {
      // The term lists' limits (x-term-list), which Prism does not know, as the shared checker applies them.
      const given = Object.fromEntries(
        found.termLists.names
          .map((name) => [name, [query[name]].flat()[0]] as const)
          .filter((entry): entry is readonly [string, string] => typeof entry[1] === "string"),
      );
      const message = firstViolation("query", found.termLists.schema, given);
      if (message) return message;
    }
    if (found.bodySchema === undefined || bodyBytes <= FULL_REPORT_BODY_BYTES) return broken;
    return body === undefined || typeof body === "string" ? undefined : firstViolation("body", found.bodySchema, body);
  };
}
