/**
 * Random single edits over the project's own bundle (fixed seed): a keyword added, removed or changed, a value
 * widened or narrowed, at a random schema location (requests, responses, components, a webhook). The detector
 * reports every one of them, classified by a rule or by the safety net (`unclassified-change`), never "no change";
 * the counts are printed, and the safety net's share of edits on keywords the spec's dialect allows stays small.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../contract-core/index.js";
import { PreparedSpec, detectChanges } from "./breaking.js";

type Json = Record<string, any>;

/** mulberry32: a small deterministic PRNG. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value for each keyword of JSON Schema 2020-12 and the OpenAPI 3.1 dialect, when the edit adds it. */
export const DIALECT: Record<string, unknown> = {
  type: "string",
  enum: ["a", "b"],
  const: "a",
  multipleOf: 2,
  maximum: 5,
  exclusiveMaximum: 100,
  minimum: 1,
  exclusiveMinimum: 0,
  maxLength: 10,
  minLength: 3,
  pattern: "^a",
  maxItems: 3,
  minItems: 1,
  uniqueItems: true,
  maxContains: 3,
  minContains: 2,
  maxProperties: 5,
  minProperties: 1,
  required: ["zz"],
  dependentRequired: { a: ["b"] },
  format: "email",
  contentEncoding: "base64",
  contentMediaType: "application/json",
  contentSchema: { type: "object" },
  allOf: [{ minLength: 2 }],
  anyOf: [{ type: "string" }, { type: "integer" }],
  oneOf: [{ type: "string" }, { type: "integer" }],
  not: { type: "null" },
  if: { type: "string" },
  then: { minLength: 2 },
  else: { maxLength: 2 },
  dependentSchemas: { a: { required: ["b"] } },
  prefixItems: [{ type: "string" }],
  items: { type: "string" },
  contains: { type: "string" },
  properties: { zz: { type: "string" } },
  patternProperties: { "^z": { type: "string" } },
  additionalProperties: false,
  propertyNames: { maxLength: 5 },
  unevaluatedItems: false,
  unevaluatedProperties: false,
  title: "A title",
  description: "A description",
  default: "zz",
  deprecated: true,
  readOnly: true,
  writeOnly: true,
  examples: ["e"],
  example: "e",
  $comment: "a comment",
  discriminator: { propertyName: "kind" },
  xml: { name: "thing" },
  externalDocs: { url: "https://docs.example" },
  $defs: { Z: { type: "string" } },
  $id: "https://example.com/z",
  $anchor: "z",
};
const TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];
/** Keys outside the dialect: an unknown keyword and an extension the spec does not document. */
const OUTSIDE = { "x-new-extension": true, unknownKeyword: 1 };

interface Place {
  node: Json;
  where: "request" | "response" | "component" | "webhook";
}

/** Every schema object of the document, with the part of the document it sits in. */
function schemaPlaces(doc: Json): Place[] {
  const places: Place[] = [];
  const seen = new Set<object>();
  const SUB = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"];
  const MANY = ["allOf", "anyOf", "oneOf", "prefixItems"];
  const MAPS = ["properties", "patternProperties", "dependentSchemas"];
  const schema = (node: unknown, where: Place["where"]) => {
    if (!node || typeof node !== "object" || Array.isArray(node) || seen.has(node)) return;
    seen.add(node);
    const s = node as Json;
    places.push({ node: s, where });
    for (const k of SUB) schema(s[k], where);
    for (const k of MANY) if (Array.isArray(s[k])) for (const x of s[k]) schema(x, where);
    for (const k of MAPS) if (s[k] && typeof s[k] === "object") for (const x of Object.values(s[k])) schema(x, where);
  };
  const content = (c: unknown, where: Place["where"]) => {
    for (const media of Object.values((c ?? {}) as Json)) schema((media as Json).schema, where);
  };
  const operation = (op: Json, request: Place["where"], response: Place["where"]) => {
    for (const p of op.parameters ?? []) {
      schema(p.schema, request);
      content(p.content, request);
    }
    content(op.requestBody?.content, request);
    for (const r of Object.values((op.responses ?? {}) as Json)) {
      content((r as Json).content, response);
      for (const h of Object.values(((r as Json).headers ?? {}) as Json)) schema((h as Json).schema, response);
    }
  };
  for (const item of Object.values(doc.paths as Json))
    for (const op of Object.values(item as Json))
      if (op && typeof op === "object" && !Array.isArray(op)) operation(op, "request", "response");
  for (const item of Object.values((doc.webhooks ?? {}) as Json))
    for (const op of Object.values(item as Json)) operation(op as Json, "webhook", "webhook");
  for (const s of Object.values(doc.components.schemas as Json)) schema(s, "component");
  return places;
}

