/**
 * Breaking-change detector for OpenAPI 3.x documents.
 *
 *   npm run breaking -- <base-spec> <head-spec> [--json] [--no-optic]
 *   npm run breaking -- --policy        (prints the policy as a Markdown table)
 *
 * Inputs may be YAML or JSON, bundled or split roots (split roots are bundled
 * with Redocly first). Our own rules (POLICY below) decide the verdict; Optic's
 * breaking-changes ruleset runs as a cross-check over the same documents and
 * anything it flags that our rules did not is reported too (source "optic").
 *
 * Exit codes: 1 when the head breaks clients of the base, 0 otherwise,
 * 2 when an input cannot be read (the message names the file) or on bad usage.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

// ---------------------------------------------------------------------------
// Policy
// ---------------------------------------------------------------------------

interface RuleDef {
  breaking: boolean;
  title: string;
  /** Why the change breaks existing clients (breaking rules only). */
  why?: string;
}

export const POLICY = {
  "operation-removed": {
    breaking: true,
    title: "Operation removed",
    why: "clients calling it get 404/405",
  },
  "operation-id-changed": {
    breaking: true,
    title: "operationId changed",
    why: "generated SDKs and typed `operations[...]` lookups are keyed by operationId",
  },
  "response-status-removed": {
    breaking: true,
    title: "Response status removed",
    why: "clients handling that status lose its documented shape",
  },
  "response-media-type-removed": {
    breaking: true,
    title: "Response media type removed",
    why: "clients that parse that media type can no longer rely on it",
  },
  "response-header-removed": {
    breaking: true,
    title: "Response header removed",
    why: "clients reading the header get nothing",
  },
  "response-property-removed": {
    breaking: true,
    title: "Response property removed",
    why: "clients reading the property get undefined",
  },
  "response-property-optional": {
    breaking: true,
    title: "Response property made optional",
    why: "clients assume the key is always present",
  },
  "response-property-nullable": {
    breaking: true,
    title: "Response value made nullable",
    why: "clients do not expect null and crash or mis-handle it",
  },
  "response-enum-value-added": {
    breaking: true,
    title: "New enum value in a response",
    why: "exhaustive client switches and strict decoders reject the unknown value",
  },
  "response-variant-added": {
    breaking: true,
    title: "New oneOf/anyOf variant in a response",
    why: "clients may receive a shape they do not handle",
  },
  "response-type-changed": {
    breaking: true,
    title: "Response type changed or widened",
    why: "clients decode the old type",
  },
  "request-type-changed": {
    breaking: true,
    title: "Request type changed or narrowed",
    why: "values clients send today are rejected",
  },
  "request-parameter-required": {
    breaking: true,
    title: "Request parameter added as required, or made required",
    why: "existing calls omit it and get 400",
  },
  "request-property-required": {
    breaking: true,
    title: "Request body property added as required, or made required",
    why: "existing bodies omit it and get 400",
  },
  "request-body-required": {
    breaking: true,
    title: "Request body added as required, or made required",
    why: "existing calls send no body and get 400",
  },
  "request-constraint-narrowed": {
    breaking: true,
    title:
      "Request constraint narrowed (maxLength/maximum/maxItems lowered, minLength/minimum/minItems raised, pattern/format/multipleOf/enum added, additionalProperties closed)",
    why: "values clients send today are rejected",
  },
  "request-enum-value-removed": {
    breaking: true,
    title: "Request enum value removed",
    why: "clients sending that value get 400",
  },
  "request-variant-removed": {
    breaking: true,
    title: "oneOf/anyOf variant removed from a request",
    why: "bodies of that shape are rejected",
  },
  "request-parameter-removed": {
    breaking: true,
    title: "Request parameter removed",
    why: "clients sending it get it ignored or rejected; typed clients stop compiling",
  },
  "request-property-removed": {
    breaking: true,
    title: "Request body property removed",
    why: "clients sending it get it ignored or rejected; typed clients stop compiling",
  },
  "request-body-removed": {
    breaking: true,
    title: "Request body removed",
    why: "the body clients send is no longer accepted",
  },
  "request-media-type-removed": {
    breaking: true,
    title: "Request media type removed",
    why: "clients sending that content type get 415/400",
  },
  "parameter-location-changed": {
    breaking: true,
    title: "Parameter location changed (e.g. query to header)",
    why: "clients send it where the server no longer reads it",
  },
  "parameter-renamed": {
    breaking: true,
    title: "Parameter renamed",
    why: "clients send the old name",
  },
  "parameter-serialization-changed": {
    breaking: true,
    title: "Parameter style/explode changed",
    why: "clients serialize the value the old way",
  },
  "operation-added": { breaking: false, title: "Operation added" },
  "response-status-added": { breaking: false, title: "Response status added" },
  "response-header-added": { breaking: false, title: "Response header added" },
  "response-property-added": { breaking: false, title: "Response property added (clients ignore additional fields)" },
  "response-property-required": { breaking: false, title: "Response property made required" },
  "response-property-non-nullable": { breaking: false, title: "Response value no longer nullable" },
  "response-enum-value-removed": { breaking: false, title: "Response enum value removed or enum introduced" },
  "response-variant-removed": { breaking: false, title: "oneOf/anyOf variant removed from a response" },
  "response-type-narrowed": { breaking: false, title: "Response type narrowed" },
  "response-constraint-changed": { breaking: false, title: "Response constraint changed" },
  "request-parameter-added": { breaking: false, title: "Optional request parameter added" },
  "request-property-added": { breaking: false, title: "Optional request body property added" },
  "request-body-added": { breaking: false, title: "Optional request body added" },
  "request-parameter-optional": { breaking: false, title: "Request parameter made optional" },
  "request-property-optional": { breaking: false, title: "Request body property made optional" },
  "request-body-optional": { breaking: false, title: "Request body made optional" },
  "request-constraint-widened": { breaking: false, title: "Request constraint widened" },
  "request-enum-value-added": { breaking: false, title: "Request enum value added" },
  "request-variant-added": { breaking: false, title: "oneOf/anyOf variant added to a request" },
  "request-type-widened": { breaking: false, title: "Request type widened (e.g. integer to number, null allowed)" },
  "media-type-added": { breaking: false, title: "Request or response media type added" },
  "description-changed": { breaking: false, title: "Description or summary changed" },
  "deprecated": { breaking: false, title: "Marked deprecated" },
} satisfies Record<string, RuleDef>;

