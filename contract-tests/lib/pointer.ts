/** JSON helpers: plain-object guard and JSON pointers (RFC 6901) for spec and instance locations. */

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Appends tokens to a pointer: `join("#/paths", "/people")` -> `#/paths/~1people`. */
export function join(pointer: string, ...tokens: (string | number)[]): string {
  return tokens.reduce<string>((acc, token) => `${acc}/${escapeToken(String(token))}`, pointer);
}

/** Resolves a local pointer such as `#/components/responses/NotFound` in `doc`; undefined when absent. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  const path = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (path === "") return doc;
  let node: unknown = doc;
  for (const raw of path.slice(1).split("/")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[unescapeToken(decodeURIComponent(raw))];
  }
  return node;
}

/** Follows local `$ref`s (chains included, cycles stopped) to the node they point at; any other node comes back as is. */
export function deref(doc: unknown, node: unknown): unknown {
  const seen = new Set<string>();
  let current = node;
  while (isObj(current) && typeof current.$ref === "string" && current.$ref.startsWith("#") && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}