/** The project's bundle with a webhook that sends a Person (the spec has none yet; webhooks are a place too). */
function projectBundle(): Json {
  const doc = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "openapi.json"), "utf8")) as Json;
  const someSchema = Object.keys(doc.components.schemas)[0];
  doc.webhooks = {
    personChanged: {
      post: {
        operationId: "personChangedHook",
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["id"],
                properties: {
                  id: { type: "string", maxLength: 40 },
                  person: { $ref: `#/components/schemas/${someSchema}` },
                },
              },
            },
          },
        },
        responses: { "204": { description: "received" } },
      },
    },
  };
  return doc;
}

/** One edit of `node`; returns the keyword it touched, or undefined when it found nothing to do. */
function edit(node: Json, rand: () => number): string | undefined {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const roll = rand();
  const present = Object.keys(node);
  if (roll < 0.4) {
    const absent = Object.keys(DIALECT).filter((k) => !(k in node));
    const key = rand() < 0.03 ? pick(Object.keys(OUTSIDE)) : pick(absent);
    node[key] = structuredClone((DIALECT as Json)[key] ?? (OUTSIDE as Json)[key]);
    return key;
  }
  if (present.length === 0) return undefined;
  const key = pick(present);
  if (roll < 0.6) {
    delete node[key];
    return key;
  }
  const value = node[key];
  if (typeof value === "number") node[key] = rand() < 0.5 ? value + 1 : value - 1;
  else if (typeof value === "boolean") node[key] = !value;
  else if (key === "type") node[key] = typeof value === "string" ? pick(TYPES.filter((t) => t !== value)) : value;
  else if (typeof value === "string") node[key] = key === "$ref" ? "#/components/schemas/Nope" : `${value}z`;
  else if (Array.isArray(value)) {
    if (value.length > 0 && rand() < 0.5) value.splice(Math.floor(rand() * value.length), 1);
    else if (key === "type") value.push(pick(TYPES.filter((t) => !value.includes(t))));
    else value.push(typeof value[0] === "string" ? "zz" : { type: "boolean" });
  } else if (value && typeof value === "object") {
    const inner = Object.keys(value);
    if (inner.length > 0 && rand() < 0.5) delete value[pick(inner)];
    else value[key === "properties" ? "zz" : "maxLength"] = key === "properties" ? { type: "string" } : 7;
  } else return undefined;
  return key;
}

interface SingleEdit {
  where: Place["where"];
  key: string;
  /** The edited node before and after, as JSON. */
  before: string;
  after: string;
  /** The whole edited document (absent when the caller asked only for the edit's description). */
  head?: Json;
}

/**
 * The fixed sequence of `count` single edits of `base` (seed 54), each to a fresh copy. `whole(n, where)` says
 * whether edit n needs the whole edited document; the others edit a copy of their node alone, which draws the same
 * random numbers, so the sequence is the same whichever edits are asked for. A whole document shares no node with
 * `base` (it is parsed from the base's JSON), unless `share`: then only the edited node and the objects above it
 * are copies, and every other node is the base's own (a document to compare with a PreparedSpec of the base,
 * which is a copy of its own; the base itself the differ would copy before comparing).
 */