export type RuleId = keyof typeof POLICY;
const OPTIC_RULE = "optic";

export interface Change {
  /** A POLICY rule id, or "optic" for a finding only Optic made. */
  rule: RuleId | typeof OPTIC_RULE;
  breaking: boolean;
  /** "METHOD /path" (head path when the operation exists in head). */
  operation: string;
  operationId: string | undefined;
  /** JSON pointer relative to the operation ("" = the operation itself). */
  location: string;
  /** Pointer inside a named component when the change is in one, e.g. #/components/schemas/Person/properties/slug. */
  component?: string;
  message: string;
  why?: string;
  /** Name of the Optic rule that flagged the same thing, when it did. */
  optic?: string;
}

// ---------------------------------------------------------------------------
// Small JSON helpers
// ---------------------------------------------------------------------------

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const show = (v: unknown): string => JSON.stringify(v);

export const escapePointer = (s: string): string => s.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapePointer = (s: string): string => s.replaceAll("~1", "/").replaceAll("~0", "~");

function getPointer(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const seg of pointer.split("/").slice(1)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObj(cur)) cur = cur[unescapePointer(seg)];
    else return undefined;
  }
  return cur;
}

/** Follows local $refs (siblings of $ref override the target, as OpenAPI 3.1 allows). */
function deref(doc: Obj, node: unknown): { node: Obj; ref?: string } {
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

// ---------------------------------------------------------------------------
// Schema view: allOf merged, single-variant nullable unions unwrapped
// ---------------------------------------------------------------------------

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
    const props: Obj = { ...asObj(rest.properties) };
    const required = new Set(strings(rest.required));
    for (const part of allOf) {
      const p = view(doc, part, depth + 1);
      nullable ||= p.nullable;
      Object.assign(props, asObj(p.s.properties));
      for (const r of strings(p.s.required)) required.add(r);
      for (const [k, v] of Object.entries(p.s)) if (!(k in merged)) merged[k] = v;
      innerRef ??= p.ref;
    }
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
      nullable = true;
    } else {
      s = { ...s, [kw]: nonNull };
    }
  }
  if (s.nullable === true) nullable = true;
  if (Array.isArray(s.type) && s.type.includes("null")) nullable = true;
  return { s, ref: innerRef, nullable };
}

/** Non-null JSON types of a schema, or undefined when unconstrained (or a union). */
function typesOf(s: Obj): Set<string> | undefined {
  if (typeof s.type === "string") return new Set([s.type].filter((t) => t !== "null"));
  if (Array.isArray(s.type)) return new Set(strings(s.type).filter((t) => t !== "null"));
  if (isObj(s.properties) || isObj(s.additionalProperties)) return new Set(["object"]);
  if (s.items !== undefined) return new Set(["array"]);
  return undefined;
}

const unionOf = (s: Obj): unknown[] | undefined =>
  Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;

