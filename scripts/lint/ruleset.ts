/**
 * The Spectral rulesets of `npm run lint`, as code so that tests load exactly what the lint runs.
 *
 * - `bundleRuleset` runs on the bundled description: spectral:oas, the OWASP API Security ruleset, and the
 *   house rules (prefixed `tg-`).
 * - `rootRuleset` runs on the hand-authored root `spec/openapi.yaml` without resolving it: the root holds
 *   only info, servers, tags, security and `$ref`s, and every path item is a `$ref` to a file.
 */
import type { RulesetDefinition } from "@stoplight/spectral-core";
import { casing, defined, pattern } from "@stoplight/spectral-functions";
import owaspModule from "@stoplight/spectral-owasp-ruleset";
import { oas } from "@stoplight/spectral-rulesets";
import { oas3_1 } from "@stoplight/spectral-formats";
import { HTTP_METHODS } from "../../contract-core/portable.js";

const owasp = owaspModule as unknown as RulesetDefinition;
const ERROR = 0;

const SHARED_ERRORS: Record<string, string> = {
  "401": "#/components/responses/Unauthorized",
  "402": "#/components/responses/PaymentRequired",
  "429": "#/components/responses/TooManyRequests",
  "500": "#/components/responses/ServerError",
  "5XX": "#/components/responses/ServerError",
};
const REQUIRED_STATUSES = ["400", ...Object.keys(SHARED_ERRORS)];
const OPERATIONS = `$.paths[*][${HTTP_METHODS.join(",")}]`;
const NOT_FOUND = "#/components/responses/NotFound";
/** The rules document in this repository; each house rule links to its own heading there. */
export const RULES_DOC = new URL("../../spec/RULES.md", import.meta.url);
/**
 * Where the repository's files are browsed. Spectral accepts only http(s) documentation URLs; the project
 * has no published repository address yet, so this is a reserved `.example` host to replace when it has.
 */
export const REPOSITORY_URL = "https://talent-graph.example/api-contract/blob/main/";
export const RULES_DOC_URL = new URL("spec/RULES.md", REPOSITORY_URL).href;

/**
 * House rules as Spectral takes them: each an error whose message is its function's (unless it gives its own),
 * with its `documentationUrl`, the rule's heading in spec/RULES.md.
 */
function documented<T extends object>(rules: Record<string, T>) {
  return Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [
      name,
      { message: "{{error}}", severity: ERROR, ...rule, documentationUrl: `${RULES_DOC_URL}#${name}` },
    ]),
  );
}
// Reference: "Get account stays available to inspect access.allowed", so GET /me must not document 402.
const NOT_DOCUMENTED: Record<string, string[]> = { "get /me": ["402"] };

/** Every operation documents the shared error responses, by reference to components/responses. */
function sharedErrorResponses(responses: unknown, _options: unknown, context: { path: (string | number)[] }) {
  const r = (responses ?? {}) as Record<string, { $ref?: string } | undefined>;
  const problems: { message: string; path?: (string | number)[] }[] = [];
  const [, path, method] = context.path;
  const absent = NOT_DOCUMENTED[`${String(method)} ${String(path)}`] ?? [];
  for (const status of absent)
    if (r[status]) problems.push({ message: `This operation must not document ${status}.`, path: [status] });
  for (const status of REQUIRED_STATUSES.filter((s) => !absent.includes(s))) {
    const resp = r[status];
    if (!resp) {
      problems.push({ message: `Operation must document the ${status} response.` });
      continue;
    }
    const want = SHARED_ERRORS[status];
    if (want && resp.$ref !== want)
      problems.push({ message: `The ${status} response must be a $ref to ${want}.`, path: [status] });
    if (!want && !(resp.$ref ?? "").startsWith("#/components/responses/"))
      problems.push({
        message: `The ${status} response must be a $ref to a shared response under components/responses.`,
        path: [status],
      });
  }
  return problems;
}

