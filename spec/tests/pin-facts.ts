/**
 * The facts of a spec element that a pin (reference-pins.test.ts) holds: what a client relies on and a change
 * could loosen. A schema's type, required keys, enum, const, pattern, format, bounds and term-list limits;
 * whether its holder requires it (a property); a parameter's place, name and whether it is required; an
 * operation's documented statuses; otherwise that it exists (and a scalar's value). `$ref`s are followed.
 */
import { atPointer } from "../../scripts/trace/trace.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

const SCHEMA_KEYS = [
  "type",
  "required",
  "enum",
  "const",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "x-term-list",
] as const;

function deref(doc: unknown, node: unknown): unknown {
  for (let hops = 0; hops < 8 && isObj(node) && typeof node.$ref === "string"; hops++) node = atPointer(doc, node.$ref);
  return node;
}

function schemaFacts(schema: unknown): Obj {
  if (!isObj(schema)) return {};
  const out: Obj = {};
  for (const key of SCHEMA_KEYS)
    if (schema[key] !== undefined)
      out[key] = key === "required" ? [...(schema[key] as string[])].sort() : structuredClone(schema[key]);
  return out;
}

/** The facts at `pointer` in `doc`, or `{ exists: false }`. */
export function pinFacts(doc: unknown, pointer: string): Obj {
  const node = deref(doc, atPointer(doc, pointer));
  if (node === undefined) return { exists: false };
  const facts: Obj = { exists: true };
  const holder = /^(.*)\/properties\/([^/]+)$/.exec(pointer);
  if (holder) {
    const parent = deref(doc, atPointer(doc, holder[1]!));
    const name = holder[2]!.replaceAll("~1", "/").replaceAll("~0", "~");
    facts.requiredByHolder = isObj(parent) && Array.isArray(parent.required) && parent.required.includes(name);
  }
  if (!isObj(node)) return { ...facts, value: structuredClone(node) };
  if (typeof node.in === "string" && typeof node.name === "string")
    return {
      ...facts,
      in: node.in,
      name: node.name,
      required: node.required === true,
      schema: schemaFacts(deref(doc, node.schema)),
    };
  if (isObj(node.responses)) return { ...facts, statuses: Object.keys(node.responses).sort() };
  const media = isObj(node.content) ? deref(doc, node.content["application/json"]) : node;
  if (isObj(media) && isObj(media.schema) && !("type" in node))
    return {
      ...facts,
      ...(node.required === true ? { required: true } : {}),
      schema: schemaFacts(deref(doc, media.schema)),
    };
  return { ...facts, ...schemaFacts(node) };
}