/** integer values are numbers, so "number" covers "integer". */
const covers = (set: Set<string>, t: string): boolean => set.has(t) || (t === "integer" && set.has("number"));
const fmtTypes = (set: Set<string> | undefined): string => (set ? [...set].join(" | ") || "null" : "any");

function enumOf(s: Obj): unknown[] | undefined {
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  return values?.filter((v) => v !== null);
}

const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"] as const;
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const;
/** format changes that accept more values than before. */
const WIDER_FORMATS = new Set(["int32>int64", "float>double", "int32>double", "float>int64"]);

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

interface OpInfo {
  key: string;
  display: string;
  operationId: string | undefined;
  op: Obj;
  params: Map<string, Obj>;
}

/** Operation identity ignores path-template variable names: /people/{slug} == /people/{id}. */
export const operationKey = (display: string): string => display.replace(/\{[^}]*\}/g, "{}");
const paramKey = (p: Obj): string => {
  const where = str(p.in) ?? "";
  const name = str(p.name) ?? "";
  return `${where}:${where === "header" ? name.toLowerCase() : name}`;
};

function operationsOf(doc: Obj): Map<string, OpInfo> {
  const ops = new Map<string, OpInfo>();
  for (const [path, rawItem] of Object.entries(asObj(doc.paths))) {
    const item = deref(doc, rawItem).node;
    for (const method of METHODS) {
      if (!isObj(item[method])) continue;
      const op = item[method];
      const params = new Map<string, Obj>();
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const p = deref(doc, raw).node;
        params.set(paramKey(p), p);
      }
      const display = `${method.toUpperCase()} ${path}`;
      ops.set(operationKey(display), { key: operationKey(display), display, operationId: str(op.operationId), op, params });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------
// The differ
// ---------------------------------------------------------------------------

type Dir = "request" | "response";

/** Where we are: pointer relative to the operation, and inside a named component if any. */
class Loc {
  constructor(
    readonly ptr: string,
    readonly comp?: string,
  ) {}
  child(...segs: string[]): Loc {
    const tail = segs.map((s) => `/${escapePointer(s)}`).join("");
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

  constructor(
    private readonly base: Obj,
    private readonly head: Obj,
  ) {}

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
    const def: RuleDef = POLICY[rule];
    const op = this.op;
    if (!op) return;
    const change: Change = {
      rule,
      breaking: def.breaking,
      operation: op.display,
      operationId: op.operationId,
      location: loc.ptr,
      message,
    };
    if (loc.comp !== undefined) change.component = loc.comp;
    if (def.why) change.why = def.why;
    const same = (c: Change) => c.rule === rule && c.operation === change.operation && c.location === change.location;
    if (!this.changes.some(same)) this.changes.push(change);
  }

  private compareText(b: Obj, h: Obj, loc: Loc): void {
    for (const key of ["summary", "description"] as const) {
      if (b[key] !== h[key] && (b[key] !== undefined || h[key] !== undefined)) {
        this.add("description-changed", loc.child(key), `${key} ${b[key] === undefined ? "added" : h[key] === undefined ? "removed" : "changed"}`);
      }
    }
    if (b.deprecated !== true && h.deprecated === true) this.add("deprecated", loc.child("deprecated"), "marked deprecated");
  }

  private compareOperation(b: OpInfo, h: OpInfo): void {
    const root = new Loc("");
    if (b.operationId !== undefined && b.operationId !== h.operationId) {
      this.add("operation-id-changed", root.child("operationId"), `operationId changed from ${b.operationId} to ${h.operationId ?? "(none)"}`);
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
    for (const [key, bp] of b.params) {
      const hp = h.params.get(key);
      if (hp) {
        consumed.add(key);
        this.compareParameter(bp, hp, paramLoc(hp));
        continue;
      }
      const name = (str(bp.name) ?? "").toLowerCase();
      const moved = [...h.params].find(([k, p]) => !b.params.has(k) && !consumed.has(k) && (str(p.name) ?? "").toLowerCase() === name);
      if (moved) {
        consumed.add(moved[0]);
        this.add("parameter-location-changed", paramLoc(moved[1]), `parameter ${show(bp.name)} moved from ${str(bp.in)} to ${str(moved[1].in)}`);
        this.compareParameter(bp, moved[1], paramLoc(moved[1]));
        continue;
      }
      const fresh = [...h.params].filter(([k, p]) => !b.params.has(k) && !consumed.has(k) && p.in === bp.in);
      const renamedTo = fresh.length === 1 ? fresh[0] : undefined;
      if (renamedTo) {
        consumed.add(renamedTo[0]);
        this.add("parameter-renamed", paramLoc(renamedTo[1]), `${str(bp.in)} parameter renamed from ${show(bp.name)} to ${show(renamedTo[1].name)}`);
        this.compareParameter(bp, renamedTo[1], paramLoc(renamedTo[1]));
        continue;
      }
      this.add("request-parameter-removed", paramLoc(bp), `${str(bp.in)} parameter ${show(bp.name)} removed`);
    }
    for (const [key, hp] of h.params) {
      if (b.params.has(key) || consumed.has(key)) continue;
      if (hp.required === true) this.add("request-parameter-required", paramLoc(hp), `new required ${str(hp.in)} parameter ${show(hp.name)}`);
      else this.add("request-parameter-added", paramLoc(hp), `optional ${str(hp.in)} parameter ${show(hp.name)} added`);
    }
  }

  private compareParameter(bp: Obj, hp: Obj, loc: Loc): void {
    const label = `${str(hp.in)} parameter ${show(hp.name)}`;
    if (bp.required !== true && hp.required === true) this.add("request-parameter-required", loc.child("required"), `${label} is now required`);
    if (bp.required === true && hp.required !== true) this.add("request-parameter-optional", loc.child("required"), `${label} is now optional`);
    const style = (p: Obj) => str(p.style) ?? defaultStyle(str(p.in) ?? "");
    const explode = (p: Obj) => (typeof p.explode === "boolean" ? p.explode : style(p) === "form");
    if (bp.in === hp.in && (style(bp) !== style(hp) || explode(bp) !== explode(hp))) {
      this.add("parameter-serialization-changed", loc.child("style"), `${label} serialization changed from ${style(bp)}/explode=${explode(bp)} to ${style(hp)}/explode=${explode(hp)}`);
    }
    this.compareText(bp, hp, loc);
    if (bp.schema !== undefined || hp.schema !== undefined) this.compareSchema(bp.schema ?? {}, hp.schema ?? {}, loc.child("schema"), "request");
    if (isObj(bp.content) || isObj(hp.content)) this.compareContent(asObj(bp.content), asObj(hp.content), loc.child("content"), "request");
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
    if (b.required !== true && h.required === true) this.add("request-body-required", loc.child("required"), "request body is now required");
    if (b.required === true && h.required !== true) this.add("request-body-optional", loc.child("required"), "request body is now optional");
    this.compareText(b, h, loc);
    this.compareContent(asObj(b.content), asObj(h.content), loc.child("content"), "request");
  }

  private compareContent(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    for (const [type, media] of Object.entries(b)) {
      if (!(type in h)) {
        this.add(dir === "request" ? "request-media-type-removed" : "response-media-type-removed", loc.child(type), `${dir} media type ${type} removed`);
        continue;
      }
      const bs = asObj(media).schema;
      const hs = asObj(h[type]).schema;
      if (bs !== undefined || hs !== undefined) this.compareSchema(bs ?? {}, hs ?? {}, loc.child(type, "schema"), dir);
    }
    for (const type of Object.keys(h)) if (!(type in b)) this.add("media-type-added", loc.child(type), `${dir} media type ${type} added`);
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
    for (const status of Object.keys(h)) if (!(status in b)) this.add("response-status-added", loc.child(status), `response ${status} added`);
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
      if (bh.required === true && hd.required !== true) this.add("response-header-removed", loc.child(found[0], "required"), `response header ${original} is no longer always sent`);
      this.compareSchema(bh.schema ?? {}, hd.schema ?? {}, loc.child(found[0], "schema"), "response");
    }
    for (const [name, [original]] of hh) if (!hb.has(name)) this.add("response-header-added", loc.child(original), `response header ${original} added`);
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
      if (b.s.items !== undefined || h.s.items !== undefined) this.compareSchema(b.s.items ?? {}, h.s.items ?? {}, loc.child("items"), dir);
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
    const message = `type changed from ${fmtTypes(tb)} to ${fmtTypes(th)}`;
    if (dir === "request") {
      if (narrowed) this.add("request-type-changed", loc.child("type"), message);
      else if (widened) this.add("request-type-widened", loc.child("type"), message);
    } else if (widened) this.add("response-type-changed", loc.child("type"), message);
    else if (narrowed) this.add("response-type-narrowed", loc.child("type"), message);
    const disjoint = tb !== undefined && th !== undefined && tb.size > 0 && removed.length === tb.size && added.length === th.size;
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
      if (added.length > 0) this.add(dir === "response" ? "response-enum-value-added" : "request-enum-value-added", at, `enum value ${added.join(", ")} added`);
      if (removed.length > 0) this.add(dir === "response" ? "response-enum-value-removed" : "request-enum-value-removed", at, `enum value ${removed.join(", ")} removed`);
    } else if (eh) {
      if (dir === "response") this.add("response-enum-value-removed", at, `values restricted to enum ${show(eh)}`);
      else this.add("request-constraint-narrowed", at, `values restricted to enum ${show(eh)}`);
    } else if (dir === "response") this.add("response-enum-value-added", at, `enum ${show(eb)} removed: any value may now be returned`);
    else this.add("request-constraint-widened", at, `enum ${show(eb)} removed`);
  }

  private constraint(dir: Dir, narrowed: boolean, loc: Loc, message: string): void {
    if (dir === "response") this.add("response-constraint-changed", loc, message);
    else this.add(narrowed ? "request-constraint-narrowed" : "request-constraint-widened", loc, message);
  }

  private compareConstraints(b: Obj, h: Obj, loc: Loc, dir: Dir): void {
    for (const [keys, upper] of [[UPPER_BOUNDS, true], [LOWER_BOUNDS, false]] as const) {
      for (const key of keys) {
        const vb = num(b[key]);
        const vh = num(h[key]);
        if (vb === vh) continue;
        const narrowed = vh !== undefined && (vb === undefined || (upper ? vh < vb : vh > vb));
        const message =
          vb === undefined ? `${key} ${vh} added` : vh === undefined ? `${key} ${vb} removed` : `${key} ${vh < vb ? "lowered" : "raised"} from ${vb} to ${vh}`;
        this.constraint(dir, narrowed, loc.child(key), message);
      }
    }
    const pb = str(b.pattern);
    const ph = str(h.pattern);
    if (pb !== ph) {
      const message = pb === undefined ? `pattern ${show(ph)} added` : ph === undefined ? `pattern ${show(pb)} removed` : `pattern changed from ${show(pb)} to ${show(ph)}`;
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
      this.constraint(dir, narrowed, loc.child("multipleOf"), `multipleOf changed from ${mb ?? "(none)"} to ${mh ?? "(none)"}`);
    }
    if ((b.uniqueItems === true) !== (h.uniqueItems === true)) {
      this.constraint(dir, h.uniqueItems === true, loc.child("uniqueItems"), `uniqueItems ${h.uniqueItems === true ? "added" : "removed"}`);
    }
    const closed = (s: Obj) => s.additionalProperties === false || s.unevaluatedProperties === false;
    if (closed(b) !== closed(h)) {
      const message = closed(h) ? "unknown properties are now rejected (additionalProperties: false)" : "unknown properties are now allowed";
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
      if (!inH) {
        this.add(dir === "response" ? "response-property-removed" : "request-property-removed", at, `${dir} property ${show(name)} removed`);
      } else if (!inB) {
        if (dir === "response") this.add("response-property-added", at, `response property ${show(name)} added`);
        else if (rh.has(name)) this.add("request-property-required", at, `new required request property ${show(name)}`);
        else this.add("request-property-added", at, `optional request property ${show(name)} added`);
      } else {
        const nowRequired = !rb.has(name) && rh.has(name);
        const nowOptional = rb.has(name) && !rh.has(name);
        if (dir === "response" && nowOptional) this.add("response-property-optional", at, `response property ${show(name)} is no longer required`);
        if (dir === "response" && nowRequired) this.add("response-property-required", at, `response property ${show(name)} is now required`);
        if (dir === "request" && nowRequired) this.add("request-property-required", at, `request property ${show(name)} is now required`);
        if (dir === "request" && nowOptional) this.add("request-property-optional", at, `request property ${show(name)} is now optional`);
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
    const keyed = (doc: Obj, raw: unknown, v: View) => {
      const out = new Map<string, { raw: unknown; index: number }>();
      const list = unionOf(v.s);
      if (!list) {
        out.set(v.ref ?? str(v.s.title) ?? "#0", { raw, index: 0 });
        return out;
      }
      list.forEach((item, index) => {
        const { node, ref } = deref(doc, item);
        out.set(ref ?? str(node.title) ?? `#${index}`, { raw: item, index });
      });
      return out;
    };
    const kb = keyed(this.base, rawB, b);
    const kh = keyed(this.head, rawH, h);
    const at = (side: View, index: number) => (unionOf(side.s) ? loc.child(keyword, String(index)) : loc);
    for (const [key, { raw, index }] of kb) {
      const match = kh.get(key);
      if (match) this.compareSchema(raw, match.raw, at(h, match.index), dir);
      else this.add(dir === "request" ? "request-variant-removed" : "response-variant-removed", at(b, index), `${keyword} variant ${key} removed`);
    }
    for (const [key, { index }] of kh) {
      if (!kb.has(key)) this.add(dir === "response" ? "response-variant-added" : "request-variant-added", at(h, index), `${keyword} variant ${key} added`);
    }
  }
}

/** Our own rules over two bundled (or self-contained) OpenAPI documents. Pure and synchronous. */
export function detectChanges(base: Obj, head: Obj): Change[] {
  return new Differ(base, head).run();
}

// ---------------------------------------------------------------------------
// Loading (YAML/JSON, split roots bundled with Redocly)
// ---------------------------------------------------------------------------

/** An input that cannot be read, parsed or bundled: exit code 2. */
export class InputError extends Error {
  override name = "InputError";
}

export interface LoadedSpec {
  file: string;
  /** The document, bundled (all $refs local) when the input was a split root. */
  doc: Obj;
}

const require = createRequire(import.meta.url);

function hasExternalRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasExternalRef);
  if (!isObj(node)) return false;
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) return true;
  return Object.values(node).some(hasExternalRef);
}