/** Every schema property carries a description (on the property or on the schema it resolves to). */
function propertyDescriptions(schema: unknown) {
  const s = schema as { properties?: Record<string, { description?: string } | boolean> };
  if (!s || typeof s !== "object" || !s.properties || typeof s.properties !== "object") return [];
  return Object.entries(s.properties)
    .filter(
      ([, p]) => typeof p === "object" && p !== null && !(typeof p.description === "string" && p.description.trim()),
    )
    .map(([name]) => ({ message: `Property "${name}" needs a description.`, path: ["properties", name] }));
}

const SCHEMAS = "$..[?(@ && @.properties)]";

/**
 * Allowed leading verbs of an operationId per method. The verbs are the reference's own operation names
 * ("get person", "list saved queries", "search people", "save query" as create, "add list members",
 * "set member status", "send test digest", "update list member"); PUT allows update because the one PUT
 * is a partial upsert ("omitted fields keep their values").
 */
export const OPERATION_VERBS: Record<string, string[]> = {
  get: ["get", "list", "search", "suggest"],
  post: ["create", "add", "set", "send", "retry"],
  put: ["update", "set", "replace"],
  patch: ["update"],
  delete: ["delete"],
};

/** The operationId starts with a verb of OPERATION_VERBS for its method. */
function operationIdVerb(operationId: unknown, _options: unknown, context: { path: (string | number)[] }) {
  const method = String(context.path[2]);
  const verbs = OPERATION_VERBS[method];
  if (!verbs || typeof operationId !== "string") return [];
  const verb = /^[a-z]+/.exec(operationId)?.[0] ?? "";
  if (verbs.includes(verb)) return [];
  return [
    {
      message: `operationId "${operationId}" must start with a verb allowed for ${method.toUpperCase()}: ${verbs.join(", ")}.`,
    },
  ];
}

/** A parameter carries `example` or `examples` (code samples and the docs use them). */
function parameterExample(parameter: unknown) {
  const p = parameter as { name?: string; example?: unknown; examples?: unknown };
  if (!p || typeof p !== "object" || p.example !== undefined || p.examples !== undefined) return [];
  return [{ message: `Parameter "${p.name ?? "?"}" needs an example.` }];
}

/** Every operation under a path with a template parameter documents 404 through the shared response. */
function pathParameter404(pathItem: unknown, _options: unknown, context: { path: (string | number)[] }) {
  if (!String(context.path[1]).includes("{")) return [];
  const item = (pathItem ?? {}) as Record<string, { responses?: Record<string, { $ref?: string }> } | undefined>;
  return Object.entries(item)
    .filter(([method, op]) => (HTTP_METHODS as readonly string[]).includes(method) && op)
    .filter(([, op]) => op!.responses?.["404"]?.$ref !== NOT_FOUND)
    .map(([method]) => ({
      message: `An operation with a path parameter must document 404 as a $ref to ${NOT_FOUND}.`,
      path: [...context.path, method, "responses"],
    }));
}

