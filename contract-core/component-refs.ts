/**
 * The spec's component schemas as one schema of their own: `#/components/schemas/X` becomes
 * `<COMPONENTS_ID>#/$defs/X`, so a validator can hold the components once and any schema of the document can
 * point into them. Both schema checkers (schema-check.ts for requests, ajv.ts for the spec's own checks) read
 * the document this way.
 */
export const COMPONENTS_ID = "https://contract.talent-graph.example/components.json";

const LOCAL_COMPONENT_REF = /"\$ref":"#\/components\/schemas\//g;

/** JSON text of a schema of the document with its component refs pointing under `base` (`""`: inside the components). */
export function pointRefsAt(text: string, base: string): string {
  return text.replace(LOCAL_COMPONENT_REF, `"$ref":"${base}#/$defs/`);
}
