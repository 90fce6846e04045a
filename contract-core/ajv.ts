/** The Ajv instance: JSON Schema 2020-12, strict mode, all errors, OpenAPI keywords and formats registered. */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";
import type { Options, ValidateFunction } from "ajv";

const addFormats = addFormatsModule as unknown as FormatsPlugin;

/** Annotation keywords OpenAPI 3.1 adds to JSON Schema; they carry no validation. */
const OPENAPI_KEYWORDS = ["example", "discriminator", "xml", "externalDocs"];

/** Every `x-` key used anywhere in the document (Ajv has no wildcard for extension keywords). */
function extensionKeywords(doc: unknown): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) found.add(key);
      walk(value);
    }
  };
  walk(doc);
  return [...found].sort();
}

/** Strict mode fully on (unknown keywords and formats, strictTypes, strictTuples all throw). */
export function createAjv(doc: unknown, options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true, // `type: [string, "null"]` is how 3.1 writes nullable
    allErrors: true,
    verbose: true, // errors carry parentSchema, mapped back to spec locations
    ...options,
  });
  addFormats(ajv); // includes int32, int64, float, double, password, binary
  ajv.addVocabulary([...OPENAPI_KEYWORDS, ...extensionKeywords(doc)]);
  return ajv;
}

const COMPONENTS_ID = "https://contract.talent-graph.example/components.json";
const LOCAL_COMPONENT_REF = /"\$ref":"#\/components\/schemas\//g;

/** What `createSpecCompiler` returns: a compiler for the document's schemas. */
export interface SpecCompiler {
  /** The validator of `schema` (a schema of the document); the same function for the same schema text. */
  compile(schema: unknown): ValidateFunction;
}

/**
 * Compilers already made, by document content and options. A new Ajv instance compiles the JSON Schema
 * meta-schema before it checks the first schema (about 20 ms) and then the components; a process that makes
 * many sandbox cores or mock prechecks for the same document (a test suite, MSW handlers made for each test)
 * would pay that every time. A compiler depends only on the components, the extension keywords and the
 * options it was made with, and its cache is keyed by each schema's text, so one made for equal content
 * serves every caller. The least recently used are dropped past `SHARED_COMPILERS_KEPT`.
 */
const sharedCompilers = new Map<string, SpecCompiler>();
const SHARED_COMPILERS_KEPT = 8;

/** Options made only of plain values can be part of a key; any other (a function, an object) cannot. */
const plainOptions = (options: Options) =>
  Object.values(options).every((v) => v === undefined || ["boolean", "number", "string"].includes(typeof v));

/**
 * A compiler for any schema of the document, its component `$ref`s pointing to the document's
 * `#/components/schemas`, registered once in an Ajv instance made as `createAjv` makes one. Compiled
 * functions are cached per schema text, and compilers are shared between callers with the same document
 * content and options (above), so the compiler's Ajv instance is not handed out.
 */
export function createSpecCompiler(doc: unknown, options: Options = {}): SpecCompiler {
  const components = (doc as { components?: { schemas?: unknown } } | null)?.components?.schemas ?? {};
  const componentsText = JSON.stringify(components);
  const keywords = extensionKeywords(doc);
  const key = plainOptions(options)
    ? `${JSON.stringify(Object.entries(options).sort())}\0${keywords.join(",")}\0${componentsText}`
    : undefined;
  const shared = key === undefined ? undefined : sharedCompilers.get(key);
  if (shared) {
    sharedCompilers.delete(key!);
    sharedCompilers.set(key!, shared);
    return shared;
  }
  const ajv = createAjv(doc, options);
  const rewrite = (text: string, base: string) =>
    JSON.parse(text.replace(LOCAL_COMPONENT_REF, `"$ref":"${base}#/$defs/`)) as object;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewrite(componentsText, "") });
  const cache = new Map<string, ValidateFunction>();
  const compiler: SpecCompiler = {
    compile(schema) {
      const text = JSON.stringify(schema ?? {});
      let validate = cache.get(text);
      if (!validate) cache.set(text, (validate = ajv.compile(rewrite(text, COMPONENTS_ID))));
      return validate;
    },
  };
  if (key !== undefined) {
    sharedCompilers.set(key, compiler);
    if (sharedCompilers.size > SHARED_COMPILERS_KEPT) sharedCompilers.delete(sharedCompilers.keys().next().value!);
  }
  return compiler;
}
