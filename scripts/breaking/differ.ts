/**
 * Our own rules: compares two bundled OpenAPI 3.x documents operation by operation (webhooks and callbacks too)
 * and reports every change with its POLICY rule, location and verdict. Every key a rule judges is marked on the
 * raw node that holds it; after the rules, the safety net walks both documents and reports each difference at a
 * key no rule marked as an `unclassified-change` (breaking until reviewed). Pure and synchronous.
 */
import { HTTP_METHODS, type Obj, escapeToken, isObj, resolvePointer } from "../../contract-core/index.js";
import { ANNOTATION_EXTENSIONS, type Change, type RuleDef, type RuleId, POLICY, UNCLASSIFIED_WHY } from "./policy.js";
import { SameReach } from "./same-reach.js";
import { separateJson } from "./separate-json.js";

const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === "string");
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const show = (v: unknown): string => JSON.stringify(v);
const decodePointer = (ref: string): string => {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
};
const isContainer = (v: unknown): v is Obj | unknown[] => v !== null && typeof v === "object";

/** JSON with sorted keys: equal for equal values whatever the key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "undefined";
}

/** Deep equality of two values holding no $ref (undefined when a $ref is met: its target decides). */
function plainEqual(b: unknown, h: unknown): boolean | undefined {
  if (b === h) return true;
  if (!isContainer(b) || !isContainer(h)) return false;
  if (Array.isArray(b) !== Array.isArray(h)) return false;
  if (Array.isArray(b) && Array.isArray(h)) {
    if (b.length !== h.length) return false;
    let result: boolean | undefined = true;
    for (let i = 0; i < b.length && result !== false; i += 1) {
      const r = plainEqual(b[i], h[i]);
      result = r === false ? false : r === undefined ? undefined : result;
    }
    return result;
  }
  const [ob, oh] = [b as Obj, h as Obj];
  if ("$ref" in ob || "$ref" in oh) return undefined;
  const keys = Object.keys(ob);
  if (keys.length !== Object.keys(oh).length) return false;
  let result: boolean | undefined = true;
  for (const k of keys) {
    if (!(k in oh)) return false;
    const r = plainEqual(ob[k], oh[k]);
    if (r === false) return false;
    if (r === undefined) result = undefined;
  }
  return result;
}

const MAX_VALUE = 240;
const compact = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
};

/** Operation identity ignores path-template variable names: /people/{slug} == /people/{id}. */
export const operationKey = (display: string): string => display.replace(/\{[^}]*\}/g, "{}");

// Raw nodes and what the rules judged of them

/** A node as compared (local $refs followed, siblings of $ref over the target) and the raw nodes holding each key. */
interface Node {
  s: Obj;
  ref?: string;
  /** For each key of `s`, the raw nodes whose value of that key `s` represents as it is. */
  src: Map<string, Obj[]>;
  /** Structural keys the node consumed ($ref of each wrapper, allOf, the null variant of a nullable union). */
  consumed: [object, string][];
}

function resolve(doc: Obj, raw: unknown): Node {
  if (!isObj(raw) || typeof raw.$ref !== "string" || !raw.$ref.startsWith("#")) {
    // No local $ref: every key is the node's own (the one list of holders is shared: no one writes to it).
    const target = isObj(raw) ? raw : {};
    const s: Obj = {};
    const src = new Map<string, Obj[]>();
    const holders = [target];
    for (const k in target) {
      s[k] = target[k];
      src.set(k, holders);
    }
    return { s, src, consumed: [] };
  }
  const wrappers: Obj[] = [];
  const seen = new Set<string>();
  let current: unknown = raw;
  let ref: string | undefined;
  while (isObj(current) && typeof current.$ref === "string" && current.$ref.startsWith("#")) {
    if (seen.has(current.$ref)) break;
    seen.add(current.$ref);
    wrappers.push(current);
    ref = current.$ref;
    current = resolvePointer(doc, current.$ref);
  }
  const target = isObj(current) ? current : {};
  const s: Obj = {};
  const src = new Map<string, Obj[]>();
  const own = (part: Obj, k: string) => part !== target && k === "$ref";
  for (const part of [...wrappers, target])
    for (const [k, v] of Object.entries(part)) {
      if (own(part, k) || src.has(k) || (part === target && wrappers.includes(target))) continue;
      s[k] = v;
      src.set(k, [part]);
    }
  const node: Node = { s, src, consumed: wrappers.map((w) => [w, "$ref"]) };
  if (ref !== undefined) node.ref = ref;
  return node;
}

/** The raw node a chain of sibling-free $refs ends at (the node itself otherwise). */
function target(doc: Obj, raw: unknown): unknown {
  let current = raw;
  for (
    let i = 0;
    i < 32 && isObj(current) && typeof current.$ref === "string" && Object.keys(current).length === 1;
    i += 1
  )
    current = resolvePointer(doc, current.$ref);
  return current;
}

// Schema view: allOf merged, single-variant nullable unions unwrapped, boolean schemas understood

interface View extends Node {
  nullable: boolean;
  /** The `false` schema (or an allOf holding one): no value is valid. */
  never: boolean;
  /** For each property of `s`, the raw `properties` objects holding it. */
  props: Map<string, Obj[]>;
}

const emptyView = (never = false): View => ({
  s: {},
  src: new Map(),
  consumed: [],
  nullable: false,
  never,
  props: new Map(),
});

const isNullSchema = (s: Obj): boolean =>
  s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null") || s.const === null;

const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties", "maxContains"] as const;
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties", "minContains"] as const;
const UPPER = new Set<string>(UPPER_BOUNDS);
const LOWER = new Set<string>(LOWER_BOUNDS);

/** Keys that cannot reach a client, and the rule that reports their change. */
function exemptRule(key: string): RuleId | undefined {
  if (key === "description" || key === "summary") return "description-changed";
  if (key === "example" || key === "examples") return "example-changed";
  if (key === "title" || key === "$comment" || key === "externalDocs" || key === "tags") return "annotation-changed";
  if (ANNOTATION_EXTENSIONS.includes(key)) return "annotation-changed";
  return undefined;
}

const typeList = (t: unknown): string[] | undefined =>
  typeof t === "string" ? [t] : Array.isArray(t) && t.every((x) => typeof x === "string") ? (t as string[]) : undefined;

/** Adds part `p` (an allOf member) to `v`: both apply, so bounds take the tighter value. A conflict keeps v's. */
function mergeInto(v: View, p: View): void {
  v.nullable ||= p.nullable;
  v.never ||= p.never;
  v.consumed.push(...p.consumed);
  if (v.ref === undefined && p.ref !== undefined) v.ref = p.ref;
  for (const [k, value] of Object.entries(p.s)) {
    const from = p.src.get(k) ?? [];
    const both = () => v.src.set(k, [...(v.src.get(k) ?? []), ...from]);
    if (k === "properties" && isObj(value)) {
      const mine: Obj = isObj(v.s.properties) ? { ...v.s.properties } : {};
      // A property the schema declares itself refines the one it takes from allOf: both apply, its own first.
      for (const [name, schema] of Object.entries(value)) {
        mine[name] = name in mine ? { allOf: [mine[name], schema] } : schema;
        v.props.set(name, [...(v.props.get(name) ?? []), ...(p.props.get(name) ?? [])]);
      }
      v.s.properties = mine;
      both();
    } else if (!(k in v.s)) {
      v.s[k] = value;
      v.src.set(k, [...from]);
    } else if (k === "required") {
      v.s.required = [...new Set([...strings(v.s.required), ...strings(value)])];
      both();
    } else if (k === "type" && typeList(v.s.type) && typeList(value)) {
      // Both types apply: the intersection (integer is a number).
      const [mine, theirs] = [typeList(v.s.type)!, typeList(value)!];
      const meet = (x: string[], y: string[]) =>
        x.filter((t) => y.includes(t) || (t === "integer" && y.includes("number")));
      const types = [...new Set([...meet(mine, theirs), ...meet(theirs, mine)])];
      v.s.type = types.length === 1 ? types[0] : types;
      if (types.length === 0) v.never = true; // no type satisfies both parts
      both();
    } else if (["items", "propertyNames", "contentSchema"].includes(k) && isObj(v.s[k]) && isObj(value)) {
      v.s[k] = { allOf: [v.s[k], value] }; // every item (name, content) satisfies both
      both();
    } else if (k === "enum" && Array.isArray(v.s.enum) && Array.isArray(value)) {
      v.s.enum = v.s.enum.filter((x) => value.some((y) => canonical(x) === canonical(y)));
      both();
    } else if (canonical(v.s[k]) === canonical(value) || exemptRule(k) !== undefined) both();
    else if ((LOWER.has(k) || UPPER.has(k)) && typeof value === "number" && typeof v.s[k] === "number") {
      v.s[k] = LOWER.has(k) ? Math.max(v.s[k], value) : Math.min(v.s[k], value);
      both();
    }
    // Any other conflict: v's value stays and p's is left unmarked, for the safety net to judge.
  }
}

function view(doc: Obj, node: unknown, depth = 0): View {
  if (node === false) return emptyView(true);
  if (node === true || node === undefined) return emptyView();
  const r = resolve(doc, node);
  const v: View = { ...r, s: { ...r.s }, src: new Map(r.src), nullable: false, never: false, props: new Map() };
  if (isObj(r.s.properties)) for (const name of Object.keys(r.s.properties)) v.props.set(name, [r.s.properties]);
  if (Array.isArray(v.s.allOf) && depth < 16) {
    const parts = v.s.allOf;
    delete v.s.allOf;
    v.src.delete("allOf");
    for (const part of parts) mergeInto(v, view(doc, part, depth + 1));
  }
  for (const kw of ["oneOf", "anyOf"] as const) {
    const variants = v.s[kw];
    if (!Array.isArray(variants) || depth >= 16) continue;
    const isNull = variants.map((x) => isNullSchema(resolve(doc, x).s));
    if (!isNull.includes(true)) continue;
    v.nullable = true;
    isNull.forEach((n, i) => n && v.consumed.push([variants, String(i)]));
    const nonNull = variants.filter((_, i) => !isNull[i]);
    if (nonNull.length === 1) {
      const inner = view(doc, nonNull[0], depth + 1);
      const { [kw]: _dropped, ...outer } = v.s;
      const src = new Map(inner.src);
      for (const k of Object.keys(outer)) src.set(k, v.src.get(k) ?? []);
      v.s = { ...inner.s, ...outer };
      v.src = src;
      if (!isObj(outer.properties)) v.props = inner.props;
      if (inner.ref !== undefined) v.ref = inner.ref;
      v.nullable ||= inner.nullable;
      v.never ||= inner.never;
      v.consumed.push(...inner.consumed);
    } else v.s = { ...v.s, [kw]: nonNull };
  }
  if (v.s.nullable === true) v.nullable = true;
  if (v.s.type === "null" || (Array.isArray(v.s.type) && v.s.type.includes("null"))) v.nullable = true;
  return v;
}

