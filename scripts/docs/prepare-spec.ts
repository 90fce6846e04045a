/**
 * Turns the bundled spec into the copy the docs render: shapes the written reference does not show
 * (`x-shape-not-shown: true`, see spec/EXTENSIONS.md) and bounds the reference does not give
 * (`x-limit-not-in-reference`) get a visible notice, and every operation gets generated code samples. The
 * bundle itself is never modified.
 */
import { withCodeSamples } from "./code-samples.js";
import { deref } from "../../contract-core/portable.js";
import { isObject, listOperations, STRICT, type Json, type OpenApiDoc } from "./openapi.js";

export const SHAPE_FLAG = "x-shape-not-shown";
export const SHAPE_NOTICE_TITLE = "Shape not shown in the reference";
export const SHAPE_NOTICE =
  `> **${SHAPE_NOTICE_TITLE}.** The written API reference does not show this shape; do not rely on ` +
  "any key inside it.";

export const LIMIT_FLAG = "x-limit-not-in-reference";
export const LIMIT_NOTICE_TITLE = "Limit not in the reference";
const limitNotice = (keywords: string[]) =>
  `> **${LIMIT_NOTICE_TITLE}.** The written API reference gives no ${keywords.map((k) => `\`${k}\``).join(", ")} here; ` +
  "this bound is the contract's own (a security lint rule asks for one).";
/** The keywords a schema marks as its own limits, or none. */
const ownLimits = (node: Json | undefined): string[] =>
  isObject(node) && Array.isArray(node[LIMIT_FLAG])
    ? node[LIMIT_FLAG].filter((k): k is string => typeof k === "string")
    : [];

export interface DocsSpec {
  doc: OpenApiDoc;
  warnings: string[];
  /** operationId (or `METHOD path`) -> parts of the operation whose shape is not shown. */
  shapeNotShown: Map<string, string[]>;
}

export function prepareDocsSpec(bundle: OpenApiDoc): DocsSpec {
  const { doc, warnings } = withCodeSamples(bundle);
  const shapeNotShown = markOperations(doc);
  markFlaggedSchemas(doc);
  resolveServerVariables(doc);
  if (isObject(doc.info) && typeof doc.info.description === "string")
    doc.info.description = breakableTableWords(doc.info.description);
  return { doc, warnings, shapeNotShown };
}

/**
 * Each server URL with its variables at their defaults (`{origin}/v1` -> `https://api.talent-graph.example/v1`),
 * so the page's Servers panel and server selector show the URL a request goes to rather than a template.
 */
export function resolveServerVariables(doc: OpenApiDoc): void {
  for (const server of Array.isArray(doc.servers) ? doc.servers : []) {
    if (!isObject(server) || typeof server.url !== "string" || !isObject(server.variables)) continue;
    const variables = server.variables;
    server.url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable.default === "string" ? variable.default : whole;
    });
    if (!/\{[^}]+\}/.test(server.url)) delete server.variables;
  }
}

/**
 * In the rows of Markdown tables, a line-break opportunity (`<wbr>`) after each underscore of a word outside code
 * spans: a long identifier such as `certification_target_unsupported` wraps at its underscores in a narrow
 * column instead of mid-word, and copies without any added character.
 */
