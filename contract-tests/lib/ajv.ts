/** The Ajv instance: JSON Schema 2020-12, strict mode, all errors, OpenAPI keywords and formats registered. */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { FormatsPlugin } from "ajv-formats";

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
export function createAjv(doc: unknown): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true, // `type: [string, "null"]` is how 3.1 writes nullable
    allErrors: true,
    verbose: true, // errors carry parentSchema, mapped back to spec locations
  });
  addFormats(ajv); // includes int32, int64, float, double, password, binary
  ajv.addVocabulary([...OPENAPI_KEYWORDS, ...extensionKeywords(doc)]);
  return ajv;
}
