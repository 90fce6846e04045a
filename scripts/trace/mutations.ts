/**
 * The mutations of a spec element that a trace entry names (prove mode, prove.ts): for each pointer, the ways
 * of breaking what it encodes (a required key dropped, a bound moved, an enum value removed, a type widened, a
 * pattern loosened, a term-list limit moved, an operation or response removed, ...), each a change to a copy of
 * the bundle. The named checks must fail under every one of them.
 */
import { atPointer } from "./trace.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

export type MutationKind =
  | "required-key-dropped"
  | "bound-moved"
  | "term-limit-moved"
  | "enum-value-removed"
  | "const-removed"
  | "type-widened"
  | "pattern-loosened"
  | "parameter-made-optional"
  | "operation-removed"
  | "response-removed"
  | "element-removed"
  | "value-changed";

export interface Mutation {
  /** The pointer the entry names. */
  pointer: string;
  kind: MutationKind;
  /** One line: what was changed, where (`required key dropped: match at /components/schemas/Person`). */
  description: string;
  /** Makes the change in `doc`, a copy of the bundle. */
  apply(doc: unknown): void;
}

/** Follows `$ref`s from `pointer`: the pointer of the element itself. */
function targetOf(doc: unknown, pointer: string): string | undefined {
  let at = pointer;
  for (let hops = 0; hops < 8; hops++) {
    const node = atPointer(doc, at);
    if (node === undefined) return undefined;
    if (!isObj(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#")) return at;
    at = node.$ref.slice(1);
  }
  return undefined;
}

/** The parent of the element at `pointer` and its key there (an index for a list). */
function locate(doc: unknown, pointer: string): { parent: Obj | unknown[]; key: string | number } | undefined {
  const cut = pointer.lastIndexOf("/");
  if (cut < 0) return undefined;
  const parent = atPointer(doc, pointer.slice(0, cut) || "");
  const element = atPointer(doc, pointer);
  if (Array.isArray(parent)) {
    const index = parent.indexOf(element);
    return index < 0 ? undefined : { parent, key: index };
  }
  if (!isObj(parent)) return undefined;
  const key = pointer
    .slice(cut + 1)
    .replaceAll("~1", "/")
    .replaceAll("~0", "~");
  return Object.hasOwn(parent, key) ? { parent, key } : undefined;
}

const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;

/** The most required keys dropped one at a time for one schema (first, middle and last). */
const REQUIRED_SAMPLE = 3;

/** The ways of loosening the schema at `at` (found again in each copy, so each mutation applies to a fresh one). */
function schemaMutations(doc: unknown, pointer: string, at: string): Mutation[] {
  const schema = atPointer(doc, at);
  if (!isObj(schema)) return [];
  const out: Mutation[] = [];
  const edit = (kind: MutationKind, description: string, change: (s: Obj) => void) =>
    out.push({
      pointer,
      kind,
      description: `${description} at ${at}`,
      apply: (copy) => {
        const node = atPointer(copy, at);
        if (!isObj(node)) throw new Error(`mutation target ${at} is gone`);
        change(node);
      },
    });
  const terms = schema["x-term-list"];
  if (isObj(terms))
    for (const key of ["maxTerms", "maxTermLength"] as const)
      if (typeof terms[key] === "number") {
        const moved = terms[key] * 2 + 1;
        edit("term-limit-moved", `x-term-list ${key} ${terms[key]} -> ${moved}`, (s) => {
          (s["x-term-list"] as Obj)[key] = moved;
        });
      }
  for (const key of UPPER)
    if (typeof schema[key] === "number") {
      const moved = (schema[key] as number) * 2 + 1;
      edit("bound-moved", `${key} ${String(schema[key])} -> ${moved}`, (s) => {
        s[key] = moved;
      });
    }
  for (const key of LOWER)
    if (typeof schema[key] === "number") {
      const moved = (schema[key] as number) - 1;
      edit("bound-moved", `${key} ${String(schema[key])} -> ${moved}`, (s) => {
        s[key] = moved;
      });
    }
  if (typeof schema.pattern === "string")
    edit("pattern-loosened", `pattern ${JSON.stringify(schema.pattern)} removed`, (s) => {
      delete s.pattern;
    });
  if (Array.isArray(schema.enum) && schema.enum.length > 1) {
    const value =
      schema.default !== undefined && schema.enum.includes(schema.default) ? schema.default : schema.enum[0];
    edit("enum-value-removed", `enum value ${JSON.stringify(value)} removed`, (s) => {
      s.enum = (s.enum as unknown[]).filter((v) => v !== value);
    });
  }
  if (schema.const !== undefined)
    edit("const-removed", `const ${JSON.stringify(schema.const)} removed`, (s) => {
      delete s.const;
    });
  if (Array.isArray(schema.required) && schema.required.length > 0) {
    const keys = schema.required as string[];
    const picks = [...new Set([0, Math.floor(keys.length / 2), keys.length - 1])].slice(0, REQUIRED_SAMPLE);
    for (const i of picks) {
      const key = keys[i]!;
      edit("required-key-dropped", `required key dropped: ${key}`, (s) => {
        s.required = (s.required as string[]).filter((k) => k !== key);
      });
    }
  }
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  if (types.length > 0) {
    const extra = types.includes("string") ? "number" : "string";
    edit("type-widened", `type ${JSON.stringify(schema.type)} widened with ${extra}`, (s) => {
      s.type = [...types, extra];
    });
  }
  return out;
}

/** Removes the element at `at` (found again in each copy). */
function removal(pointer: string, at: string, kind: MutationKind, what: string): Mutation {
  return {
    pointer,
    kind,
    description: `${what} removed: ${at}`,
    apply: (copy) => {
      const place = locate(copy, at);
      if (!place) throw new Error(`mutation target ${at} is gone`);
      if (Array.isArray(place.parent)) place.parent.splice(place.key as number, 1);
      else delete place.parent[place.key as string];
    },
  };
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/**
 * The mutations derived from the element at `pointer` in `doc` (empty when it does not resolve). A `$ref` is
 * followed: the element it points to is the one changed.
 */
export function mutationsFor(doc: unknown, pointer: string): Mutation[] {
  const at = targetOf(doc, pointer);
  if (at === undefined) return [];
  const node = atPointer(doc, at);
  const last = at.slice(at.lastIndexOf("/") + 1);
  const own = isObj(node) ? ownMutations(doc, pointer, at, node, last) : undefined;
  // A property the schema requires: dropping it from the holder's `required` comes first.
  const holder = /^(.*)\/properties\/([^/]+)$/.exec(pointer);
  const holderAt = holder ? targetOf(doc, holder[1]!) : undefined;
  const held = holderAt ? atPointer(doc, holderAt) : undefined;
  const name = holder?.[2]?.replaceAll("~1", "/").replaceAll("~0", "~");
  const dropped: Mutation[] =
    isObj(held) && Array.isArray(held.required) && name !== undefined && held.required.includes(name)
      ? [
          {
            pointer,
            kind: "required-key-dropped",
            description: `required key dropped: ${name} at ${holderAt}`,
            apply: (copy) => {
              const s = atPointer(copy, holderAt!) as Obj;
              s.required = (s.required as string[]).filter((k) => k !== name);
            },
          },
        ]
      : [];
  if (own) return [...dropped, ...own];
  return [...dropped, ...scalarMutations(pointer, at, node, last)];
}

function ownMutations(doc: unknown, pointer: string, at: string, node: Obj, last: string): Mutation[] {
  {
    if (typeof node.in === "string" && typeof node.name === "string") {
      const schemaAt = isObj(node.schema) ? targetOf(doc, `${at}/schema`) : undefined;
      const out = schemaAt ? schemaMutations(doc, pointer, schemaAt) : [];
      if (node.required === true)
        out.push({
          pointer,
          kind: "parameter-made-optional",
          description: `parameter ${node.name} made optional at ${at}`,
          apply: (copy) => {
            (atPointer(copy, at) as Obj).required = false;
          },
        });
      return out.length > 0 ? out : [removal(pointer, at, "element-removed", `parameter ${node.name}`)];
    }
    if (HTTP_METHODS.has(last) && isObj(node.responses))
      return [removal(pointer, at, "operation-removed", "operation")];
    if (/^(\d{3}|\dXX|default)$/.test(last) && at.includes("/responses/"))
      return [removal(pointer, at, "response-removed", "response")];
    if (isObj(node.schema) && (at.includes("/content/") || last === "requestBody")) {
      const schemaAt = targetOf(doc, `${at}/schema`);
      const found = schemaAt ? schemaMutations(doc, pointer, schemaAt) : [];
      if (found.length > 0) return found;
    }
    if (isObj(node.content) && last === "requestBody") {
      const media = Object.keys(node.content)[0];
      const schemaAt = media ? targetOf(doc, `${at}/content/${media.replaceAll("/", "~1")}/schema`) : undefined;
      const found = schemaAt ? schemaMutations(doc, pointer, schemaAt) : [];
      if (found.length > 0) return found;
    }
    const schema = schemaMutations(doc, pointer, at);
    if (schema.length > 0) return schema;
    return [removal(pointer, at, "element-removed", "element")];
  }
}

function scalarMutations(pointer: string, at: string, node: unknown, last: string): Mutation[] {
  if (typeof node === "number")
    return [
      {
        pointer,
        kind: "bound-moved",
        description: `${last} ${node} -> ${node * 2 + 1} at ${at}`,
        apply: (copy) => {
          const place = locate(copy, at)!;
          (place.parent as Obj)[place.key as string] = node * 2 + 1;
        },
      },
    ];
  return [
    removal(
      pointer,
      at,
      typeof node === "string" || typeof node === "boolean" ? "value-changed" : "element-removed",
      "value",
    ),
  ];
}