export const houseRules = documented({
  "tg-operation-id-verb": {
    description: "operationId starts with a verb allowed for its method.",
    given: `${OPERATIONS}.operationId`,
    then: { function: operationIdVerb },
  },
  "tg-parameter-example": {
    description: "Every parameter carries an example.",
    given: [`${OPERATIONS}.parameters[*]`, "$.paths[*].parameters[*]", "$.components.parameters[*]"],
    then: { function: parameterExample },
  },
  "tg-path-parameter-404": {
    description: "Every operation with a path parameter documents 404 by $ref to the shared NotFound response.",
    resolved: false,
    given: "$.paths[*]",
    then: { function: pathParameter404 },
  },
  "tg-operation-id-camel-case": {
    description: "operationId is camelCase and starts with a lower-case verb-like word.",
    given: `${OPERATIONS}.operationId`,
    then: { function: casing, functionOptions: { type: "camel", disallowDigits: true } },
  },
  "tg-shared-error-responses": {
    description:
      "Every operation documents 400, 401, 402 (GET /me excepted), 429, 500 and 5XX through the shared responses.",
    resolved: false,
    given: `${OPERATIONS}.responses`,
    then: { function: sharedErrorResponses },
  },
  "tg-snake-case-properties": {
    description: "Schema property names are snake_case (camelCase only where the reference uses it, flagged).",
    message: 'Property "{{property}}" must be snake_case.',
    // `x-property-case: camelCase` exempts a schema (spec/EXTENSIONS.md).
    given: "$..[?(@ && @.properties && @['x-property-case'] !== 'camelCase')].properties",
    then: { field: "@key", function: casing, functionOptions: { type: "snake" } },
  },
  "tg-property-description": {
    description: "Every schema property has a description.",
    given: SCHEMAS,
    then: { function: propertyDescriptions },
  },
});
// Valid examples: spectral:oas validates them; here at error severity, so a broken example fails the lint.
const exampleRules = { "oas3-valid-media-example": "error", "oas3-valid-schema-example": "error" } as const;

export const bundleRuleset: RulesetDefinition = {
  extends: [
    [oas as RulesetDefinition, "recommended"],
    [owasp, "all"],
  ],
  formats: [oas3_1],
  rules: {
    ...houseRules,
    ...exampleRules,
    // Switched-off OWASP rules, each with the reference's words that rule them out:
    // Reference: "arrays may be empty with no item limit" (Target query), and no bound is given for positions, skills or dq_flags.
    "owasp:api4:2023-array-limit": "off",
    // Reference gives no length for response strings (headline, label, notes) nor for keywords, company, school ("at least 1 char").
    "owasp:api4:2023-string-limit": "off",
    // Reference describes free text (keywords, headline, about) with no format or pattern to state.
    "owasp:api4:2023-string-restricted": "off",
    // Reference bounds offset, min_company_months, min_role_months and result_limit only from below (">= 0", ">= 1"); counts have no maximum.
    "owasp:api4:2023-integer-limit": "off",
    // Reference documents no CORS headers, and says keys "must not be placed in frontend bundles".
    "owasp:api8:2023-define-cors-origin": "off",
    // OWASP's rule, except loopback: the local sandbox and mock servers listen on 127.0.0.1, which no traffic leaves.
    "owasp:api8:2023-no-server-http": {
      message: "Server URLs must not use http://. Use https:// or wss:// instead.",
      severity: ERROR,
      given: "$.servers..url",
      then: { function: pattern, functionOptions: { notMatch: "^http://(?!(127\\.0\\.0\\.1|localhost)[:/])" } },
    },
  },
};

export const rootRuleset: RulesetDefinition = {
  rules: documented({
    "tg-path-item-ref": {
      description: "Every path item of the root is a $ref to its own file under paths/.",
      message: "Path item must be a $ref to a file under paths/ ({{error}}).",
      resolved: false,
      given: "$.paths[*]",
      then: [
        { field: "$ref", function: defined },
        { field: "$ref", function: pattern, functionOptions: { match: "^paths/[^/]+\\.yaml$" } },
      ],
    },
    "tg-root-only-refs": {
      description:
        "The root holds only openapi, info, servers, tags, security, x-tagGroups, paths and component $refs.",
      message: "The root must not define {{property}}.",
      resolved: false,
      given: "$",
      then: {
        function: (root: unknown) =>
          Object.keys((root ?? {}) as object)
            .filter(
              (k) =>
                !["openapi", "info", "servers", "tags", "security", "x-tagGroups", "paths", "components"].includes(k),
            )
            .map((k) => ({ message: `The root must not define "${k}".`, path: [k] })),
      },
    },
    "tg-root-components-ref": {
      description: "Components in the root are $refs to files.",
      message: "Component must be a $ref to a file.",
      resolved: false,
      given: "$.components[*][*]",
      then: { field: "$ref", function: defined },
    },
  }),
};