function* singleEdits(
  base: Json,
  count: number,
  whole: (n: number, where: Place["where"]) => boolean = () => true,
  share = false,
): Generator<SingleEdit> {
  const rand = random(54);
  const places = schemaPlaces(base);
  // The edited node is found by its path in the base.
  const text = JSON.stringify(base);
  const copyPath = (path: string[]): { head: Json; node: Json } => {
    // The objects above the node are shallow copies; the node, which an edit may change at any depth, a deep one.
    const head: Json = { ...base };
    let parent = head;
    path.forEach((key, i) => {
      const child = parent[key];
      parent = parent[key] =
        i === path.length - 1 ? structuredClone(child) : Array.isArray(child) ? [...child] : { ...child };
    });
    return { head, node: parent };
  };
  const paths = new Map<object, string[]>();
  const walk = (node: unknown, path: string[]): void => {
    if (!node || typeof node !== "object") return;
    paths.set(node, path);
    for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
  };
  walk(base, []);
  const parsed = (): { head: Json; node?: Json } => ({ head: JSON.parse(text) as Json });
  for (let n = 0; n < count;) {
    const { node: original, where } = places[Math.floor(rand() * places.length)]!;
    const path = paths.get(original)!;
    const copied = !whole(n, where) ? undefined : share ? copyPath(path) : parsed();
    const head = copied?.head;
    const node = copied?.node ?? (head ? path.reduce((x: Json, k) => x[k], head) : structuredClone(original));
    const before = JSON.stringify(node);
    const key = edit(node, rand);
    if (key === undefined || JSON.stringify(node) === before) continue;
    n += 1;
    yield { where, key, before, after: JSON.stringify(node), ...(head ? { head } : {}) };
  }
}

