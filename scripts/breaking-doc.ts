/** Small helpers over JSON/OpenAPI documents: type guards, JSON pointers, local $refs, operation keys. */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
export const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const show = (v: unknown): string => JSON.stringify(v);

export const escapePointer = (s: string): string => s.replaceAll("~", "~0").replaceAll("/", "~1");
export const unescapePointer = (s: string): string => s.replaceAll("~1", "/").replaceAll("~0", "~");

export function getPointer(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const seg of pointer.split("/").slice(1)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObj(cur)) cur = cur[unescapePointer(seg)];
    else return undefined;
  }
  return cur;
}

/** Follows local $refs (siblings of $ref override the target, as OpenAPI 3.1 allows). */
export function deref(doc: Obj, node: unknown): { node: Obj; ref?: string } {
  let cur = node;
  let ref: string | undefined;
  const seen = new Set<string>();
  while (isObj(cur) && typeof cur.$ref === "string" && cur.$ref.startsWith("#") && !seen.has(cur.$ref)) {
    seen.add(cur.$ref);
    ref = cur.$ref;
    const { $ref: _ignored, ...siblings } = cur;
    const target = asObj(getPointer(doc, cur.$ref.slice(1)));
    cur = Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
  }
  return { node: asObj(cur), ref };
}


export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Operation identity ignores path-template variable names: /people/{slug} == /people/{id}. */
export const operationKey = (display: string): string => display.replace(/\{[^}]*\}/g, "{}");
