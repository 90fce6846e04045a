/**
 * The runtime spec: the bundled spec with only what its two readers read at run time, the MSW handlers
 * (sandbox and mock: they validate requests and answer them) and client/validate (it checks answers). It keeps
 * the operations, parameters, request and response schemas, the response examples (`Prefer: code=` and
 * `example=` answer with them, and the mock answers with nothing else), the first server URL (the default
 * mount), the response headers an answer must carry (client/validate checks required headers only) and the
 * `x-` rules the readers apply (READ_EXTENSIONS). It drops what no reader reads: the prose written for people
 * (descriptions, summaries, tags, info texts, external docs), request and parameter examples (nothing answers
 * with a request), optional response headers and header examples (the sandbox writes its own headers), the
 * other servers, the security schemes (the sandbox has its own keys) and every other `x-` extension.
 * generated/openapi.runtime.json is written by `npm run generate`; hosts/msw/runtime-spec.test.ts checks that
 * the handlers and client/validate answer with it exactly as with the full spec. Data stays whole: example
 * values, defaults, enums and constants are copied as they are, and a property that happens to be called
 * `description` or `summary` is a property, not prose.
 */
const PROSE = new Set(["description", "summary", "tags", "externalDocs", "termsOfService"]);
/**
 * The `x-` extensions a reader reads at run time (spec/EXTENSIONS.md): query parameter rules (`x-requires`,
 * `x-term-list`, `x-clamp`) and the mock's example choice (`x-mock-match`). The others describe the spec for
 * its own checks and docs, or are read by `npm run generate` (`x-known-values`: generated/spec-constants.ts).
 */
export const READ_EXTENSIONS = new Set(["x-requires", "x-term-list", "x-clamp", "x-mock-match"]);
/** Values that are data, copied whole. */
const DATA = new Set(["example", "examples", "default", "const", "enum", "x-mock-match"]);
/** Maps whose keys are names chosen by the spec (a property may be called "description"). */
const NAMED = new Set(["properties", "patternProperties", "$defs", "schemas", "responses", "headers", "parameters"]);

function slim(node: unknown, named: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => slim(item, false));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (named) out[key] = slim(value, false);
    else if (key.startsWith("x-") && !READ_EXTENSIONS.has(key)) continue;
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
      Object.fromEntries(
        Object.entries(example).filter(
          ([key]) => !PROSE.has(key) && (!key.startsWith("x-") || READ_EXTENSIONS.has(key)),
        ),
      ),
    ]),
  );
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

/** A local `$ref`'s target in `doc` (one step), or the node itself. */
function target(doc: Node, node: unknown): unknown {
  if (!isNode(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return node;
  let at: unknown = doc;
  for (const token of node.$ref.slice(2).split("/"))
    at = isNode(at) ? at[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  return at;
}

/** A parameter or request body without its examples and without `required: false` (the default). */
const withoutExamples = (node: unknown) => {
  if (isNode(node)) {
    delete node.example;
    delete node.examples;
    if (node.required === false) delete node.required;
  }
};

/** The response's headers an answer must carry (required), without their examples; the others go. */
function keepRequiredHeaders(doc: Node, response: unknown): void {
  if (!isNode(response) || !isNode(response.headers)) return;
  const kept = Object.entries(response.headers).filter(([, header]) => {
    const resolved = target(doc, header);
    return isNode(resolved) && resolved.required === true;
  });
  if (kept.length) response.headers = Object.fromEntries(kept);
  else delete response.headers;
}

/** Drops, in place, what no reader reads (see the file comment) from a document already without prose. */
function dropUnread(doc: Node): void {
  const components = isNode(doc.components) ? doc.components : {};
  const operations = Object.values(isNode(doc.paths) ? doc.paths : {}).flatMap((item) =>
    isNode(item) ? [item, ...Object.values(item).filter(isNode)] : [],
  );
  for (const op of operations) {
    for (const parameter of Array.isArray(op.parameters) ? op.parameters : []) withoutExamples(parameter);
    const body = target(doc, op.requestBody);
    if (isNode(body)) withoutExamples(body);
    if (isNode(body) && isNode(body.content)) Object.values(body.content).forEach(withoutExamples);
    for (const response of Object.values(isNode(op.responses) ? op.responses : {})) keepRequiredHeaders(doc, response);
  }
  Object.values(isNode(components.parameters) ? components.parameters : {}).forEach(withoutExamples);
  for (const body of Object.values(isNode(components.requestBodies) ? components.requestBodies : {}))
    if (isNode(body) && isNode(body.content)) Object.values(body.content).forEach(withoutExamples);
  for (const response of Object.values(isNode(components.responses) ? components.responses : {}))
    keepRequiredHeaders(doc, response);
  Object.values(isNode(components.headers) ? components.headers : {}).forEach(withoutExamples);
  delete doc.security;
  delete components.securitySchemes;
  if (Array.isArray(doc.servers)) doc.servers = doc.servers.slice(0, 1);
  // Components nothing refers to any more (request examples, optional headers) go with their last reference.
  for (const kind of ["examples", "headers"]) {
    const named = components[kind];
    if (!isNode(named)) continue;
    const text = JSON.stringify({ ...doc, components: { ...components, [kind]: {} } });
    for (const name of Object.keys(named))
      if (!text.includes(JSON.stringify(`#/components/${kind}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`)))
        delete named[name];
  }
  inlineSingleExamples(doc);
}

/**
 * An example that one media type refers to is put in its place (readers follow a `$ref` or take the value
 * alike, and a name in `examples` is the media type's, not the component's); one that several refer to
 * stays in components.examples, written once.
 */
function inlineSingleExamples(doc: Node): void {
  const components = isNode(doc.components) ? doc.components : {};
  const named = components.examples;
  if (!isNode(named)) return;
  const PREFIX = "#/components/examples/";
  const refs = new Map<string, number>();
  for (const [, ref] of JSON.stringify(doc).matchAll(/"\$ref":"(#\/components\/examples\/[^"]+)"/g))
    refs.set(ref!, (refs.get(ref!) ?? 0) + 1);
  const inline = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(inline);
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "examples" && isNode(value) && node !== components)
        for (const [name, example] of Object.entries(value)) {
          const ref = isNode(example) ? example.$ref : undefined;
          if (typeof ref === "string" && ref.startsWith(PREFIX) && refs.get(ref) === 1) {
            const component = ref.slice(PREFIX.length).replaceAll("~1", "/").replaceAll("~0", "~");
            value[name] = named[component];
            delete named[component];
          }
        }
      else if (key !== "examples" && !DATA.has(key)) inline(value);
    }
  };
  inline(doc.paths);
  inline(components.responses);
}

/** The runtime spec of a bundled spec (see the file comment); `notice` goes in its `x-generated`. */
export function runtimeSpec(doc: Record<string, unknown>, notice: string): Record<string, unknown> {
  const { info, ...rest } = slim(doc, false) as Record<string, unknown>;
  dropUnread(rest);
  const { title, version } = (info ?? {}) as Record<string, unknown>;
  return { "x-generated": notice, ...rest, info: { title, version } };
}
