/** The Ajv instance: JSON Schema 2020-12, strict mode, all errors, OpenAPI keywords and formats registered. */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";
import type { Options, ValidateFunction } from "ajv";
import { COMPONENTS_ID, pointRefsAt } from "./component-refs.js";

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

/** What `createSpecCompiler` returns: a compiler for the document's schemas. */
export interface SpecCompiler {
  /** The validator of `schema` (a schema of the document); the same function for the same schema text. */
  compile(schema: unknown): ValidateFunction;
}

/**
 * A compiler for any schema of the document, its component `$ref`s pointing to the document's
 * `#/components/schemas`, registered once in an Ajv instance made as `createAjv` makes one; the same
 * function for the same schema text. For the spec's own checks (examples, what the spec accepts), which want
 * Ajv's strict mode and its full reports; requests are checked by schema-check.ts.
 */
export function createSpecCompiler(doc: unknown, options: Options = {}): SpecCompiler {
  const components = (doc as { components?: { schemas?: unknown } } | null)?.components?.schemas ?? {};
  const componentsText = JSON.stringify(components);
  const ajv = createAjv(doc, options);
  const rewrite = (text: string, base: string) => JSON.parse(pointRefsAt(text, base)) as object;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewrite(componentsText, "") });
  const cache = new Map<string, ValidateFunction>();
  return {
    compile(schema) {
      const text = JSON.stringify(schema ?? {});
      let validate = cache.get(text);
      if (!validate) cache.set(text, (validate = ajv.compile(rewrite(text, COMPONENTS_ID))));
      return validate;
    },
  };
}
