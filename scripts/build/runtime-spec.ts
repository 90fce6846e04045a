/**
 * The runtime spec: the bundled spec with only what the sandbox and mock need to validate requests and answer
 * them (operations, parameters, schemas, responses, examples, the server URL and the `x-` rules they read),
 * without the prose written for people (descriptions, summaries, tags, info texts, external docs). The MSW
 * handlers embed it (generated/openapi.runtime.json, written by `npm run generate`), so a page carries no
 * documentation bytes. Data stays whole: example values, defaults, enums and constants are copied as they are,
 * and a property that happens to be called `description` or `summary` is a property, not prose.
 */
const PROSE = new Set(["description", "summary", "tags", "externalDocs", "x-tagGroups", "termsOfService"]);
/** Values that are data, copied whole. */
const DATA = new Set(["example", "examples", "default", "const", "enum", "x-known-values", "x-mock-match"]);
/** Maps whose keys are names chosen by the spec (a property may be called "description"). */
const NAMED = new Set(["properties", "patternProperties", "$defs", "schemas", "responses", "headers", "parameters"]);

function slim(node: unknown, named: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => slim(item, false));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (named) out[key] = slim(value, false);
    else if (key === "examples" && isExampleMap(value)) out[key] = slimExamples(value);
    else if (DATA.has(key)) out[key] = value;
    else if (PROSE.has(key) && (key !== "tags" || Array.isArray(value))) continue;
    else out[key] = slim(value, NAMED.has(key) && !Array.isArray(value));
  }
  return out;
}

/** A media type's or components' `examples`: name -> { summary, description, value, x-... } (or a $ref). */
function isExampleMap(value: unknown): value is Record<string, Record<string, unknown>> {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => v !== null && typeof v === "object" && ("value" in v || "$ref" in v))
  );
}

function slimExamples(map: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, example]) => [
      name,
      Object.fromEntries(Object.entries(example).filter(([key]) => !PROSE.has(key))),
    ]),
  );
}

/** The runtime spec of a bundled spec (see the file comment); `notice` goes in its `x-generated`. */
export function runtimeSpec(doc: Record<string, unknown>, notice: string): Record<string, unknown> {
  const { info, ...rest } = slim(doc, false) as Record<string, unknown>;
  const { title, version } = (info ?? {}) as Record<string, unknown>;
  return { "x-generated": notice, ...rest, info: { title, version } };
}
