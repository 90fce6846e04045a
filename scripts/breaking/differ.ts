/**
 * Our own rules: compares two bundled OpenAPI 3.x documents operation by operation and reports
 * every change with its POLICY rule, location and verdict. Pure and synchronous.
 */
import { type Obj, escapeToken, followRef, isObj, listOperations } from "../../contract-core/index.js";
import { type Change, type RuleDef, type RuleId, POLICY } from "./policy.js";

const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === "string");
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const show = (v: unknown): string => JSON.stringify(v);

/** Follows local $refs (siblings of $ref override the target, as OpenAPI 3.1 allows). */
function deref(doc: Obj, node: unknown): { node: Obj; ref?: string } {
  const { node: target, ref } = followRef(doc, node, { mergeSiblings: true });
  return { node: asObj(target), ref };
}

/** Operation identity ignores path-template variable names: /people/{slug} == /people/{id}. */
export const operationKey = (display: string): string => display.replace(/\{[^}]*\}/g, "{}");

// Schema view: allOf merged, single-variant nullable unions unwrapped

interface View {
  s: Obj;
  ref?: string;
  nullable: boolean;
}

const isNullSchema = (s: Obj): boolean =>
  s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null") || s.const === null;

function view(doc: Obj, node: unknown, depth = 0): View {
  const { node: s0, ref } = deref(doc, node);
  let s = s0;
  let innerRef = ref;
  let nullable = false;
  if (Array.isArray(s.allOf) && depth < 16) {
    const { allOf, ...rest } = s;
    const merged: Obj = { ...rest };
    const props: Obj = {};
    const required = new Set(strings(rest.required));
    for (const part of allOf) {
      const p = view(doc, part, depth + 1);
      nullable ||= p.nullable;
      Object.assign(props, asObj(p.s.properties));
      for (const r of strings(p.s.required)) required.add(r);
      for (const [k, v] of Object.entries(p.s)) if (!(k in merged)) merged[k] = v;
      innerRef ??= p.ref;
    }
    // A property the schema declares itself refines the one it takes from allOf (a value must satisfy both;
    // the refinement is the narrower): CreatedList's `default_key: {type: "null"}` over List's string-or-null.
    // What the refinement does not say (a type under a new description) stays the allOf one's.
    for (const [name, own] of Object.entries(asObj(rest.properties)))
      props[name] = isObj(props[name]) && isObj(own) ? { ...props[name], ...own } : own;
    if (Object.keys(props).length > 0) merged.properties = props;
    if (required.size > 0) merged.required = [...required];
    s = merged;
  }
  for (const kw of ["oneOf", "anyOf"] as const) {
    const variants = s[kw];
    if (!Array.isArray(variants) || depth >= 16) continue;
    const nonNull = variants.filter((v) => !isNullSchema(deref(doc, v).node));
    if (nonNull.length === variants.length) continue;
    nullable = true;
    if (nonNull.length === 1) {
      const { [kw]: _dropped, ...outer } = s;
      const inner = view(doc, nonNull[0], depth + 1);
      s = { ...inner.s, ...outer };
      innerRef = inner.ref ?? innerRef;
    } else {
      s = { ...s, [kw]: nonNull };
    }
  }
  if (s.nullable === true) nullable = true;
  if (s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"))) nullable = true;
  return { s, ref: innerRef, nullable };
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
  if (isObj(s.properties) || isObj(s.additionalProperties)) return new Set(["object"]);
  if (s.items !== undefined) return new Set(["array"]);
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

const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"] as const;
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const;
/** format changes that accept more values than before. */
const WIDER_FORMATS = new Set(["int32>int64", "float>double", "int32>double", "float>int64"]);

// Operations

interface OpInfo {
  display: string;
  operationId: string | undefined;
  op: Obj;
  params: Map<string, Obj>;
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

function operationsOf(doc: Obj): Map<string, OpInfo> {
  const ops = new Map<string, OpInfo>();
  for (const { path, method, operation: op, pathItem } of listOperations(doc)) {
    const params = new Map<string, Obj>();
    for (const raw of [...list(pathItem.parameters), ...list(op.parameters)]) {
      const p = deref(doc, raw).node;
      params.set(paramKey(p), p);
    }
    const display = `${method.toUpperCase()} ${path}`;
    ops.set(operationKey(display), { display, operationId: str(op.operationId), op, params });
  }
  return ops;
}

// The differ

type Dir = "request" | "response";

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

class Differ {
  readonly changes: Change[] = [];
  private op: OpInfo | undefined;
  private readonly stack = new Set<string>();
  declare private readonly base: Obj;
  declare private readonly head: Obj;

  constructor(base: Obj, head: Obj) {
    this.base = base;
    this.head = head;
  }

  run(): Change[] {
    const baseOps = operationsOf(this.base);
    const headOps = operationsOf(this.head);
    for (const [key, b] of baseOps) {
      const h = headOps.get(key);
      this.op = h ?? b;
      if (!h) this.add("operation-removed", new Loc(""), `operation ${b.display} removed`);
      else this.compareOperation(b, h);
    }
    for (const [key, h] of headOps) {
      this.op = h;
      if (!baseOps.has(key)) this.add("operation-added", new Loc(""), `operation ${h.display} added`);
    }
    return this.changes;
  }

  private add(rule: RuleId, loc: Loc, message: string): void {
    const { breaking, why }: RuleDef = POLICY[rule];
    const { display: operation, operationId } = this.op!;
    if (this.changes.some((c) => c.rule === rule && c.operation === operation && c.location === loc.ptr)) return;
    const change: Change = { rule, breaking, operation, operationId, location: loc.ptr, message };
    if (loc.comp !== undefined) change.component = loc.comp;
    if (why) change.why = why;
    this.changes.push(change);
  }

  private compareText(b: Obj, h: Obj, loc: Loc): void {
    for (const key of ["summary", "description"] as const) {
      if (b[key] !== h[key] && (b[key] !== undefined || h[key] !== undefined)) {
        this.add(
          "description-changed",
          loc.child(key),
          `${key} ${b[key] === undefined ? "added" : h[key] === undefined ? "removed" : "changed"}`,
        );
      }
    }
    if (b.deprecated !== true && h.deprecated === true)
      this.add("deprecated", loc.child("deprecated"), "marked deprecated");
  }

  private compareOperation(b: OpInfo, h: OpInfo): void {
    const root = new Loc("");
    if (b.operationId !== undefined && b.operationId !== h.operationId) {
      this.add(
        "operation-id-changed",
        root.child("operationId"),
        `operationId changed from ${b.operationId} to ${h.operationId ?? "(none)"}`,
      );
    }
    this.compareText(b.op, h.op, root);
    this.compareParameters(b, h);
    this.compareRequestBody(b.op.requestBody, h.op.requestBody, root.child("requestBody"));
    this.compareResponses(asObj(b.op.responses), asObj(h.op.responses), root.child("responses"));
  }

  // --- parameters ---------------------------------------------------------

  private compareParameters(b: OpInfo, h: OpInfo): void {
    const paramLoc = (p: Obj) => new Loc("").child("parameters", str(p.in) ?? "", str(p.name) ?? "");
    const consumed = new Set<string>();
    const pathRenames = renamedTemplateVariables(b.display, h.display);
    for (const [key, bp] of b.params) {
      const hp = h.params.get(key);
      if (hp) {
        consumed.add(key);
        this.compareParameter(bp, hp, paramLoc(hp));
        continue;
      }
      // A path parameter keeps its position in the template: the URL on the wire is unchanged, but every
      // client that names it (typed clients, path templates) breaks.
      const renamedPath =
        bp.in === "path" ? h.params.get(`path:${pathRenames.get(str(bp.name) ?? "") ?? ""}`) : undefined;
      if (renamedPath && !consumed.has(paramKey(renamedPath))) {
        consumed.add(paramKey(renamedPath));
        this.add(
          "parameter-renamed",
          paramLoc(renamedPath),
          `path parameter renamed from ${show(bp.name)} to ${show(renamedPath.name)}`,
        );
        this.compareParameter(bp, renamedPath, paramLoc(renamedPath));
        continue;
      }
      const name = (str(bp.name) ?? "").toLowerCase();
      const moved = [...h.params].find(
        ([k, p]) => !b.params.has(k) && !consumed.has(k) && (str(p.name) ?? "").toLowerCase() === name,
      );
      if (moved) {
        consumed.add(moved[0]);
        this.add(
          "parameter-location-changed",
          paramLoc(moved[1]),
          `parameter ${show(bp.name)} moved from ${str(bp.in)} to ${str(moved[1].in)}`,
        );
        this.compareParameter(bp, moved[1], paramLoc(moved[1]));
        continue;
      }
      const fresh = [...h.params].filter(([k, p]) => !b.params.has(k) && !consumed.has(k) && p.in === bp.in);
      const renamedTo = fresh.length === 1 ? fresh[0] : undefined;
      if (renamedTo) {
        consumed.add(renamedTo[0]);
        this.add(
          "parameter-renamed",
          paramLoc(renamedTo[1]),
          `${str(bp.in)} parameter renamed from ${show(bp.name)} to ${show(renamedTo[1].name)}`,
        );
        this.compareParameter(bp, renamedTo[1], paramLoc(renamedTo[1]));
        continue;
      }
      this.add("request-parameter-removed", paramLoc(bp), `${str(bp.in)} parameter ${show(bp.name)} removed`);
    }
    for (const [key, hp] of h.params) {
      if (b.params.has(key) || consumed.has(key)) continue;
      if (hp.required === true)
        this.add("request-parameter-required", paramLoc(hp), `new required ${str(hp.in)} parameter ${show(hp.name)}`);
      else this.add("request-parameter-added", paramLoc(hp), `optional ${str(hp.in)} parameter ${show(hp.name)} added`);
    }
  }

  private compareParameter(bp: Obj, hp: Obj, loc: Loc): void {
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
    this.compareText(bp, hp, loc);
    if (bp.schema !== undefined || hp.schema !== undefined)
      this.compareSchema(bp.schema ?? {}, hp.schema ?? {}, loc.child("schema"), "request");
    if (isObj(bp.content) || isObj(hp.content))
      this.compareContent(asObj(bp.content), asObj(hp.content), loc.child("content"), "request");
  }

  private compareRequired(what: "parameter" | "body", b: Obj, h: Obj, loc: Loc, label: string): void {
    if (b.required !== true && h.required === true)
      this.add(`request-${what}-required`, loc.child("required"), `${label} is now required`);
    if (b.required === true && h.required !== true)
      this.add(`request-${what}-optional`, loc.child("required"), `${label} is now optional`);
  }

  // --- request body and responses ------------------------------------------

  private compareRequestBody(rawB: unknown, rawH: unknown, loc: Loc): void {
    if (rawB === undefined && rawH === undefined) return;
    const b = deref(this.base, rawB).node;
    const h = deref(this.head, rawH).node;
    if (rawB === undefined) {
      if (h.required === true) this.add("request-body-required", loc, "a required request body was added");
      else this.add("request-body-added", loc, "an optional request body was added");
      return;
    }
    if (rawH === undefined) {
      this.add("request-body-removed", loc, "request body removed");
      return;
    }
    this.compareRequired("body", b, h, loc, "request body");
    this.compareText(b, h, loc);
    this.compareContent(asObj(b.content), asObj(h.content), loc.child("content"), "request");
  }

  private compareContent(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    for (const [type, media] of Object.entries(b)) {
      if (!(type in h)) {
        this.add(`${dir}-media-type-removed`, loc.child(type), `${dir} media type ${type} removed`);
        continue;
      }
      const bs = asObj(media).schema;
      const hs = asObj(h[type]).schema;
      if (bs !== undefined || hs !== undefined) this.compareSchema(bs ?? {}, hs ?? {}, loc.child(type, "schema"), dir);
    }
    for (const type of Object.keys(h))
      if (!(type in b)) this.add("media-type-added", loc.child(type), `${dir} media type ${type} added`);
  }

  private compareResponses(b: Obj, h: Obj, loc: Loc): void {
    for (const [status, rawB] of Object.entries(b)) {
      if (!(status in h)) {
        this.add("response-status-removed", loc.child(status), `response ${status} removed`);
        continue;
      }
      const rb = deref(this.base, rawB).node;
      const rh = deref(this.head, h[status]).node;
      const at = loc.child(status);
      this.compareText(rb, rh, at);
      this.compareHeaders(asObj(rb.headers), asObj(rh.headers), at.child("headers"));
      this.compareContent(asObj(rb.content), asObj(rh.content), at.child("content"), "response");
    }
    for (const status of Object.keys(h))
      if (!(status in b)) this.add("response-status-added", loc.child(status), `response ${status} added`);
  }

  private compareHeaders(b: Obj, h: Obj, loc: Loc): void {
    const lower = (o: Obj) => new Map(Object.entries(o).map(([k, v]) => [k.toLowerCase(), [k, v] as const]));
    const hb = lower(b);
    const hh = lower(h);
    for (const [name, [original, rawB]] of hb) {
      const found = hh.get(name);
      if (!found) {
        this.add("response-header-removed", loc.child(original), `response header ${original} removed`);
        continue;
      }
      const bh = deref(this.base, rawB).node;
      const hd = deref(this.head, found[1]).node;
      if (bh.required === true && hd.required !== true)
        this.add(
          "response-header-removed",
          loc.child(found[0], "required"),
          `response header ${original} is no longer always sent`,
        );
      this.compareSchema(bh.schema ?? {}, hd.schema ?? {}, loc.child(found[0], "schema"), "response");
    }
    for (const [name, [original]] of hh)
      if (!hb.has(name)) this.add("response-header-added", loc.child(original), `response header ${original} added`);
  }

  // --- schemas --------------------------------------------------------------

  private compareSchema(rawB: unknown, rawH: unknown, at: Loc, dir: Dir): void {
    const b = view(this.base, rawB);
    const h = view(this.head, rawH);
    const guard = b.ref || h.ref ? `${b.ref ?? ""}|${h.ref ?? ""}|${dir}` : undefined;
    if (guard !== undefined) {
      if (this.stack.has(guard) || this.stack.size > 64) return;
      this.stack.add(guard);
    }
    try {
      const loc = at.enter(h.ref ?? b.ref);
      const related = this.compareTypes(b, h, loc, dir);
      if (!related) return;
      if (unionOf(b.s) || unionOf(h.s)) {
        this.compareVariants(rawB, rawH, b, h, loc, dir);
        if (!unionOf(b.s) || !unionOf(h.s)) return; // one side is a plain schema: it was compared with its variant
      }
      this.compareText(b.s, h.s, loc);
      this.compareEnum(b.s, h.s, loc, dir);
      this.compareConstraints(b.s, h.s, loc, dir);
      this.compareProperties(b.s, h.s, loc, dir);
      if (b.s.items !== undefined || h.s.items !== undefined)
        this.compareSchema(b.s.items ?? {}, h.s.items ?? {}, loc.child("items"), dir);
      if (isObj(b.s.additionalProperties) && isObj(h.s.additionalProperties)) {
        this.compareSchema(b.s.additionalProperties, h.s.additionalProperties, loc.child("additionalProperties"), dir);
      }
    } finally {
      if (guard !== undefined) this.stack.delete(guard);
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
    const at = loc.child("enum");
    if (eb && eh) {
      const has = (list: unknown[], v: unknown) => list.some((x) => show(x) === show(v));
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

  private constraint(dir: Dir, narrowed: boolean, loc: Loc, message: string): void {
    if (dir === "response") this.add("response-constraint-changed", loc, message);
    else this.add(narrowed ? "request-constraint-narrowed" : "request-constraint-widened", loc, message);
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
        this.constraint(dir, narrowed, loc.child(key), message);
      }
    }
    const pb = str(b.pattern);
    const ph = str(h.pattern);
    if (pb !== ph) {
      const message =
        pb === undefined
          ? `pattern ${show(ph)} added`
          : ph === undefined
            ? `pattern ${show(pb)} removed`
            : `pattern changed from ${show(pb)} to ${show(ph)}`;
      this.constraint(dir, ph !== undefined, loc.child("pattern"), message);
    }
    const fb = str(b.format);
    const fh = str(h.format);
    if (fb !== fh) {
      const narrowed = fh !== undefined && (fb === undefined || !WIDER_FORMATS.has(`${fb}>${fh}`));
      this.constraint(dir, narrowed, loc.child("format"), `format changed from ${fb ?? "(none)"} to ${fh ?? "(none)"}`);
    }
    const mb = num(b.multipleOf);
    const mh = num(h.multipleOf);
    if (mb !== mh) {
      const narrowed = mh !== undefined && (mb === undefined || !Number.isInteger(mh / mb));
      this.constraint(
        dir,
        narrowed,
        loc.child("multipleOf"),
        `multipleOf changed from ${mb ?? "(none)"} to ${mh ?? "(none)"}`,
      );
    }
    if ((b.uniqueItems === true) !== (h.uniqueItems === true)) {
      this.constraint(
        dir,
        h.uniqueItems === true,
        loc.child("uniqueItems"),
        `uniqueItems ${h.uniqueItems === true ? "added" : "removed"}`,
      );
    }
    const closed = (s: Obj) => s.additionalProperties === false || s.unevaluatedProperties === false;
    if (closed(b) !== closed(h)) {
      const message = closed(h)
        ? "unknown properties are now rejected (additionalProperties: false)"
        : "unknown properties are now allowed";
      this.constraint(dir, closed(h), loc.child("additionalProperties"), message);
    }
  }

  private compareProperties(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    const pb = asObj(b.properties);
    const ph = asObj(h.properties);
    const rb = new Set(strings(b.required));
    const rh = new Set(strings(h.required));
    // readOnly properties are not sent by clients; writeOnly ones are never returned.
    const skip = (raw: unknown, doc: Obj) => {
      const s = deref(doc, raw).node;
      return dir === "request" ? s.readOnly === true : s.writeOnly === true;
    };
    for (const name of new Set([...Object.keys(pb), ...Object.keys(ph)])) {
      const at = loc.child("properties", name);
      const inB = name in pb;
      const inH = name in ph;
      if ((inB && skip(pb[name], this.base)) || (inH && skip(ph[name], this.head))) continue;
      if (!inH) this.add(`${dir}-property-removed`, at, `${dir} property ${show(name)} removed`);
      else if (!inB) {
        if (dir === "response") this.add("response-property-added", at, `response property ${show(name)} added`);
        else if (rh.has(name)) this.add("request-property-required", at, `new required request property ${show(name)}`);
        else this.add("request-property-added", at, `optional request property ${show(name)} added`);
      } else {
        const label = `${dir} property ${show(name)}`;
        if (!rb.has(name) && rh.has(name)) this.add(`${dir}-property-required`, at, `${label} is now required`);
        const optional = dir === "response" ? "is no longer required" : "is now optional";
        if (rb.has(name) && !rh.has(name)) this.add(`${dir}-property-optional`, at, `${label} ${optional}`);
        this.compareSchema(pb[name], ph[name], at, dir);
      }
    }
  }

  /**
   * oneOf/anyOf variants, matched by $ref, then title, then position. When only one side is a union,
   * the plain schema on the other side is matched like a single variant.
   */
  private compareVariants(rawB: unknown, rawH: unknown, b: View, h: View, loc: Loc, dir: Dir): void {
    const keyword = Array.isArray(h.s.oneOf) || Array.isArray(b.s.oneOf) ? "oneOf" : "anyOf";
    const keyed = (doc: Obj, raw: unknown, v: View) =>
      new Map(
        (unionOf(v.s) ?? [raw]).map((item, index) => {
          const { node, ref } = unionOf(v.s) ? deref(doc, item) : { node: v.s, ref: v.ref };
          return [ref ?? str(node.title) ?? `#${index}`, { raw: item, index }] as const;
        }),
      );
    const kb = keyed(this.base, rawB, b);
    const kh = keyed(this.head, rawH, h);
    const at = (side: View, index: number) => (unionOf(side.s) ? loc.child(keyword, String(index)) : loc);
    for (const [key, { raw, index }] of kb) {
      const match = kh.get(key);
      if (match) this.compareSchema(raw, match.raw, at(h, match.index), dir);
      else this.add(`${dir}-variant-removed`, at(b, index), `${keyword} variant ${key} removed`);
    }
    for (const [key, { index }] of kh)
      if (!kb.has(key)) this.add(`${dir}-variant-added`, at(h, index), `${keyword} variant ${key} added`);
  }
}

/** Our own rules over two bundled (or self-contained) OpenAPI documents. Pure and synchronous. */
export function detectChanges(base: Obj, head: Obj): Change[] {
  return new Differ(base, head).run();
}