/** The JSON type of a value (integers are "integer"). */
const jsonType = (v: unknown): string =>
  Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : v === null ? "null" : typeof v;

/** Non-null JSON types of a schema, or undefined when unconstrained (or a union). */
function typesOf(s: Obj): Set<string> | undefined {
  if (typeof s.type === "string") return new Set([s.type].filter((t) => t !== "null"));
  if (Array.isArray(s.type)) return new Set(strings(s.type).filter((t) => t !== "null"));
  // A const or an enum without a type allows the types of its values only.
  const values = "const" in s ? [s.const] : Array.isArray(s.enum) ? s.enum : [];
  const valueTypes = new Set(values.filter((v) => v !== null).map(jsonType));
  if (valueTypes.size > 0) return valueTypes;
  // properties or items without a type constrain objects or arrays only: any other value is valid too.
  return undefined;
}

const unionOf = (s: Obj): unknown[] | undefined =>
  Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;

/** integer values are numbers, so "number" covers "integer". */
const covers = (set: Set<string>, t: string): boolean => set.has(t) || (t === "integer" && set.has("number"));
const fmtTypes = (set: Set<string> | undefined): string => (set ? [...set].join(" | ") || "null" : "any");

/** A type change in a reviewer's words: a type that is only null reads as "always null", not as a type name. */
function typeChange(before: Set<string> | undefined, after: Set<string> | undefined, wasNullable: boolean): string {
  if (after?.size === 0) return `is now always null (was ${fmtTypes(before)}${wasNullable ? " or null" : ""})`;
  if (before?.size === 0) return `may now be ${fmtTypes(after)} (was always null)`;
  return `type changed from ${fmtTypes(before)} to ${fmtTypes(after)}`;
}

function enumOf(s: Obj): unknown[] | undefined {
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  return values?.filter((v) => v !== null);
}

/** format changes that accept more values than before. */
const WIDER_FORMATS = new Set(["int32>int64", "float>double", "int32>double", "float>int64"]);

/** Schema keys judged as a whole by the rules of compareSchema (subschemas and maps are judged member by member). */
const SCHEMA_LEAVES = new Set<string>([
  "type",
  "nullable",
  "enum",
  "const",
  ...UPPER_BOUNDS,
  ...LOWER_BOUNDS,
  "pattern",
  "format",
  "multipleOf",
  "uniqueItems",
  "required",
  "dependentRequired",
  "default",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentMediaType",
  "contentEncoding",
  "if",
  "discriminator",
]);
/** Subschema keywords whose absence means "anything" and which constrain in the schema's own direction. */
const SUBSCHEMAS = [
  "items",
  "additionalProperties",
  "propertyNames",
  "contains",
  "contentSchema",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
] as const;

// Operations

interface Param {
  n: Node;
  /** The raw parameters array holding it and its index there. */
  container: unknown[];
  index: number;
}

interface OpInfo {
  display: string;
  operationId: string | undefined;
  op: Node;
  raw: Obj;
  pathItem: Node;
  params: Map<string, Param>;
}

const paramKey = (p: Obj): string => {
  const where = str(p.in) ?? "";
  const name = str(p.name) ?? "";
  return `${where}:${where === "header" ? name.toLowerCase() : name}`;
};

/** Template variables whose name changed at the same position of the path: base name -> head name. */
function renamedTemplateVariables(baseDisplay: string, headDisplay: string): Map<string, string> {
  const names = (display: string) => [...display.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] ?? "");
  const head = names(headDisplay);
  return new Map(
    names(baseDisplay).flatMap((name, i) => (head[i] !== undefined && head[i] !== name ? [[name, head[i]]] : [])),
  );
}

/**
 * An operation as listed from its map of path items: the path item's key, its raw node and the method. Its node
 * and parameters are resolved when first asked for: an operation found unchanged needs neither.
 */
class ListedOp implements OpInfo {
  declare readonly display: string;
  declare readonly raw: Obj;
  declare readonly pathItem: Node;
  declare readonly itemKey: string;
  declare readonly itemRaw: unknown;
  declare readonly method: string;
  declare private readonly doc: Obj;
  #op: Node | undefined;
  #params: Map<string, Param> | undefined;

  constructor(doc: Obj, display: string, raw: Obj, pathItem: Node, item: [string, unknown], method: string) {
    this.doc = doc;
    this.display = display;
    this.raw = raw;
    this.pathItem = pathItem;
    [this.itemKey, this.itemRaw] = item;
    this.method = method;
  }

  get op(): Node {
    return (this.#op ??= resolve(this.doc, this.raw));
  }

  get operationId(): string | undefined {
    return str(this.op.s.operationId);
  }

  get params(): Map<string, Param> {
    if (this.#params === undefined) {
      const params = new Map<string, Param>();
      for (const container of [this.pathItem.s.parameters, this.op.s.parameters]) {
        list(container).forEach((p, index) => {
          const n = resolve(this.doc, p);
          params.set(paramKey(n.s), { n, container: container as unknown[], index });
        });
      }
      this.#params = params;
    }
    return this.#params;
  }
}

/** The operations of a map of path items (`paths`, `webhooks`, a callback), keyed by operationKey. */
function operationsOf(doc: Obj, items: unknown, display: (key: string, method: string) => string) {
  const ops = new Map<string, ListedOp>();
  for (const item of Object.entries(asObj(items))) {
    const pathItem = resolve(doc, item[1]);
    for (const method of HTTP_METHODS) {
      const raw = pathItem.s[method];
      if (!isObj(raw)) continue;
      const shown = display(item[0], method);
      ops.set(operationKey(shown), new ListedOp(doc, shown, raw, pathItem, item, method));
    }
  }
  return ops;
}

// The differ

type Dir = "request" | "response";
const flip = (dir: Dir): Dir => (dir === "request" ? "response" : "request");

/** Where we are: pointer relative to the operation, and inside a named component if any. */
class Loc {
  declare readonly ptr: string;
  declare readonly comp?: string;

  constructor(ptr: string, comp?: string) {
    this.ptr = ptr;
    this.comp = comp;
  }
  child(...segs: string[]): Loc {
    const tail = segs.map((s) => `/${escapeToken(s)}`).join("");
    return new Loc(this.ptr + tail, this.comp === undefined ? undefined : this.comp + tail);
  }
  enter(ref: string | undefined): Loc {
    return ref?.startsWith("#/components/") ? new Loc(this.ptr, ref) : this;
  }
}

const defaultStyle = (where: string): string => (where === "path" || where === "header" ? "simple" : "form");
const DOCUMENT: Pick<OpInfo, "display" | "operationId"> = { display: "(document)", operationId: undefined };

class Differ {
  readonly changes: Change[] = [];
  private op: Pick<OpInfo, "display" | "operationId"> = DOCUMENT;
  private readonly stack = new Set<string>();
  /** Keys judged by a rule, per raw node of either document. */
  private readonly marks = new WeakMap<object, Set<string>>();
  /** Raw nodes paired by a rule (a parameter, a variant, a path item), for the safety net's walk over arrays. */
  private readonly partners = new WeakMap<object, object>();
  /** The first operation and location where a raw node was compared, to place an unclassified change. */
  private readonly context = new WeakMap<object, { op: Pick<OpInfo, "display" | "operationId">; ptr: string }>();
  /** Raw schema pairs (base, head) compared without a change, per direction: compared once per run. */
  private readonly quiet = new WeakMap<object, WeakMap<object, Set<Dir>>>();
  private cuts = 0;
  declare private readonly base: Obj;
  declare private readonly head: Obj;
  /** Finds the operations whose whole reach is unchanged (absent: every operation is compared in full). */
  declare private readonly reach: SameReach | undefined;
  /** Whether the document's own security and its security schemes (which operations read by name) are unchanged. */
  private securitySame: boolean | undefined;

  constructor(base: Obj, head: Obj, options: DetectOptions) {
    this.base = base;
    this.head = head;
    this.reach = options.everyOperation === true ? undefined : new SameReach(base, head);
  }

  run(): Change[] {
    this.compareDocument();
    const paths = (doc: Obj) => operationsOf(doc, doc.paths, (path, method) => `${method.toUpperCase()} ${path}`);
    this.compareOperations(paths(this.base), paths(this.head), "operation");
    const hooks = (doc: Obj) =>
      operationsOf(doc, doc.webhooks, (name, method) => `${method.toUpperCase()} webhook ${name}`);
    this.compareOperations(hooks(this.base), hooks(this.head), "webhook");
    this.op = DOCUMENT;
    this.addedComponents();
    this.net(this.base, this.head, "#", undefined);
    return this.changes;
  }

  // --- bookkeeping ----------------------------------------------------------

  private add(rule: RuleId, loc: Loc, message: string, values?: { before?: string; after?: string }): void {
    const { breaking, why }: RuleDef = POLICY[rule];
    const { display: operation, operationId } = this.op;
    if (this.changes.some((c) => c.rule === rule && c.operation === operation && c.location === loc.ptr)) return;
    const change: Change = { rule, breaking, operation, operationId, location: loc.ptr, message };
    if (loc.comp !== undefined) change.component = loc.comp;
    if (why) change.why = why;
    if (values?.before !== undefined) change.before = values.before;
    if (values?.after !== undefined) change.after = values.after;
    this.changes.push(change);
  }