export function breakableTableWords(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) =>
      line.trimStart().startsWith("|")
        ? line
            .split(/(`[^`]*`)/)
            .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?<=\w_)(?=\w)/g, "<wbr>")))
            .join("")
        : line,
    )
    .join("\n");
}

/** Keys whose values are data, not schemas; and keys mapping arbitrary names to schemas. */
const SKIPPED_KEYS = new Set(["example", "examples", "default", "enum", "const", "x-codeSamples"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);

const prefixed = (notice: string, description: Json | undefined) =>
  typeof description === "string" && description.trim() !== "" ? `${notice}\n\n${description}` : notice;

/** Prefixes the description of every flagged schema, wherever it is declared (example data aside). */
export function markFlaggedSchemas(node: Json): number {
  let count = 0;
  if (Array.isArray(node)) {
    for (const item of node) count += markFlaggedSchemas(item);
  } else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_MAPS.has(key) && isObject(value))
        count += Object.values(value).reduce<number>((n, schema) => n + markFlaggedSchemas(schema), 0);
      else if (!SKIPPED_KEYS.has(key)) count += markFlaggedSchemas(value);
    }
    if (node[SHAPE_FLAG] === true) {
      node.description = prefixed(SHAPE_NOTICE, node.description);
      count += 1;
    }
    const limits = ownLimits(node);
    if (limits.length > 0) {
      node.description = prefixed(limitNotice(limits), node.description);
      count += 1;
    }
    // A parameter shows its own description, not its schema's: repeat the limit notice there.
    const parameterLimits = typeof node.in === "string" ? ownLimits(node.schema) : [];
    if (parameterLimits.length > 0) node.description = prefixed(limitNotice(parameterLimits), node.description);
  }
  return count;
}

/**
 * Adds a notice to each operation whose request body or success responses contain a flagged schema,
 * naming where (for example "200 response (data[].query)"), so the mark is visible at the top of the
 * operation and not only inside a collapsed schema. Error responses keep their schema-level notice only
 * (every operation shares the 5XX body, so listing it everywhere would bury the useful notices).
 */
function markOperations(doc: OpenApiDoc): Map<string, string[]> {
  const marked = new Map<string, string[]>();
  for (const op of listOperations(doc)) {
    const parts: string[] = [];
    const describe = (label: string, content: Json | undefined) => {
      const where = flaggedSchemasIn(doc, content);
      if (where.length === 0) return;
      const named = where.filter((location) => location !== "");
      parts.push(named.length === where.length ? `${label} (${named.join(", ")})` : label);
    };
    const body = deref<Json | undefined>(doc, op.operation.requestBody, STRICT);
    if (isObject(body)) describe("request body", body.content);
    const responses = isObject(op.operation.responses) ? op.operation.responses : {};
    for (const [status, raw] of Object.entries(responses)) {
      const response = deref<Json | undefined>(doc, raw, STRICT);
      if (/^2/.test(status) && isObject(response)) describe(`${status} response`, response.content);
    }
    if (parts.length === 0) continue;
    const key =
      typeof op.operation.operationId === "string" ? op.operation.operationId : `${op.method.toUpperCase()} ${op.path}`;
    marked.set(key, parts);
    const notice = `> **${SHAPE_NOTICE_TITLE}:** ${parts.join("; ")}. The written API reference does not show these shapes; do not rely on any key inside them.`;
    op.operation.description = prefixed(notice, op.operation.description);
  }
  return marked;
}

/**
 * Where flagged schemas sit below a node: "" for the node's own schema, else a property path such as
 * "data[].query" (`[]` for array items).
 */
export function flaggedSchemasIn(doc: OpenApiDoc, node: Json | undefined): string[] {
  const found = new Set<string>();
  const seenRefs = new Set<string>();
  const visit = (value: Json | undefined, where: string) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, where);
      return;
    }
    if (!isObject(value)) return;
    if (typeof value.$ref === "string") {
      if (seenRefs.has(value.$ref)) return;
      seenRefs.add(value.$ref);
      visit(deref<Json | undefined>(doc, value, STRICT), where);
      return;
    }
    if (value[SHAPE_FLAG] === true) found.add(where);
    for (const [key, child] of Object.entries(value)) {
      if (SCHEMA_MAPS.has(key) && isObject(child)) {
        for (const [name, schema] of Object.entries(child)) visit(schema, where ? `${where}.${name}` : name);
      } else if (key === "items") visit(child, `${where}[]`);
      else if (!SKIPPED_KEYS.has(key)) visit(child, where);
    }
  };
  visit(node, "");
  return [...found];
}