function redoclyBundle(file: string, out: string): Promise<void> {
  const cli = join(require.resolve("@redocly/cli/package.json"), "..", "bin", "cli.js");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, "bundle", file, "--ext", "json", "-o", out], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", (e) => fail(new InputError(`cannot bundle ${file}: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) return done();
      const lines = output
        .split("\n")
        .filter((l) => l.trim() !== "" && !/[║╔╚]/.test(l) && !/^bundling /.test(l))
        .slice(0, 20);
      fail(new InputError(`cannot bundle ${file}:\n${lines.join("\n")}`));
    });
  });
}

/** Reads, parses and (for split roots) bundles one input. Throws InputError naming the file. */
export async function loadSpec(file: string, workDir: string): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new InputError(`${file} is not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!isObj(doc) || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.")) {
    throw new InputError(`${file} is not an OpenAPI 3.x document (no "openapi: 3.x" field)`);
  }
  if (!hasExternalRef(doc)) return { file, doc };
  const bundled = join(workDir, `${basename(file).replace(/\.[^.]+$/, "")}-${Math.random().toString(36).slice(2, 8)}.json`);
  await redoclyBundle(resolve(file), bundled);
  return { file, doc: JSON.parse(await readFile(bundled, "utf8")) as Obj };
}

// ---------------------------------------------------------------------------
// Optic cross-check
// ---------------------------------------------------------------------------

export interface OpticHit {
  /** operationKey() of the operation, or "" for document-level results. */
  operationKey: string;
  operation: string;
  location: string;
  rule: string;
  message: string;
}

/** Maps an Optic jsonPath (absolute, parameters by index) to our operation key and relative location. */
export function opticLocation(jsonPath: string, doc: unknown): { operation: string; location: string } {
  const segs = jsonPath.split("/").slice(1).map(unescapePointer);
  if (segs[0] !== "paths" || segs.length < 3) return { operation: "", location: jsonPath };
  const [, path = "", method = ""] = segs;
  let rest = segs.slice(3);
  if (rest[0] === "parameters" && /^\d+$/.test(rest[1] ?? "")) {
    const p = asObj(getPointer(doc, `/paths/${escapePointer(path)}/${method}/parameters/${rest[1]}`));
    rest = ["parameters", str(p.in) ?? "", str(p.name) ?? "", ...rest.slice(2)];
  }
  const cleaned: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "allOf" && /^\d+$/.test(rest[i + 1] ?? "")) i++;
    else cleaned.push(rest[i] ?? "");
  }
  return { operation: `${method.toUpperCase()} ${path}`, location: cleaned.map((s) => `/${escapePointer(s)}`).join("") };
}

/** Everything an operation depends on: itself, its path item's parameters and every component it reaches. */
function operationSignature(doc: Obj, path: string, method: string): string {
  const item = deref(doc, asObj(doc.paths)[path]).node;
  const refs = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    if (!isObj(node)) return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#") && !refs.has(node.$ref)) {
      refs.add(node.$ref);
      walk(getPointer(doc, node.$ref.slice(1)));
    }
    Object.values(node).forEach(walk);
  };
  const own = { parameters: item.parameters, op: item[method] };
  walk(own);
  return [JSON.stringify(own), ...[...refs].sort().map((r) => `${r}=${JSON.stringify(getPointer(doc, r.slice(1)))}`)].join("\n");
}

/** Operation keys whose content (including referenced components) differs, or that exist on one side only. */
export function changedOperations(base: Obj, head: Obj): Set<string> {
  const signatures = (doc: Obj) => {
    const out = new Map<string, string>();
    for (const [path, raw] of Object.entries(asObj(doc.paths))) {
      const item = deref(doc, raw).node;
      for (const method of METHODS) if (isObj(item[method])) out.set(operationKey(`${method.toUpperCase()} ${path}`), operationSignature(doc, path, method));
    }
    return out;
  };
  const b = signatures(base);
  const h = signatures(head);
  return new Set([...new Set([...b.keys(), ...h.keys()])].filter((k) => b.get(k) !== h.get(k)));
}

/** A copy of the document keeping only the given operations (components are kept whole). */
function onlyOperations(doc: Obj, keys: Set<string>): Obj {
  const paths: Obj = {};
  for (const [path, raw] of Object.entries(asObj(doc.paths))) {
    const item = { ...deref(doc, raw).node };
    for (const method of METHODS) if (!keys.has(operationKey(`${method.toUpperCase()} ${path}`))) delete item[method];
    if (METHODS.some((m) => m in item)) paths[path] = item;
  }
  return { ...doc, paths };
}

/**
 * Runs Optic's breaking-changes ruleset in-process. Optic's rule runner is slow on large documents
 * (about 10 s of CPU for the whole Talent Graph spec), so it only sees the operations that differ.
 */
export async function runOptic(baseDoc: Obj, headDoc: Obj, workDir: string): Promise<OpticHit[]> {
  const changed = changedOperations(baseDoc, headDoc);
  if (changed.size === 0) return [];
  const write = async (doc: Obj, side: string) => {
    const file = join(workDir, `optic-${side}-${Math.random().toString(36).slice(2, 8)}.json`);
    await writeFile(file, JSON.stringify(onlyOperations(doc, changed)));
    return file;
  };
  const [baseFile, headFile] = await Promise.all([write(baseDoc, "base"), write(headDoc, "head")]);
  process.env.OPTIC_TELEMETRY_LEVEL ??= "off";
  const io = require("@useoptic/openapi-io") as typeof import("@useoptic/openapi-io");
  const utils = require("@useoptic/openapi-utilities") as typeof import("@useoptic/openapi-utilities");
  const { RuleRunner } = require("@useoptic/rulesets-base") as typeof import("@useoptic/rulesets-base");
  const { BreakingChangesRuleset } = require("@useoptic/standard-rulesets") as typeof import("@useoptic/standard-rulesets");
  const load = async (file: string) => {
    const parsed = await io.parseOpenAPIWithSourcemap(resolve(file)); // its sourcemap needs an absolute path
    const version = io.checkOpenAPIVersion(parsed.jsonLike);
    if (version === "2.x.x") throw new Error(`${file}: Swagger 2 is not supported`);
    const flat = io.denormalize(parsed, version, []);
    type Input = Parameters<typeof utils.compareSpecs>[0];
    return { ...flat, jsonLike: flat.jsonLike as Input["jsonLike"], isEmptySpec: false };
  };
  const [base, head] = await Promise.all([load(baseFile), load(headFile)]);
  const runner = new RuleRunner([new BreakingChangesRuleset()]);
  const { results } = await utils.compareSpecs(base, head, runner, {});
  return results
    .filter((r) => !r.passed && !r.exempted)
    .map((r) => {
      const where = opticLocation(r.location.jsonPath, r.location.spec === "before" ? base.jsonLike : head.jsonLike);
      return { operationKey: where.operation && operationKey(where.operation), operation: where.operation, location: where.location, rule: r.name, message: r.error ?? r.where };
    });
}

const related = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`) || a === "" || b === "";