  private mark(node: unknown, ...keys: string[]): void {
    if (!isContainer(node)) return;
    let set = this.marks.get(node);
    if (!set) this.marks.set(node, (set = new Set()));
    for (const k of keys) set.add(k);
  }

  private marked(node: unknown, key: string): boolean {
    return isContainer(node) && (this.marks.get(node)?.has(key) ?? false);
  }

  /** Marks `keys` of a compared node on the raw nodes that hold them, and its structural keys. */
  private judged(n: Node, keys: Iterable<string>, loc?: Loc): void {
    for (const [raw, key] of n.consumed) this.mark(raw, key);
    const wanted = keys instanceof Set ? (keys as Set<string>) : new Set(keys);
    if (wanted.size > 0 || loc)
      for (const [k, raws] of n.src)
        for (const raw of raws) {
          if (wanted.has(k)) this.mark(raw, k);
          if (loc && !this.context.has(raw)) this.context.set(raw, { op: this.op, ptr: loc.ptr });
        }
  }

  private place(raw: object, loc: Loc): void {
    if (!this.context.has(raw)) this.context.set(raw, { op: this.op, ptr: loc.ptr });
  }

  private pair(b: unknown, h: unknown): void {
    if (isContainer(b) && isContainer(h) && b !== h) {
      this.partners.set(b, h);
      this.partners.set(h, b);
    }
  }

  /**
   * A whole subtree a rule reported (added or removed): its key in `container`, and every component it reaches
   * through $refs, are judged with it.
   */
  private cover(doc: Obj, container: unknown, key: string | number, seen = new Set<string>()): void {
    this.mark(container, String(key));
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (isObj(node)) {
        const ref = node.$ref;
        if (typeof ref === "string" && ref.startsWith("#/") && !seen.has(ref)) {
          seen.add(ref);
          const cut = ref.lastIndexOf("/");
          const parent = resolvePointer(doc, ref.slice(0, cut));
          const last = decodePointer(ref.slice(cut + 1))
            .replace(/~1/g, "/")
            .replace(/~0/g, "~");
          if (isContainer(parent)) this.mark(parent, last);
          walk(resolvePointer(doc, ref));
        }
        Object.values(node).forEach(walk);
      }
    };
    walk(isContainer(container) ? (container as Obj)[String(key)] : undefined);
  }

  /** The value with every local $ref inlined (a cycle keeps its $ref), for comparing whole subtrees. */
  private inline(doc: Obj, node: unknown, seen: string[] = []): unknown {
    if (Array.isArray(node)) return node.map((x) => this.inline(doc, x, seen));
    if (!isObj(node)) return node;
    const ref = node.$ref;
    if (typeof ref === "string" && ref.startsWith("#") && !seen.includes(ref) && seen.length < 32) {
      const { $ref: _ref, ...siblings } = node;
      const target = resolvePointer(doc, ref);
      return this.inline(doc, isObj(target) ? { ...target, ...siblings } : target, [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, this.inline(doc, v, seen)]));
  }

  private same(b: unknown, h: unknown): boolean {
    const plain = plainEqual(b, h);
    if (plain !== undefined) return plain;
    // Written the same, and so is everything the $refs reach: the inlined values are equal too.
    if (this.reach?.same(b, h)) return true;
    return canonical(this.inline(this.base, b)) === canonical(this.inline(this.head, h));
  }

  // --- exempt keys: prose, examples, annotations ----------------------------

  /** Reports changed prose, examples and annotations of two compared nodes and marks them. */
  private compareNotes(b: Node, h: Node, loc: Loc): void {
    for (const key of new Set([...Object.keys(b.s), ...Object.keys(h.s)])) {
      const rule = exemptRule(key);
      if (rule === undefined && key !== "deprecated") continue;
      this.judged(b, [key]);
      this.judged(h, [key]);
      if (key === "deprecated") {
        if ((b.s.deprecated === true) !== (h.s.deprecated === true))
          this.add(
            "deprecated",
            loc.child("deprecated"),
            h.s.deprecated === true ? "marked deprecated" : "no longer deprecated",
          );
        continue;
      }
      for (const raw of [...(b.src.get(key) ?? [])]) this.cover(this.base, raw, key);
      for (const raw of [...(h.src.get(key) ?? [])]) this.cover(this.head, raw, key);
      // Every value the node holds (an allOf part's description under the schema's own one, too).
      const all = (n: Node) => (n.src.get(key) ?? []).map((raw) => raw[key]);
      if (rule === undefined || this.same(all(b), all(h))) continue;
      const what = b.s[key] === undefined ? "added" : h.s[key] === undefined ? "removed" : "changed";
      this.add(rule, loc.child(key), `${key} ${what}`);
    }
  }

  // --- the document -----------------------------------------------------------

  private compareDocument(): void {
    const b = resolve(this.base, this.base);
    const h = resolve(this.head, this.head);
    const root = new Loc("");
    this.compareNotes(b, h, root);
    this.judged(b, ["openapi"]);
    this.judged(h, ["openapi"]);
    if (b.s.openapi !== h.s.openapi) this.unclassified(root.child("openapi"), "#/openapi", b.s.openapi, h.s.openapi);
    // info: title, version, contact, license, terms are annotations (the version's major bump is a marker).
    const bi = resolve(this.base, b.s.info);
    const hi = resolve(this.head, h.s.info);
    for (const key of new Set([...Object.keys(bi.s), ...Object.keys(hi.s)])) {
      this.judged(bi, [key]);
      this.judged(hi, [key]);
      if (canonical(bi.s[key]) !== canonical(hi.s[key]))
        this.add("annotation-changed", new Loc("", `#/info/${escapeToken(key)}`), `info ${key} changed`);
    }
    this.mark(this.base, "info");
    this.mark(this.head, "info");
    this.compareServers(b.s.servers, h.s.servers, root, "#/servers");
    if (!Array.isArray(b.s.servers) || !Array.isArray(h.s.servers)) {
      this.mark(this.base, "servers");
      this.mark(this.head, "servers");
    }
  }

  private compareServers(b: unknown, h: unknown, loc: Loc, pointer: string): void {
    const byUrl = (v: unknown) => new Map(list(v).map((s, i) => [str(asObj(s).url) ?? `#${i}`, [s, i] as const]));
    const [sb, sh] = [byUrl(b), byUrl(h)];
    const at = (i: number) => new Loc(loc.ptr, `${pointer}/${i}`);
    for (const [url, [server, i]] of sb) {
      const match = sh.get(url);
      if (!match) {
        this.mark(b, String(i));
        this.add("server-removed", at(i), `server ${url} removed`);
        continue;
      }
      this.pair(server, match[0]);
      const [nb, nh] = [resolve(this.base, server), resolve(this.head, match[0])];
      this.judged(nb, ["url"]);
      this.judged(nh, ["url"]);
      this.compareNotes(nb, nh, at(match[1]));
    }
    for (const [url, [, i]] of sh) {
      if (sb.has(url)) continue;
      this.mark(h, String(i));
      this.add("server-added", at(i), `server ${url} added`);
    }
  }

  /** Components of the head that no rule reached and the base does not have: only types gain them. */
  private addedComponents(): void {
    for (const [type, group] of Object.entries(asObj(this.head.components))) {
      const before = asObj(asObj(this.base.components)[type]);
      for (const name of Object.keys(asObj(group))) {
        if (name in before || this.marked(group, name) || this.reached(asObj(group)[name])) continue;
        this.cover(this.head, group, name);
        this.add(
          "component-added",
          new Loc("", `#/components/${escapeToken(type)}/${escapeToken(name)}`),
          `component ${type}/${name} added`,
        );
      }
    }
  }

  private reached(node: unknown): boolean {
    return isContainer(node) && this.marks.has(node);
  }

  /** Whether a rule judged any key in this subtree (then the walk goes in, to find what none judged). */
  private anyMark(node: unknown, depth = 0): boolean {
    if (!isContainer(node) || depth > 64) return false;
    if (this.marks.has(node)) return true;
    return Object.values(node).some((v) => this.anyMark(v, depth + 1));
  }

  // --- the safety net -------------------------------------------------------

  private unclassified(loc: Loc, pointer: string, before: unknown, after: unknown): void {
    const what = before === undefined ? "added" : after === undefined ? "removed" : "changed";
    const key = pointer
      .slice(pointer.lastIndexOf("/") + 1)
      .replace(/~1/g, "/")
      .replace(/~0/g, "~");
    const change: Change = {
      rule: "unclassified-change",
      breaking: true,
      operation: this.op.display,
      operationId: this.op.operationId,
      location: loc.ptr,
      component: pointer,
      message: `${show(key)} ${what} at ${pointer}: ${UNCLASSIFIED_WHY}`,
      why: UNCLASSIFIED_WHY,
    };
    const [b, a] = [compact(before), compact(after)];
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    if (!this.changes.some((c) => c.rule === change.rule && c.component === pointer)) this.changes.push(change);
  }

