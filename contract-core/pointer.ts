/** JSON helpers: plain-object guard, JSON pointers (RFC 6901) and local `$ref` resolution for every part. */

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

/** Resolves a local pointer such as `#/components/responses/NotFound` (or `/a/0/b`) in `doc`; undefined when absent. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  // `#/...` is the URI-fragment form (percent-encoded); `/...` the plain form.
  const fragment = pointer.startsWith("#");
  const path = fragment ? pointer.slice(1) : pointer;
  if (path === "") return doc;
  let node: unknown = doc;
  // Most pointers hold no escape (`~`) and no percent-encoding: their tokens are the keys as they are.
  const plain = !path.includes("~") && !(fragment && path.includes("%"));
  for (const raw of path.slice(1).split("/")) {
    if (node === null || typeof node !== "object") return undefined;
    const key = plain ? raw : unescapeToken(fragment ? decodeURIComponent(raw) : raw);
    if (!Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export interface DerefOptions {
  /** Throw on a non-local, unresolvable or circular `$ref` instead of stopping there (the docs build wants loud failures). */
  strict?: boolean;
  /** Keep the `$ref`'s sibling keys over the target's, as OpenAPI 3.1 allows (the breaking-change detector compares them). */
  mergeSiblings?: boolean;
}

/**
 * Follows local `$ref`s (chains included) to the node they point at, and reports the last `$ref` followed.
 * Any other node comes back as is. Without `strict`, a cycle or a missing target stops the walk.
 */
export function followRef(doc: unknown, node: unknown, options: DerefOptions = {}): { node: unknown; ref?: string } {
  const seen = new Set<string>();
  let current = node;
  let ref: string | undefined;
  while (isObj(current) && typeof current.$ref === "string") {
    const next = current.$ref;
    if (!next.startsWith("#")) {
      if (options.strict) throw new Error(`Only local $refs are supported in the bundle, got ${next}`);
      break;
    }
    if (seen.has(next)) {
      if (options.strict) throw new Error(`Circular $ref ${next}`);
      break;
    }
    seen.add(next);
    const target = resolvePointer(doc, next);
    if (target === undefined && options.strict) throw new Error(`Unresolvable $ref ${next}`);
    ref = next;
    const { $ref: _ref, ...siblings } = current;
    current =
      options.mergeSiblings && Object.keys(siblings).length > 0
        ? { ...(isObj(target) ? target : {}), ...siblings }
        : target;
  }
  return ref === undefined ? { node: current } : { node: current, ref };
}

/** The node a (chain of) local `$ref`(s) points at; see followRef. `T` is the caller's view of it (not checked). */
export function deref<T = unknown>(doc: unknown, node: unknown, options: DerefOptions = {}): T {
  return followRef(doc, node, options).node as T;
}
