/** The Ajv instance: JSON Schema 2020-12, strict mode, all errors, OpenAPI keywords and formats registered. */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";
import type { Options, ValidateFunction } from "ajv";

const addFormats = addFormatsModule as unknown as FormatsPlugin;

/** Annotation keywords OpenAPI 3.1 adds to JSON Schema; they carry no validation. */
export const OPENAPI_KEYWORDS = ["example", "discriminator", "xml", "externalDocs"];

/** Every `x-` key used anywhere in the document (Ajv has no wildcard for extension keywords). */
export function extensionKeywords(doc: unknown): string[] {
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

/**
 * An Ajv instance (as `createAjv`) with the document's `#/components/schemas` registered once, and a
 * compiler for any schema of the document whose component `$ref`s point there. Compiled functions are
 * cached per schema text.
 */
export function createSpecCompiler(
  doc: unknown,
  options: Options = {},
): { ajv: Ajv2020; compile(schema: unknown): ValidateFunction } {
  const ajv = createAjv(doc, options);
  const rewrite = (node: unknown, base: string) =>
    JSON.parse(JSON.stringify(node ?? {}).replace(LOCAL_COMPONENT_REF, `"$ref":"${base}#/$defs/`)) as object;
  const components = (doc as { components?: { schemas?: unknown } } | null)?.components?.schemas ?? {};
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewrite(components, "") });
  const cache = new Map<string, ValidateFunction>();
  return {
    ajv,
    compile(schema) {
      const key = JSON.stringify(schema ?? {});
      let validate = cache.get(key);
      if (!validate) cache.set(key, (validate = ajv.compile(rewrite(schema, COMPONENTS_ID))));
      return validate;
    },
  };
}