  /** Walks both documents; a difference at a key no rule judged is an unclassified change. */
  private net(
    b: unknown,
    h: unknown,
    pointer: string,
    ctx: { op: Pick<OpInfo, "display" | "operationId">; ptr: string; at: string } | undefined,
  ): void {
    // Nodes written the same with all they reach (an operation skipped, a $ref target it uses) hold no difference.
    if (this.reach?.known(b, h)) return;
    const here = (isContainer(h) && this.context.get(h)) || (isContainer(b) && this.context.get(b));
    if (here) ctx = { ...here, at: pointer };
    const report = (p: string, before: unknown, after: unknown) => {
      this.op = ctx?.op ?? DOCUMENT;
      this.unclassified(new Loc(ctx ? ctx.ptr + p.slice(ctx.at.length) : ""), p, before, after);
    };
    const step = (kb: string | undefined, kh: string | undefined, vb: unknown, vh: unknown, key: string) => {
      if ((kb !== undefined && this.marked(b, kb)) || (kh !== undefined && this.marked(h, kh))) return;
      const p = `${pointer}/${escapeToken(key)}`;
      if (vb === vh) return;
      if (isContainer(vb) && isContainer(vh) && Array.isArray(vb) === Array.isArray(vh)) this.net(vb, vh, p, ctx);
      else if (vb === undefined && this.anyMark(vh)) this.net(Array.isArray(vh) ? [] : {}, vh, p, ctx);
      else if (vh === undefined && this.anyMark(vb)) this.net(vb, Array.isArray(vb) ? [] : {}, p, ctx);
      else if (canonical(vb) !== canonical(vh)) report(p, vb, vh);
    };
    if (Array.isArray(b) && Array.isArray(h)) {
      const paired = b.some((x) => isContainer(x) && this.partners.has(x));
      if (!paired) {
        for (let i = 0; i < Math.max(b.length, h.length); i += 1)
          step(i < b.length ? String(i) : undefined, i < h.length ? String(i) : undefined, b[i], h[i], String(i));
        return;
      }
      const partnerIndex = b.map((x) => (isContainer(x) ? h.indexOf(this.partners.get(x)) : -1));
      const used = new Set(partnerIndex.filter((j) => j >= 0));
      // An item no rule paired (a second variant with the same $ref, say) meets the item at its position when
      // no rule paired that one either.
      const hasPartner = (x: unknown) => isContainer(x) && this.partners.has(x);
      b.forEach((x, i) => {
        let j = partnerIndex[i]!;
        if (j < 0 && i < h.length && !used.has(i) && !hasPartner(x) && !hasPartner(h[i])) j = i;
        if (j >= 0) used.add(j);
        step(String(i), j >= 0 ? String(j) : undefined, x, j >= 0 ? h[j] : undefined, String(j >= 0 ? j : i));
      });
      h.forEach((x, j) => used.has(j) || step(undefined, String(j), undefined, x, String(j)));
      return;
    }
    if (!isObj(b) || !isObj(h)) return;
    const partnerKey = new Map<string, string>();
    for (const [k, v] of Object.entries(b)) {
      if (k in h || !isContainer(v)) continue;
      const partner = this.partners.get(v);
      const hk = partner ? Object.keys(h).find((x) => h[x] === partner && !(x in b)) : undefined;
      if (hk !== undefined) partnerKey.set(k, hk);
    }
    const taken = new Set(partnerKey.values());
    for (const key of new Set([...Object.keys(b), ...Object.keys(h)])) {
      if (taken.has(key) && !(key in b)) continue;
      const hk = partnerKey.get(key) ?? (key in h ? key : undefined);
      step(key in b ? key : undefined, hk, b[key], hk === undefined ? undefined : h[hk], hk ?? key);
    }
  }

  // --- operations -------------------------------------------------------------

  private compareOperations(
    baseOps: ReturnType<typeof operationsOf>,
    headOps: ReturnType<typeof operationsOf>,
    kind: "operation" | "webhook",
  ): void {
    for (const [key, b] of baseOps) {
      const h = headOps.get(key);
      this.op = h ?? b;
      if (!h) {
        this.coverOperation(this.base, b, kind);
        this.add(`${kind}-removed`, new Loc(""), `${kind} ${b.display} removed`);
        continue;
      }
      this.pair(b.itemRaw, h.itemRaw);
      this.pair(b.raw, h.raw);
      if (this.unchanged(b, h)) continue;
      // Without a $ref on the way, the safety net meets the operations' requestBody and responses at their keys.
      const inPlace = [b.pathItem, b.op, h.pathItem, h.op].every((n) => n.consumed.length === 0);
      this.compareOperation(b, h, new Loc(""), kind === "webhook", inPlace);
    }
    for (const [key, h] of headOps) {
      if (baseOps.has(key)) continue;
      this.op = h;
      this.coverOperation(this.head, h, kind);
      this.coverSecurity(this.head, h);
      this.add(`${kind}-added`, new Loc(""), `${kind} ${h.display} added`);
    }
  }

  /**
   * An operation written the same on both sides, with everything it reaches through $refs, the path item's own
   * keys (parameters, prose) and the security it may inherit: the rules would find nothing in it, and no node it
   * reaches differs for the safety net to report.
   */
  private unchanged(b: ListedOp, h: ListedOp): boolean {
    const reach = this.reach;
    if (reach === undefined || b.display !== h.display) return false;
    this.securitySame ??=
      reach.same(this.base.security, this.head.security) &&
      reach.same(asObj(this.base.components).securitySchemes, asObj(this.head.components).securitySchemes);
    if (!this.securitySame) return false;
    const [ib, ih] = [b.itemRaw, h.itemRaw];
    if (!isObj(ib) || !isObj(ih) || "$ref" in ib || "$ref" in ih) return reach.same(ib, ih);
    const own = (item: Obj) => Object.keys(item).filter((k) => !(HTTP_METHODS as readonly string[]).includes(k));
    const [kb, kh] = [own(ib), own(ih)];
    return (
      kb.length === kh.length && kb.every((k, i) => k === kh[i] && reach.same(ib[k], ih[k])) && reach.same(b.raw, h.raw)
    );
  }

  /** An operation reported added or removed: its method, or its whole path item when the other side lacks it. */
  private coverOperation(
    doc: Obj,
    o: OpInfo & { itemKey: string; method: string },
    kind: "operation" | "webhook",
  ): void {
    const key = kind === "operation" ? "paths" : "webhooks";
    const other = doc === this.base ? this.head : this.base;
    if (!isObj(other[key])) this.mark(doc, key);
    else if (!(o.itemKey in other[key])) this.cover(doc, doc[key], o.itemKey);
    else this.cover(doc, o.pathItem.src.get(o.method)?.[0], o.method);
  }

  /** The effective security of an added operation, and the schemes it names, come with it. */
  private coverSecurity(doc: Obj, o: OpInfo): void {
    const own = o.op.s.security !== undefined;
    if (!own) this.mark(doc, "security");
    const schemes = asObj(asObj(doc.components).securitySchemes);
    for (const req of list(own ? o.op.s.security : doc.security))
      for (const name of Object.keys(asObj(req))) this.cover(doc, schemes, name);
  }

  /**
   * `inPlace`: the safety net's walk meets the raw parameters (paired), requestBody and responses (at their keys)
   * of the two operations as this pairs them. Then a parameter, request body or response written the same on both
   * sides, with all it reaches, is not compared: it gives the rules nothing to report, and the safety net finds no
   * difference in it to look up marks for.
   */
  private compareOperation(b: OpInfo, h: OpInfo, root: Loc, inverted: boolean, inPlace = false): void {
    // Containers (parameters, requestBody, responses, callbacks) are judged member by member below.
    this.judged(b.op, ["operationId", "security"], root);
    this.judged(h.op, ["operationId", "security"], root);
    this.judged(b.pathItem, [], root);
    this.judged(h.pathItem, [], root);
    if (b.operationId !== undefined && b.operationId !== h.operationId) {
      this.add(
        "operation-id-changed",
        root.child("operationId"),
        `operationId changed from ${b.operationId} to ${h.operationId ?? "(none)"}`,
      );
    }
    this.compareNotes(b.op, h.op, root);
    this.compareNotes(b.pathItem, h.pathItem, root);
    const req: Dir = inverted ? "response" : "request";
    this.compareParameters(b, h, root, req, inPlace);
    const [rbB, rbH] = [b.op.s.requestBody, h.op.s.requestBody];
    if (!(inPlace && this.reach?.same(rbB, rbH)))
      this.compareRequestBody(rbB, rbH, root.child("requestBody"), req, b.op, h.op, inPlace);
    this.compareResponses(b.op, h.op, root.child("responses"), flip(req), inPlace);
    this.compareSecurity(b, h, root);
    this.compareCallbacks(b.op, h.op, root);
  }

  // --- security ---------------------------------------------------------------

  private compareSecurity(b: OpInfo, h: OpInfo, root: Loc): void {
    const effective = (doc: Obj, o: OpInfo) => {
      if (o.op.s.security !== undefined) return o.op.s.security;
      this.mark(doc, "security");
      return doc.security;
    };
    const norm = (v: unknown) =>
      list(v).map((r) => new Map(Object.entries(asObj(r)).map(([k, scopes]) => [k, new Set(strings(scopes))])));
    const [rb, rh] = [norm(effective(this.base, b)), norm(effective(this.head, h))];
    // A client satisfying a base alternative still gets in when some head alternative asks no more of it.
    const within = (x: Map<string, Set<string>>, y: Map<string, Set<string>>, scopes: boolean) =>
      [...x].every(([k, s]) => y.has(k) && (!scopes || [...s].every((sc) => y.get(k)!.has(sc))));
    const at = root.child("security");
    const bAll = rb.length === 0 ? [new Map<string, Set<string>>()] : rb;
    const hAll = rh.length === 0 ? [new Map<string, Set<string>>()] : rh;
    for (const alt of bAll) {
      if (hAll.some((x) => within(x, alt, true))) continue;
      const names = [...alt.keys()].join(" + ") || "no authentication";
      if (hAll.some((x) => within(x, alt, false)))
        this.add("security-scope-added", at, `a scope was added to the requirement ${names}`);
      else this.add("security-requirement-added", at, `callers authenticated with ${names} now need more`);
    }
    if (hAll.some((x) => !bAll.some((y) => within(y, x, true))))
      this.add("security-requirement-relaxed", at, "a security requirement was relaxed or an alternative added");
    const schemes = (doc: Obj) => asObj(asObj(doc.components).securitySchemes);
    const used = new Set([...bAll, ...hAll].flatMap((m) => [...m.keys()]));
    for (const name of used) {
      const [sb, sh] = [schemes(this.base)[name], schemes(this.head)[name]];
      if (sb === undefined || sh === undefined) {
        if (sb !== undefined) this.cover(this.base, schemes(this.base), name);
        if (sh !== undefined) this.cover(this.head, schemes(this.head), name);
        continue;
      }
      const [nb, nh] = [resolve(this.base, sb), resolve(this.head, sh)];
      const loc = new Loc(at.ptr, `#/components/securitySchemes/${escapeToken(name)}`);
      this.compareNotes(nb, nh, loc);
      const keys = ["type", "name", "in", "scheme", "bearerFormat", "flows", "openIdConnectUrl"];
      this.judged(nb, keys);
      this.judged(nh, keys);
      for (const k of keys)
        if (!this.same(nb.s[k], nh.s[k]))
          this.add("security-scheme-changed", loc.child(k), `security scheme ${name}: ${k} changed`);
    }
  }