/** Freezes a JSON value all the way down: a write to it throws. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") for (const x of Object.values(Object.freeze(value))) deepFreeze(x);
  return value;
}

describe("random single edits over the project's bundle", () => {
  it("are each reported, by a rule or by the safety net, never as no change", () => {
    // Frozen: the edited documents share its nodes, and an edit that wrote to one of them would throw.
    const base = deepFreeze(projectBundle());
    const places = schemaPlaces(base);
    expect(places.filter((p) => p.where === "webhook").length).toBeGreaterThan(0);
    const silent: string[] = [];
    const counts = { edits: 0, classified: 0, net: 0, both: 0, dialectEdits: 0, dialectNet: 0 };
    const byPlace: Record<string, number> = {};
    const netKeys: Record<string, number> = {};
    const prepared = new PreparedSpec(base);
    for (const { where, key, before, after, head } of singleEdits(base, 1000, () => true, true)) {
      counts.edits += 1;
      byPlace[where] = (byPlace[where] ?? 0) + 1;
      const changes = detectChanges(prepared, head!);
      const net = changes.some((c) => c.rule === "unclassified-change");
      const ruled = changes.some((c) => c.rule !== "unclassified-change");
      if (changes.length === 0) silent.push(`${where} ${key}: ${before} -> ${after}`);
      if (ruled && !net) counts.classified += 1;
      else if (net && !ruled) counts.net += 1;
      else if (net) counts.both += 1;
      if (key in DIALECT) {
        counts.dialectEdits += 1;
        if (net && !ruled) {
          counts.dialectNet += 1;
          netKeys[key] = (netKeys[key] ?? 0) + 1;
        }
      }
    }
    console.log(
      `generative: ${counts.edits} edits (${JSON.stringify(byPlace)}): ${counts.classified} classified by a rule, ` +
        `${counts.net} by the safety net only, ${counts.both} both; dialect keywords: ${counts.dialectNet} of ` +
        `${counts.dialectEdits} to the safety net (${JSON.stringify(netKeys)})`,
    );
    expect(silent).toEqual([]);
    expect(counts.dialectNet / counts.dialectEdits).toBeLessThan(0.05);
  });

  it("give the same changes when the differ skips what an edit does not reach as when it compares every operation", () => {
    // Every 25th of the same edits, and each in the webhook (a few): comparing every operation in full costs
    // several times the skipping differ's time. The bundle is frozen: the differ compares it as it is and must
    // never write to it. The first test compares a prepared bundle: the same changes as from the bundle itself.
    const base = deepFreeze(projectBundle());
    const prepared = new PreparedSpec(base);
    const wheres = new Set<string>();
    let compared = 0;
    for (const { where, key, head } of singleEdits(base, 1000, (n, at) => n % 25 === 0 || at === "webhook")) {
      if (head === undefined) continue;
      compared += 1;
      wheres.add(where);
      const plain = detectChanges(base, head, { everyOperation: true });
      expect(plain.length, `${where} ${key}`).toBeGreaterThan(0);
      expect(detectChanges(base, head), `${where} ${key}`).toEqual(plain);
      expect(detectChanges(prepared, head), `${where} ${key}, prepared`).toEqual(plain);
    }
    expect(compared).toBeGreaterThan(40);
    expect([...wheres].sort()).toEqual(["component", "request", "response", "webhook"]);
  });
});

describe("edits around what the differ passes over", () => {
  // Where a node written the same on both sides sits elsewhere for the safety net (another key, another array
  // position, behind a $ref), the differ must compare it as it did before passing it over: the same changes as
  // comparing every operation in full.
  const variant = () => ({ type: "string", maxLength: 3 });
  const doc = (p: unknown): Json => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/a": {
        get: {
          parameters: [
            { name: "q", in: "query", schema: { type: "string" } },
            { name: "r", in: "query", schema: { type: "integer" } },
          ],
          responses: {
            "200": {
              description: "ok",
              headers: { "X-Rate": { schema: { type: "integer" } } },
              content: {
                "application/json": { schema: { type: "object", properties: { p, q: { type: "string" } } } },
              },
            },
            "404": { description: "not found" },
          },
        },
      },
    },
    components: { schemas: { V: variant(), W: variant() }, responses: { NotFound: { description: "not found" } } },
  });
  const edits: [string, Json, (d: Json) => void][] = [
    ["a union of one written as its variant", doc({ oneOf: [variant()] }), (d) => setP(d, variant())],
    ["a variant written as a union of one", doc(variant()), (d) => setP(d, { oneOf: [variant()] })],
    [
      "oneOf written as anyOf",
      doc({ oneOf: [variant(), { type: "integer" }] }),
      (d) => setP(d, { anyOf: [variant(), { type: "integer" }] }),
    ],
    [
      "allOf parts reordered",
      doc({ allOf: [{ type: "object", properties: { x: variant() } }, { required: ["x"] }] }),
      (d) => setP(d, { allOf: [{ required: ["x"] }, { type: "object", properties: { x: variant() } }] }),
    ],
    [
      "a $ref to another component alike",
      doc({ $ref: "#/components/schemas/V" }),
      (d) => setP(d, { $ref: "#/components/schemas/W" }),
    ],
    [
      "a response moved behind a $ref",
      doc(variant()),
      (d) => void (ops(d).responses["404"] = { $ref: "#/components/responses/NotFound" }),
    ],
    ["a response with content moved behind a $ref", doc(variant()), (d) => moveResponse(d)],
    ["parameters reordered", doc(variant()), (d) => void ops(d).parameters.reverse()],
    ["a header renamed in letter case", doc(variant()), (d) => renameHeader(d)],
    ["the path item moved behind a $ref", doc(variant()), (d) => movePathItem(d)],
    ["the responses moved behind a $ref", doc(variant()), (d) => moveResponses(d)],
  ];
  function ops(d: Json): Json {
    return d.paths["/a"].get;
  }
  function setP(d: Json, p: unknown): void {
    ops(d).responses["200"].content["application/json"].schema.properties.p = p;
  }
  function renameHeader(d: Json): void {
    const headers = ops(d).responses["200"].headers;
    headers["x-rate"] = headers["X-Rate"];
    delete headers["X-Rate"];
  }
  function movePathItem(d: Json): void {
    setP(d, { ...variant(), maxLength: 4 });
    d.components.pathItems = { A: d.paths["/a"] };
    d.paths["/a"] = { $ref: "#/components/pathItems/A" };
  }
  function moveResponse(d: Json): void {
    d.components.responses.Ok = ops(d).responses["200"];
    ops(d).responses["200"] = { $ref: "#/components/responses/Ok" };
  }
  function moveResponses(d: Json): void {
    setP(d, { ...variant(), maxLength: 4 });
    d.components["x-responses"] = ops(d).responses;
    ops(d).responses = { $ref: "#/components/x-responses" };
  }
  it("give the same changes as comparing every operation in full", () => {
    for (const [what, base, change] of edits) {
      const head = structuredClone(base);
      change(head);
      expect(JSON.stringify(head), what).not.toBe(JSON.stringify(base));
      expect(detectChanges(base, head), what).toEqual(detectChanges(base, head, { everyOperation: true }));
    }
  });
});