/**
 * Marks our findings that Optic also flagged, and adds Optic findings our rules did not make.
 * Where our policy explicitly rated the same spot non-breaking, the policy wins (the hit is kept as a note).
 */
export function mergeOptic(changes: Change[], hits: OpticHit[]): { changes: Change[]; notes: string[] } {
  const merged = changes.map((c) => ({ ...c }));
  const notes: string[] = [];
  for (const hit of hits) {
    const near = merged.filter((c) => c.rule !== OPTIC_RULE && operationKey(c.operation) === hit.operationKey && related(c.location, hit.location));
    const breaking = near.filter((c) => c.breaking);
    if (breaking.length > 0) {
      for (const c of breaking) c.optic ??= hit.rule;
    } else if (near.length > 0) {
      notes.push(`Optic flagged ${hit.operation} ${hit.location} (${hit.rule}: ${hit.message}); our policy rates it non-breaking (${near.map((c) => c.rule).join(", ")}).`);
    } else {
      merged.push({
        rule: OPTIC_RULE,
        breaking: true,
        operation: hit.operation || "(document)",
        operationId: undefined,
        location: hit.location,
        message: `${hit.rule}: ${hit.message}`,
        why: "flagged by Optic's breaking-changes ruleset",
        optic: hit.rule,
      });
    }
  }
  return { changes: merged, notes };
}