  // --- callbacks ----------------------------------------------------------------

  /** Callbacks: the server calls the client, so their requests are compared as responses and back. */
  private compareCallbacks(bo: Node, ho: Node, root: Loc): void {
    const [cb, ch] = [asObj(bo.s.callbacks), asObj(ho.s.callbacks)];
    const at = root.child("callbacks");
    for (const name of new Set([...Object.keys(cb), ...Object.keys(ch)])) {
      if (!(name in ch)) {
        this.cover(this.base, cb, name);
        this.add("callback-removed", at.child(name), `callback ${name} removed`);
        continue;
      }
      if (!(name in cb)) {
        this.cover(this.head, ch, name);
        this.add("callback-added", at.child(name), `callback ${name} added`);
        continue;
      }
      const [nb, nh] = [resolve(this.base, cb[name]), resolve(this.head, ch[name])];
      this.judged(nb, []);
      this.judged(nh, []);
      const shown = (expr: string, method: string) => `${method.toUpperCase()} ${expr}`;
      const [ob, oh] = [operationsOf(this.base, nb.s, shown), operationsOf(this.head, nh.s, shown)];
      for (const [key, b] of ob) {
        const h = oh.get(key);
        const loc = at.child(name, b.itemKey, b.method);
        if (!h) {
          if (!(b.itemKey in nh.s)) this.cover(this.base, nb.src.get(b.itemKey)?.[0], b.itemKey);
          else this.cover(this.base, b.pathItem.src.get(b.method)?.[0], b.method);
          this.add("callback-removed", loc, `callback ${name} ${b.display} removed`);
        } else {
          this.pair(b.raw, h.raw);
          this.pair(b.itemRaw, h.itemRaw);
          this.compareOperation(b, h, loc, true);
        }
      }
      for (const [key, h] of oh) {
        if (ob.has(key)) continue;
        if (!(h.itemKey in nb.s)) this.cover(this.head, nh.src.get(h.itemKey)?.[0], h.itemKey);
        else this.cover(this.head, h.pathItem.src.get(h.method)?.[0], h.method);
        this.add("callback-added", at.child(name, h.itemKey), `callback ${name} ${h.display} added`);
      }
    }
  }

  // --- parameters ---------------------------------------------------------

  private compareParameters(b: OpInfo, h: OpInfo, root: Loc, dir: Dir, inPlace: boolean): void {
    const paramLoc = (p: Obj) => root.child("parameters", str(p.in) ?? "", str(p.name) ?? "");
    const consumed = new Set<string>();
    const pathRenames = renamedTemplateVariables(b.display, h.display);
    const compare = (bp: Param, hp: Param) => {
      const [rawB, rawH] = [bp.container[bp.index], hp.container[hp.index]];
      // Paired, the safety net meets the two at once: written the same with all they reach, they hold nothing.
      this.pair(rawB, rawH);
      if (inPlace && this.reach?.same(rawB, rawH)) return;
      this.compareParameter(bp.n, hp.n, paramLoc(hp.n.s), dir);
    };
    for (const [key, bp] of b.params) {
      const hp = h.params.get(key);
      if (hp) {
        consumed.add(key);
        compare(bp, hp);
        continue;
      }
      const bs = bp.n.s;
      // A path parameter keeps its position in the template: the URL on the wire is unchanged, but every
      // client that names it (typed clients, path templates) breaks.
      const renamedPath =
        bs.in === "path" ? h.params.get(`path:${pathRenames.get(str(bs.name) ?? "") ?? ""}`) : undefined;
      if (renamedPath && !consumed.has(paramKey(renamedPath.n.s))) {
        consumed.add(paramKey(renamedPath.n.s));
        this.add(
          "parameter-renamed",
          paramLoc(renamedPath.n.s),
          `path parameter renamed from ${show(bs.name)} to ${show(renamedPath.n.s.name)}`,
        );
        compare(bp, renamedPath);
        continue;
      }
      const name = (str(bs.name) ?? "").toLowerCase();
      const moved = [...h.params].find(
        ([k, p]) => !b.params.has(k) && !consumed.has(k) && (str(p.n.s.name) ?? "").toLowerCase() === name,
      );
      if (moved) {
        consumed.add(moved[0]);
        this.add(
          "parameter-location-changed",
          paramLoc(moved[1].n.s),
          `parameter ${show(bs.name)} moved from ${str(bs.in)} to ${str(moved[1].n.s.in)}`,
        );
        compare(bp, moved[1]);
        continue;
      }
      const fresh = [...h.params].filter(([k, p]) => !b.params.has(k) && !consumed.has(k) && p.n.s.in === bs.in);
      const renamedTo = fresh.length === 1 ? fresh[0] : undefined;
      if (renamedTo) {
        consumed.add(renamedTo[0]);
        this.add(
          "parameter-renamed",
          paramLoc(renamedTo[1].n.s),
          `${str(bs.in)} parameter renamed from ${show(bs.name)} to ${show(renamedTo[1].n.s.name)}`,
        );
        compare(bp, renamedTo[1]);
        continue;
      }
      this.cover(this.base, bp.container, bp.index);
      this.add("request-parameter-removed", paramLoc(bs), `${str(bs.in)} parameter ${show(bs.name)} removed`);
    }
    for (const [key, hp] of h.params) {
      if (b.params.has(key) || consumed.has(key)) continue;
      this.cover(this.head, hp.container, hp.index);
      const hs = hp.n.s;
      if (hs.required === true)
        this.add("request-parameter-required", paramLoc(hs), `new required ${str(hs.in)} parameter ${show(hs.name)}`);
      else this.add("request-parameter-added", paramLoc(hs), `optional ${str(hs.in)} parameter ${show(hs.name)} added`);
    }
  }

  private compareParameter(b: Node, h: Node, loc: Loc, dir: Dir): void {
    const [bp, hp] = [b.s, h.s];
    const keys = ["name", "in", "required", "style", "explode", "allowReserved"];
    this.judged(b, keys, loc);
    this.judged(h, keys, loc);
    const label = `${str(hp.in)} parameter ${show(hp.name)}`;
    this.compareRequired("parameter", bp, hp, loc, label);
    const style = (p: Obj) => str(p.style) ?? defaultStyle(str(p.in) ?? "");
    const explode = (p: Obj) => (typeof p.explode === "boolean" ? p.explode : style(p) === "form");
    if (bp.in === hp.in && (style(bp) !== style(hp) || explode(bp) !== explode(hp))) {
      this.add(
        "parameter-serialization-changed",
        loc.child("style"),
        `${label} serialization changed from ${style(bp)}/explode=${explode(bp)} to ${style(hp)}/explode=${explode(hp)}`,
      );
    }
    if ((bp.allowReserved === true) !== (hp.allowReserved === true))
      this.add("parameter-serialization-changed", loc.child("allowReserved"), `${label} allowReserved changed`);
    this.compareNotes(b, h, loc);
    if (bp.schema !== undefined || hp.schema !== undefined)
      this.compareSchema(bp.schema ?? {}, hp.schema ?? {}, loc.child("schema"), dir);
    if (isObj(bp.content) || isObj(hp.content))
      this.compareContent(asObj(bp.content), asObj(hp.content), loc.child("content"), dir);
  }

  private compareRequired(what: "parameter" | "body", b: Obj, h: Obj, loc: Loc, label: string): void {
    if (b.required !== true && h.required === true)
      this.add(`request-${what}-required`, loc.child("required"), `${label} is now required`);
    if (b.required === true && h.required !== true)
      this.add(`request-${what}-optional`, loc.child("required"), `${label} is now optional`);
  }

  // --- request body and responses ------------------------------------------

  private compareRequestBody(
    rawB: unknown,
    rawH: unknown,
    loc: Loc,
    dir: Dir,
    bo: Node,
    ho: Node,
    inPlace: boolean,
  ): void {
    if (rawB === undefined && rawH === undefined) return;
    if (rawB === undefined) {
      for (const raw of ho.src.get("requestBody") ?? []) this.cover(this.head, raw, "requestBody");
      if (resolve(this.head, rawH).s.required === true)
        this.add("request-body-required", loc, "a required request body was added");
      else this.add("request-body-added", loc, "an optional request body was added");
      return;
    }
    if (rawH === undefined) {
      for (const raw of bo.src.get("requestBody") ?? []) this.cover(this.base, raw, "requestBody");
      this.add("request-body-removed", loc, "request body removed");
      return;
    }
    const b = resolve(this.base, rawB);
    const h = resolve(this.head, rawH);
    this.judged(b, ["required"], loc);
    this.judged(h, ["required"], loc);
    this.compareRequired("body", b.s, h.s, loc, "request body");
    this.compareNotes(b, h, loc);
    const place = inPlace && b.consumed.length === 0 && h.consumed.length === 0;
    this.compareContent(asObj(b.s.content), asObj(h.s.content), loc.child("content"), dir, place);
  }

  /** `inPlace`: the safety net meets the two content objects as a pair (see compareOperation). */
  private compareContent(b: Obj, h: Obj, loc: Loc, dir: Dir, inPlace = false): void {
    for (const [type, media] of Object.entries(b)) {
      if (!(type in h)) {
        this.cover(this.base, b, type);
        this.add(`${dir}-media-type-removed`, loc.child(type), `${dir} media type ${type} removed`);
        continue;
      }
      const [mb, mh] = [resolve(this.base, media), resolve(this.head, h[type])];
      this.judged(mb, [], loc.child(type));
      this.judged(mh, [], loc.child(type));
      this.compareNotes(mb, mh, loc.child(type));
      const bs = mb.s.schema;
      const hs = mh.s.schema;
      const place =
        inPlace && mb.consumed.length === 0 && mh.consumed.length === 0 && bs !== undefined && hs !== undefined;
      if (bs !== undefined || hs !== undefined)
        this.compareSchema(bs ?? {}, hs ?? {}, loc.child(type, "schema"), dir, place);
    }
    for (const type of Object.keys(h))
      if (!(type in b)) {
        this.cover(this.head, h, type);
        this.add("media-type-added", loc.child(type), `${dir} media type ${type} added`);
      }
  }

