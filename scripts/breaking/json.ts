/** Small helpers over JSON/OpenAPI documents for the detector: type guards, operation keys; pointers and $refs come from the core. */
import { followRef, isObj, type Obj } from "../../contract-core/index.js";

export { isObj, type Obj };
export const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
export const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const show = (v: unknown): string => JSON.stringify(v);

export { escapeToken, unescapeToken, resolvePointer, HTTP_METHODS } from "../../contract-core/index.js";

/** Follows local $refs (siblings of $ref override the target, as OpenAPI 3.1 allows). */
export function deref(doc: Obj, node: unknown): { node: Obj; ref?: string } {
  const { node: target, ref } = followRef(doc, node, { mergeSiblings: true });
  return ref === undefined ? { node: asObj(target) } : { node: asObj(target), ref };
}

/** Operation identity ignores path-template variable names: /people/{slug} == /people/{id}. */
export const operationKey = (display: string): string => display.replace(/\{[^}]*\}/g, "{}");