// ---------------------------------------------------------------------------
// Comparing two files
// ---------------------------------------------------------------------------

export interface Report {
  base: LoadedSpec;
  head: LoadedSpec;
  changes: Change[];
  breaking: Change[];
  nonBreaking: Change[];
  notes: string[];
}

export interface CompareOptions {
  /** Run Optic as a cross-check (default true). */
  optic?: boolean;
}

export async function compareSpecFiles(baseFile: string, headFile: string, options: CompareOptions = {}): Promise<Report> {
  const workDir = await mkdtemp(join(tmpdir(), "breaking-"));
  try {
    const [base, head] = await Promise.all([loadSpec(baseFile, workDir), loadSpec(headFile, workDir)]);
    let changes = detectChanges(base.doc, head.doc);
    const notes: string[] = [];
    if (options.optic !== false) {
      try {
        const merged = mergeOptic(changes, await runOptic(base.doc, head.doc, workDir));
        changes = merged.changes;
        notes.push(...merged.notes);
      } catch (e) {
        notes.push(`Optic cross-check skipped: ${(e as Error).message.split("\n")[0]}`);
      }
    }
    return { base, head, changes, breaking: changes.filter((c) => c.breaking), nonBreaking: changes.filter((c) => !c.breaking), notes };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

export const describeOperation = (c: Change): string => (c.operationId ? `${c.operation} (${c.operationId})` : c.operation);

export function formatText(report: Pick<Report, "breaking" | "nonBreaking" | "notes">): string {
  const lines: string[] = [];
  const block = (c: Change, mark: string) => {
    lines.push(`  ${mark} ${describeOperation(c)}`);
    lines.push(`    at    ${c.location || "(operation)"}${c.component ? `  [${c.component}]` : ""}`);
    lines.push(`    what  ${c.message}`);
    if (c.why) lines.push(`    why   ${c.why}`);
    lines.push(`    rule  ${c.rule}${c.optic && c.rule !== OPTIC_RULE ? ` (also flagged by Optic: ${c.optic})` : ""}`);
  };
  lines.push(`Breaking changes: ${report.breaking.length}`);
  for (const c of report.breaking) block(c, "✘");
  lines.push(`Non-breaking changes: ${report.nonBreaking.length}`);
  for (const c of report.nonBreaking) lines.push(`  • ${describeOperation(c)} ${c.location || "(operation)"}: ${c.message} [${c.rule}]`);
  for (const n of report.notes) lines.push(`Note: ${n}`);
  return lines.join("\n");
}

const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (s: string): string => (s === "" ? "(operation)" : `\`${s.replaceAll("`", "'")}\``);

/** A Markdown table of changes (used by the gate's summary). */
export function markdownTable(changes: Change[], extra?: (c: Change) => string): string {
  const head = ["Operation", "Location", "Change", "Why it breaks clients", "Rule"];
  if (extra) head.push("Marker");
  const rows = changes.map((c) => {
    const location = code(c.location) + (c.component ? `<br>via ${code(c.component)}` : "");
    const row = [code(describeOperation(c)), location, c.message, c.why ?? "—", `\`${c.rule}\`${c.optic && c.rule !== OPTIC_RULE ? " (+optic)" : ""}`];
    if (extra) row.push(extra(c));
    return `| ${row.map(cell).join(" | ")} |`;
  });
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows].join("\n");
}

export function policyMarkdown(): string {
  const rows = Object.entries(POLICY).map(([id, def]: [string, RuleDef]) => `| \`${id}\` | ${def.breaking ? "✘ breaking" : "✔ non-breaking"} | ${cell(def.title)} | ${cell(def.why ?? "—")} |`);
  return ["| Rule | Verdict | Change | Why it breaks clients |", "|---|---|---|---|", ...rows].join("\n");
}

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

const USAGE = "usage: npm run breaking -- <base-spec> <head-spec> [--json] [--no-optic]\n       npm run breaking -- --policy";

export async function main(argv: string[]): Promise<number> {
  if (argv.includes("--policy")) {
    console.log(policyMarkdown());
    return 0;
  }
  const files = argv.filter((a) => !a.startsWith("--"));
  const unknown = argv.filter((a) => a.startsWith("--") && !["--json", "--no-optic"].includes(a));
  if (files.length !== 2 || unknown.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const [baseFile = "", headFile = ""] = files;
  try {
    const report = await compareSpecFiles(baseFile, headFile, { optic: !argv.includes("--no-optic") });
    if (argv.includes("--json")) {
      console.log(JSON.stringify({ breaking: report.breaking, nonBreaking: report.nonBreaking, notes: report.notes }, null, 2));
    } else console.log(formatText(report));
    return report.breaking.length > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof InputError) {
      console.error(`breaking: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