  private compareResponses(bo: Node, ho: Node, loc: Loc, dir: Dir, inPlace: boolean): void {
    const [b, h] = [resolve(this.base, bo.s.responses), resolve(this.head, ho.s.responses)];
    this.judged(b, []);
    this.judged(h, []);
    const [rawB, rawH] = [bo.s.responses, ho.s.responses];
    const skip = inPlace && b.consumed.length === 0 && h.consumed.length === 0 && this.reach !== undefined;
    for (const [status, rb0] of Object.entries(b.s)) {
      if (!(status in h.s)) {
        this.cover(this.base, b.src.get(status)?.[0] ?? rawB, status);
        this.add(
          dir === "response" ? "response-status-removed" : "request-body-removed",
          loc.child(status),
          `response ${status} removed`,
        );
        continue;
      }
      if (skip && this.reach!.same(rb0, h.s[status])) continue;
      const rb = resolve(this.base, rb0);
      const rh = resolve(this.head, h.s[status]);
      const at = loc.child(status);
      this.judged(rb, [], at);
      this.judged(rh, [], at);
      this.compareNotes(rb, rh, at);
      this.compareHeaders(asObj(rb.s.headers), asObj(rh.s.headers), at.child("headers"), dir);
      const place = skip && rb.consumed.length === 0 && rh.consumed.length === 0;
      this.compareContent(asObj(rb.s.content), asObj(rh.s.content), at.child("content"), dir, place);
    }
    for (const status of Object.keys(h.s))
      if (!(status in b.s)) {
        this.cover(this.head, h.src.get(status)?.[0] ?? rawH, status);
        this.add("response-status-added", loc.child(status), `response ${status} added`);
      }
  }

  private compareHeaders(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    const lower = (o: Obj) => new Map(Object.entries(o).map(([k, v]) => [k.toLowerCase(), [k, v] as const]));
    const hb = lower(b);
    const hh = lower(h);
    for (const [name, [original, rawB]] of hb) {
      const found = hh.get(name);
      if (!found) {
        this.cover(this.base, b, original);
        this.add("response-header-removed", loc.child(original), `response header ${original} removed`);
        continue;
      }
      this.pair(rawB, found[1]);
      const bh = resolve(this.base, rawB);
      const hd = resolve(this.head, found[1]);
      const at = loc.child(found[0]);
      this.judged(bh, ["required", "style", "explode"], at);
      this.judged(hd, ["required", "style", "explode"], at);
      if (bh.s.required === true && hd.s.required !== true)
        this.add(
          "response-header-removed",
          at.child("required"),
          `response header ${original} is no longer always sent`,
        );
      if (canonical([bh.s.style, bh.s.explode]) !== canonical([hd.s.style, hd.s.explode]))
        this.add(
          "parameter-serialization-changed",
          at.child("style"),
          `response header ${original} serialization changed`,
        );
      this.compareNotes(bh, hd, at);
      if (bh.s.schema !== undefined || hd.s.schema !== undefined)
        this.compareSchema(bh.s.schema ?? {}, hd.s.schema ?? {}, at.child("schema"), dir);
      if (isObj(bh.s.content) || isObj(hd.s.content))
        this.compareContent(asObj(bh.s.content), asObj(hd.s.content), at.child("content"), dir);
    }
    for (const [name, [original]] of hh)
      if (!hb.has(name)) {
        this.cover(this.head, h, original);
        this.add("response-header-added", loc.child(original), `response header ${original} added`);
      }
  }

  // --- schemas --------------------------------------------------------------

  /**
   * `inPlace`: the safety net meets the raw pair as partners (see compareOperation). Then a pair written the same
   * with all it reaches is not compared, and the members of a pair that is one raw schema on each side are in
   * place too.
   */
  private compareSchema(rawB: unknown, rawH: unknown, at: Loc, dir: Dir, inPlace = false): void {
    if (inPlace && this.reach?.same(rawB, rawH)) return;
    // A pair of raw schemas already compared in this direction without a change has none here either.
    // (Keyed by the $ref targets; a comparison cut short by a recursion guard is not recorded.)
    const [kb, kh] = [target(this.base, rawB), target(this.head, rawH)];
    const quiet = isContainer(kb) && isContainer(kh) ? this.quiet.get(kb)?.get(kh) : undefined;
    if (quiet?.has(dir)) {
      // The targets were judged; the $refs leading to them here are judged with them.
      this.judged(resolve(this.base, rawB), [], at);
      this.judged(resolve(this.head, rawH), [], at);
      return;
    }
    const [before, cuts] = [this.changes.length, this.cuts];
    this.compareSchemaOnce(rawB, rawH, at, dir, inPlace);
    if (this.changes.length === before && this.cuts === cuts && isContainer(kb) && isContainer(kh)) {
      let byHead = this.quiet.get(kb);
      if (!byHead) this.quiet.set(kb, (byHead = new WeakMap()));
      byHead.set(kh, new Set([...(byHead.get(kh) ?? []), dir]));
    }
  }

  private compareSchemaOnce(rawB: unknown, rawH: unknown, at: Loc, dir: Dir, inPlace: boolean): void {
    const b = view(this.base, rawB);
    const h = view(this.head, rawH);
    const within = inPlace && this.reach !== undefined && this.direct(rawB, rawH, b, h);
    const guard = b.ref || h.ref ? `${b.ref ?? ""}|${h.ref ?? ""}|${dir}` : undefined;
    if (guard !== undefined) {
      if (this.stack.has(guard) || this.stack.size > 64) {
        this.cuts += 1;
        return;
      }
      this.stack.add(guard);
    }
    try {
      const loc = at.enter(h.ref ?? b.ref);
      this.judged(b, [], loc);
      this.judged(h, [], loc);
      if (b.never || h.never) {
        if (b.never !== h.never)
          this.constraint(
            dir,
            h.never,
            b.never,
            loc,
            h.never ? "no value is valid any more (false schema)" : "values are valid again (was the false schema)",
          );
        this.judgedAll(b, h);
        return;
      }
      const related = this.compareTypes(b, h, loc, dir);
      if (!related) {
        this.judgedAll(b, h);
        return;
      }
      if (unionOf(b.s) || unionOf(h.s)) {
        // Both unions of the one kind, each the raw schema's own array: the safety net pairs the variants as this does.
        const kinds = (v: View) => `${Array.isArray(v.s.oneOf)} ${Array.isArray(v.s.anyOf)}`;
        const paired = within && unionOf(b.s) !== undefined && unionOf(h.s) !== undefined && kinds(b) === kinds(h);
        this.compareVariants(rawB, rawH, b, h, loc, dir, paired);
        if (!unionOf(b.s) || !unionOf(h.s)) {
          // One side is a plain schema: it was compared with its variant. The union's own prose is still prose.
          this.compareNotes(unionOf(b.s) ? b : emptyView(), unionOf(h.s) ? h : emptyView(), loc);
          return;
        }
      }
      this.judged(b, SCHEMA_LEAVES);
      this.judged(h, SCHEMA_LEAVES);
      this.compareNotes(b, h, loc);
      this.compareEnum(b.s, h.s, loc, dir);
      this.compareConstraints(b.s, h.s, loc, dir);
      this.compareAccess(b.s, h.s, loc, dir);
      this.compareProperties(b, h, loc, dir, within);
      for (const key of SUBSCHEMAS) this.compareSub(b, h, key, loc, dir, within);
      this.compareNot(b, h, loc, dir, within);
      this.compareMaps(b, h, loc, dir, within);
      this.comparePrefixItems(b, h, loc, dir, within);
    } finally {
      if (guard !== undefined) this.stack.delete(guard);
    }
  }

  /**
   * Whether each view's keys all come from one raw schema, and the safety net meets the two as partners given that
   * it meets the raw pair so: the two schemas themselves, or the targets of one same $ref to a component.
   */
  private direct(rawB: unknown, rawH: unknown, b: View, h: View): boolean {
    const [refB, refH] = [asObj(rawB).$ref, asObj(rawH).$ref];
    if (refB !== refH) return false;
    if (refB !== undefined) {
      const alone = Object.keys(asObj(rawB)).length === 1 && Object.keys(asObj(rawH)).length === 1;
      if (!alone || typeof refB !== "string" || !/^#\/components\/[^/]+\/[^/]+$/.test(refB)) return false;
    }
    const one = (raw: unknown, v: View, doc: Obj): boolean => {
      const node = refB === undefined ? raw : resolvePointer(doc, refB as string);
      if (!isObj(node) || "allOf" in node || "$ref" in node) return false;
      if (v.consumed.length !== (refB === undefined ? 0 : 1)) return false;
      for (const holders of v.src.values()) if (holders.length !== 1 || holders[0] !== node) return false;
      return true;
    };
    return one(rawB, b, this.base) && one(rawH, h, this.head);
  }

  /** A change that decides the whole schema (a disjoint type, the false schema): every key is judged with it. */
  private judgedAll(b: View, h: View): void {
    for (const [v, doc] of [
      [b, this.base],
      [h, this.head],
    ] as const)
      for (const [k, raws] of v.src)
        for (const raw of raws) {
          this.cover(doc, raw, k);
        }
  }

  /** Reports type and nullability changes; returns false when the types are unrelated (no point going deeper). */
  private compareTypes(b: View, h: View, loc: Loc, dir: Dir): boolean {
    if (!b.nullable && h.nullable) {
      if (dir === "response") this.add("response-property-nullable", loc.child("type"), "may now be null");
      else this.add("request-type-widened", loc.child("type"), "now also accepts null");
    }
    if (b.nullable && !h.nullable) {
      if (dir === "response") this.add("response-property-non-nullable", loc.child("type"), "is no longer null");
      else this.add("request-type-changed", loc.child("type"), "no longer accepts null");
    }
    if (unionOf(b.s) || unionOf(h.s)) return true;
    const tb = typesOf(b.s);
    const th = typesOf(h.s);
    if (tb === undefined && th === undefined) return true;
    const removed = tb && th ? [...tb].filter((t) => !covers(th, t)) : [];
    const added = tb && th ? [...th].filter((t) => !covers(tb, t)) : [];
    const narrowed = (tb === undefined && th !== undefined) || removed.length > 0;
    const widened = (tb !== undefined && th === undefined) || added.length > 0;
    const message = typeChange(tb, th, b.nullable);
    if (!narrowed && !widened && canonical(b.s.type) !== canonical(h.s.type) && b.nullable === h.nullable)
      this.add(
        "annotation-changed",
        loc.child("type"),
        `type written as ${show(h.s.type) ?? "(none)"}, was ${show(b.s.type) ?? "(none)"}: the same values (implied by the enum or const)`,
      );
    if (dir === "request") {
      if (narrowed) this.add("request-type-changed", loc.child("type"), message);
      else if (widened) this.add("request-type-widened", loc.child("type"), message);
    } else if (widened) this.add("response-type-changed", loc.child("type"), message);
    else if (narrowed) this.add("response-type-narrowed", loc.child("type"), message);
    const disjoint =
      tb !== undefined && th !== undefined && tb.size > 0 && removed.length === tb.size && added.length === th.size;
    return !disjoint;
  }

  private compareEnum(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    const eb = enumOf(b);
    const eh = enumOf(h);
    if (!eb && !eh) return;
    const at = loc.child("enum" in h || "enum" in b ? "enum" : "const");
    if (eb && eh) {
      const has = (list: unknown[], v: unknown) => list.some((x) => canonical(x) === canonical(v));
      const added = eh.filter((v) => !has(eb, v)).map(show);
      const removed = eb.filter((v) => !has(eh, v)).map(show);
      if (added.length > 0) this.add(`${dir}-enum-value-added`, at, `enum value ${added.join(", ")} added`);
      if (removed.length > 0) this.add(`${dir}-enum-value-removed`, at, `enum value ${removed.join(", ")} removed`);
    } else if (eh) {
      if (dir === "response") this.add("response-enum-value-removed", at, `values restricted to enum ${show(eh)}`);
      else this.add("request-constraint-narrowed", at, `values restricted to enum ${show(eh)}`);
    } else if (dir === "response")
      this.add("response-enum-value-added", at, `enum ${show(eb)} removed: any value may now be returned`);
    else this.add("request-constraint-widened", at, `enum ${show(eb)} removed`);
  }

  /**
   * A constraint change: `narrowed` when some value valid before is not now, `widened` when some value valid now
   * was not before (a replaced pattern is both). A request breaks when narrowed, a response when widened.
   */
  private constraint(dir: Dir, narrowed: boolean, widened: boolean, loc: Loc, message: string): void {
    if (dir === "response")
      this.add(widened ? "response-constraint-widened" : "response-constraint-narrowed", loc, message);
    else this.add(narrowed || !widened ? "request-constraint-narrowed" : "request-constraint-widened", loc, message);
  }

  private compareConstraints(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    for (const [keys, upper] of [
      [UPPER_BOUNDS, true],
      [LOWER_BOUNDS, false],
    ] as const) {
      for (const key of keys) {
        const vb = num(b[key]);
        const vh = num(h[key]);
        if (vb === vh) continue;
        const narrowed = vh !== undefined && (vb === undefined || (upper ? vh < vb : vh > vb));
        const message =
          vb === undefined
            ? `${key} ${vh} added`
            : vh === undefined
              ? `${key} ${vb} removed`
              : `${key} ${vh < vb ? "lowered" : "raised"} from ${vb} to ${vh}`;
        this.constraint(dir, narrowed, !narrowed, loc.child(key), message);
      }
    }
    const replaced = (key: string, wider = (_b: unknown, _h: unknown) => false) => {
      const [vb, vh] = [b[key], h[key]];
      if (canonical(vb) === canonical(vh)) return;
      const message =
        vb === undefined
          ? `${key} ${show(vh)} added`
          : vh === undefined
            ? `${key} ${show(vb)} removed`
            : `${key} changed from ${show(vb)} to ${show(vh)}`;
      const isWider = vb !== undefined && vh !== undefined && wider(vb, vh);
      this.constraint(dir, vh !== undefined && !isWider, vh === undefined || vb !== undefined, loc.child(key), message);
    };
    replaced("pattern");
    replaced("format", (fb, fh) => WIDER_FORMATS.has(`${String(fb)}>${String(fh)}`));
    replaced("contentMediaType");
    replaced("contentEncoding");
    const mb = num(b.multipleOf);
    const mh = num(h.multipleOf);
    if (mb !== mh) {
      // Multiples of 4 are multiples of 2: 2 -> 4 narrows, 4 -> 2 widens, 2 -> 3 does both.
      const narrowed = mh !== undefined && (mb === undefined || !Number.isInteger(mb / mh));
      const widened = mh === undefined || (mb !== undefined && !Number.isInteger(mh / mb));
      this.constraint(
        dir,
        narrowed,
        widened,
        loc.child("multipleOf"),
        `multipleOf changed from ${mb ?? "(none)"} to ${mh ?? "(none)"}`,
      );
    }
    if ((b.uniqueItems === true) !== (h.uniqueItems === true)) {
      const added = h.uniqueItems === true;
      this.constraint(dir, added, !added, loc.child("uniqueItems"), `uniqueItems ${added ? "added" : "removed"}`);
    }
    const [db, dh] = [asObj(b.dependentRequired), asObj(h.dependentRequired)];
    for (const key of new Set([...Object.keys(db), ...Object.keys(dh)])) {
      const [nb, nh] = [new Set(strings(db[key])), new Set(strings(dh[key]))];
      const more = [...nh].some((x) => !nb.has(x));
      const fewer = [...nb].some((x) => !nh.has(x));
      if (more || fewer)
        this.constraint(
          dir,
          more,
          fewer,
          loc.child("dependentRequired", key),
          `dependentRequired of ${show(key)} changed from ${show([...nb])} to ${show([...nh])}`,
        );
    }
    if (canonical(b.if) !== canonical(h.if) && !this.same(b.if, h.if)) {
      // Which branch applies changed: values move between then and else, so the schema narrows and widens.
      this.constraint(
        dir,
        true,
        true,
        loc.child("if"),
        b.if === undefined ? "if added" : h.if === undefined ? "if removed" : "if (the condition) changed",
      );
    }
    if (!this.same(b.discriminator, h.discriminator)) {
      const what = b.discriminator === undefined ? "added" : h.discriminator === undefined ? "removed" : "changed";
      this.add("discriminator-changed", loc.child("discriminator"), `discriminator ${what}`);
    }
    if (!this.same(b.default, h.default)) {
      const what = b.default === undefined ? "added" : h.default === undefined ? "removed" : "changed";
      this.add(
        `${dir}-default-changed`,
        loc.child("default"),
        `default ${what}: ${show(b.default) ?? "(none)"} to ${show(h.default) ?? "(none)"}`,
      );
    }
  }

  /** readOnly and writeOnly of the schema itself (a property's own is judged by compareProperties). */
  private compareAccess(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    for (const key of ["readOnly", "writeOnly"] as const) {
      if ((b[key] === true) === (h[key] === true)) continue;
      const added = h[key] === true;
      const hides = (dir === "request" && key === "readOnly") || (dir === "response" && key === "writeOnly");
      if (hides) this.constraint(dir, added, !added, loc.child(key), `${key} ${added ? "added" : "removed"}`);
      else
        this.add("annotation-changed", loc.child(key), `${key} ${added ? "added" : "removed"} (no effect in a ${dir})`);
    }
  }

  /** A subschema keyword (absent means anything); `false` means nothing. */
  private compareSub(b: View, h: View, key: (typeof SUBSCHEMAS)[number], loc: Loc, dir: Dir, inPlace: boolean): void {
    const [vb, vh] = [b.s[key], h.s[key]];
    if (vb === undefined && vh === undefined) return;
    const at = loc.child(key);
    const kind = (v: unknown) =>
      v === undefined || v === true ? "any" : v === false ? "never" : isObj(v) ? "schema" : "other";
    const [kb, kh] = [kind(vb), kind(vh)];
    if (kb === "schema" && kh === "schema") {
      this.compareSchema(vb, vh, at, dir, inPlace);
      return;
    }
    if (kb === "other" || kh === "other") return; // not a schema: left to the safety net
    this.judged(b, [key]);
    this.judged(h, [key]);
    for (const raw of b.src.get(key) ?? []) this.cover(this.base, raw, key);
    for (const raw of h.src.get(key) ?? []) this.cover(this.head, raw, key);
    if (kb === kh) return; // absent and `true` both allow anything
    const properties = key === "additionalProperties" || key === "unevaluatedProperties";
    if (kh === "never")
      this.constraint(
        dir,
        true,
        false,
        at,
        properties ? `unknown properties are now rejected (${key}: false)` : `${key}: false (nothing allowed)`,
      );
    else if (kb === "never")
      this.constraint(
        dir,
        false,
        true,
        at,
        properties ? "unknown properties are now allowed" : `${key} is no longer false`,
      );
    else if (kb === "any") this.constraint(dir, true, false, at, `${key} added`);
    else this.constraint(dir, false, true, at, `${key} removed`);
  }

  /** `not`: a wider excluded schema accepts less, so its contents compare in the other direction. */
  private compareNot(b: View, h: View, loc: Loc, dir: Dir, inPlace: boolean): void {
    const [vb, vh] = [b.s.not, h.s.not];
    if (vb === undefined && vh === undefined) return;
    if (vb !== undefined && vh !== undefined) {
      // Compared the other way round, a breaking change inside is breaking outside too, in this direction's words.
      const from = this.changes.length;
      this.compareSchema(vb, vh, loc.child("not"), flip(dir), inPlace);
      for (const c of this.changes.slice(from)) {
        if (!c.rule.startsWith("request-") && !c.rule.startsWith("response-")) continue;
        const rule: RuleId = c.breaking
          ? dir === "request"
            ? "request-constraint-narrowed"
            : "response-constraint-widened"
          : dir === "request"
            ? "request-constraint-widened"
            : "response-constraint-narrowed";
        const { breaking, why }: RuleDef = POLICY[rule];
        Object.assign(c, { rule, breaking, message: `inside not, ${c.message}` });
        if (why) c.why = why;
        else delete c.why;
      }
      return;
    }
    this.judged(b, ["not"]);
    this.judged(h, ["not"]);
    for (const raw of b.src.get("not") ?? []) this.cover(this.base, raw, "not");
    for (const raw of h.src.get("not") ?? []) this.cover(this.head, raw, "not");
    this.constraint(
      dir,
      vh !== undefined,
      vb !== undefined,
      loc.child("not"),
      vh !== undefined ? "not added" : "not removed",
    );
  }

  /** patternProperties and dependentSchemas, member by member (an absent member constrains nothing). */
  private compareMaps(b: View, h: View, loc: Loc, dir: Dir, inPlace: boolean): void {
    for (const key of ["patternProperties", "dependentSchemas"] as const) {
      const [mb, mh] = [b.s[key], h.s[key]];
      if (mb === undefined && mh === undefined) continue;
      if ((mb !== undefined && !isObj(mb)) || (mh !== undefined && !isObj(mh))) continue;
      const [ob, oh] = [asObj(mb), asObj(mh)];
      for (const name of new Set([...Object.keys(ob), ...Object.keys(oh)])) {
        const at = loc.child(key, name);
        if (name in ob && name in oh) {
          this.compareSchema(ob[name], oh[name], at, dir, inPlace);
          continue;
        }
        for (const raw of (name in ob ? b : h).src.get(key) ?? [])
          this.cover(name in ob ? this.base : this.head, raw[key], name);
        this.constraint(dir, name in oh, name in ob, at, `${key} ${show(name)} ${name in oh ? "added" : "removed"}`);
      }
    }
  }

  /** prefixItems, position by position; an extra position constrains that item. */
  private comparePrefixItems(b: View, h: View, loc: Loc, dir: Dir, inPlace: boolean): void {
    const [pb, ph] = [b.s.prefixItems, h.s.prefixItems];
    if (pb === undefined && ph === undefined) return;
    if ((pb !== undefined && !Array.isArray(pb)) || (ph !== undefined && !Array.isArray(ph))) return;
    const [lb, lh] = [list(pb), list(ph)];
    for (let i = 0; i < Math.max(lb.length, lh.length); i += 1) {
      const at = loc.child("prefixItems", String(i));
      if (i < lb.length && i < lh.length) {
        this.pair(lb[i], lh[i]);
        this.compareSchema(lb[i], lh[i], at, dir, inPlace);
        continue;
      }
      if (i < lb.length) this.cover(this.base, lb, i);
      else this.cover(this.head, lh, i);
      this.constraint(
        dir,
        i < lh.length,
        i < lb.length,
        at,
        `prefixItems position ${i} ${i < lh.length ? "added" : "removed"}`,
      );
    }
    if (pb === undefined || ph === undefined) {
      for (const raw of b.src.get("prefixItems") ?? []) this.cover(this.base, raw, "prefixItems");
      for (const raw of h.src.get("prefixItems") ?? []) this.cover(this.head, raw, "prefixItems");
    }
  }

  private compareProperties(b: View, h: View, loc: Loc, dir: Dir, inPlace: boolean): void {
    const pb = asObj(b.s.properties);
    const ph = asObj(h.s.properties);
    const rb = new Set(strings(b.s.required));
    const rh = new Set(strings(h.s.required));
    // readOnly properties are not sent by clients; writeOnly ones are never returned.
    const skip = (raw: unknown, doc: Obj) => {
      const s = resolve(doc, raw).s;
      return dir === "request" ? s.readOnly === true : s.writeOnly === true;
    };
    const coverProp = (v: View, doc: Obj, name: string) => {
      for (const container of v.props.get(name) ?? []) this.cover(doc, container, name);
    };
    for (const name of new Set([...Object.keys(pb), ...Object.keys(ph)])) {
      const at = loc.child("properties", name);
      const inB = name in pb && !skip(pb[name], this.base);
      const inH = name in ph && !skip(ph[name], this.head);
      if (!inB && !inH) {
        coverProp(b, this.base, name);
        coverProp(h, this.head, name);
        continue;
      }
      if (!inH) {
        coverProp(b, this.base, name);
        coverProp(h, this.head, name);
        this.add(`${dir}-property-removed`, at, `${dir} property ${show(name)} removed`);
      } else if (!inB) {
        coverProp(b, this.base, name);
        coverProp(h, this.head, name);
        if (dir === "response") this.add("response-property-added", at, `response property ${show(name)} added`);
        else if (rh.has(name)) this.add("request-property-required", at, `new required request property ${show(name)}`);
        else this.add("request-property-added", at, `optional request property ${show(name)} added`);
      } else {
        const label = `${dir} property ${show(name)}`;
        if (!rb.has(name) && rh.has(name)) this.add(`${dir}-property-required`, at, `${label} is now required`);
        const optional = dir === "response" ? "is no longer required" : "is now optional";
        if (rb.has(name) && !rh.has(name)) this.add(`${dir}-property-optional`, at, `${label} ${optional}`);
        this.compareSchema(pb[name], ph[name], at, dir, inPlace);
      }
    }
    // required names the schema declares no property for still make the key mandatory.
    for (const name of new Set([...rb, ...rh])) {
      if (name in pb || name in ph || rb.has(name) === rh.has(name)) continue;
      const at = loc.child("required", name);
      if (rh.has(name)) this.add(`${dir}-property-required`, at, `${dir} key ${show(name)} is now required`);
      else this.add(`${dir}-property-optional`, at, `${dir} key ${show(name)} is no longer required`);
    }
  }

  /**
   * oneOf/anyOf variants, matched by $ref, then title, then position. When only one side is a union,
   * the plain schema on the other side is matched like a single variant.
   */
  private compareVariants(rawB: unknown, rawH: unknown, b: View, h: View, loc: Loc, dir: Dir, inPlace: boolean): void {
    const keyword = Array.isArray(h.s.oneOf) || Array.isArray(b.s.oneOf) ? "oneOf" : "anyOf";
    const rawArray = (v: View) => {
      const kw = Array.isArray(v.s.oneOf) ? "oneOf" : "anyOf";
      return list(v.src.get(kw)?.[0]?.[kw]);
    };
    const keyed = (doc: Obj, raw: unknown, v: View) =>
      new Map(
        (unionOf(v.s) ?? [raw]).map((item, index) => {
          const { s, ref } = unionOf(v.s) ? resolve(doc, item) : { s: v.s, ref: v.ref };
          return [ref ?? str(s.title) ?? `#${index}`, { raw: item, index }] as const;
        }),
      );
    const kb = keyed(this.base, rawB, b);
    const kh = keyed(this.head, rawH, h);
    const at = (side: View, index: number) => (unionOf(side.s) ? loc.child(keyword, String(index)) : loc);
    for (const [key, { raw, index }] of kb) {
      const match = kh.get(key);
      if (match) {
        this.pair(raw, match.raw);
        this.compareSchema(raw, match.raw, at(h, match.index), dir, inPlace);
      } else {
        const arr = rawArray(b);
        if (arr.includes(raw)) this.cover(this.base, arr, arr.indexOf(raw));
        this.add(`${dir}-variant-removed`, at(b, index), `${keyword} variant ${key} removed`);
      }
    }
    for (const [key, { raw, index }] of kh)
      if (!kb.has(key)) {
        const arr = rawArray(h);
        if (arr.includes(raw)) this.cover(this.head, arr, arr.indexOf(raw));
        this.add(`${dir}-variant-added`, at(h, index), `${keyword} variant ${key} added`);
      }
  }
}

export interface DetectOptions {
  /**
   * Compare every operation in full, also one whose whole reach is written the same on both sides (which the
   * differ otherwise skips: it has nothing to report). The same changes come out either way; this is the plain
   * path the skip is tested against.
   */
  everyOperation?: boolean;
}

const copy = (doc: Obj) => JSON.parse(JSON.stringify(doc)) as Obj;

/** The frozen own copy each prepared spec stands for (kept here so that no caller can reach its nodes). */
const preparedDocs = new WeakMap<PreparedSpec, Obj>();

/**
 * A document to compare many times (a pull request's base against each of many heads): a JSON copy of it, made
 * once, that no other document shares a node with, frozen so that the differ can never write to it. Comparing
 * with it skips the check (or the copy) detectChanges otherwise makes of each document it is given.
 */
export class PreparedSpec {
  declare private readonly prepared: true;

  constructor(doc: Obj) {
    const freeze = (v: unknown): void => {
      if (v !== null && typeof v === "object") for (const x of Object.values(Object.freeze(v))) freeze(x);
    };
    const own = copy(doc);
    freeze(own);
    preparedDocs.set(this, own);
  }
}

/** Our own rules over two bundled (or self-contained) OpenAPI documents, and the safety net. Pure and synchronous. */
export function detectChanges(
  base: Obj | PreparedSpec,
  head: Obj | PreparedSpec,
  options: DetectOptions = {},
): Change[] {
  // No node shared between or within them (YAML aliases share one): a node is judged where it is. The differ
  // never writes to the documents, so plain JSON of that kind is compared as it is; anything else as a JSON copy.
  // A prepared spec is its own copy, which no other document can share a node with: only the other is looked at.
  const own = (doc: Obj) => (separateJson(doc) ? doc : copy(doc));
  const [pb, ph] = [base, head].map((d) => (d instanceof PreparedSpec ? preparedDocs.get(d) : undefined));
  if (pb && ph) return new Differ(pb, pb === ph ? copy(ph) : ph, options).run();
  if (pb) return new Differ(pb, own(head as Obj), options).run();
  if (ph) return new Differ(own(base as Obj), ph, options).run();
  const [b, h] = [base as Obj, head as Obj];
  if (separateJson(b, h)) return new Differ(b, h, options).run();
  return new Differ(copy(b), copy(h), options).run();
}
