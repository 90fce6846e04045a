/**
 * The whole vocabulary, at any depth: for every JSON Schema 2020-12 keyword (and the OpenAPI dialect's), a change
 * that fires its rule in a request and in a response, and a near miss (the opposite edit) that does not break a
 * request; for every place a schema can sit (subschema keywords, components, parameters, headers, media types,
 * webhooks, callbacks), a minLength raised and lowered, judged in that place's direction.
 */
import { describe, expect, it } from "vitest";
import { type RuleId, detectChanges } from "./breaking.js";

type Json = Record<string, any>;

/** A document whose POST /things takes `request` as its body and answers `response` (copies of them). */
function doc(request: unknown, response: unknown): Json {
  return structuredClone({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          requestBody: { content: { "application/json": { schema: request } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: response } } } },
        },
      },
    },
    components: { schemas: { Thing: { type: "string" } } },
  });
}

const rulesOf = (base: Json, head: Json) => detectChanges(base, head);

interface Keyword {
  /** Accepts more (base) and less (head): firing in a request; its reverse widens. */
  wider: Json;
  narrower: Json;
  request: RuleId;
  response: RuleId;
}

const S = { type: "string" };
const A = { type: "array" };
const O = { type: "object" };
/** Each keyword: a wider and a narrower schema differing in that keyword only. */
const KEYWORDS: Record<string, Keyword> = {
  type: {
    wider: { type: ["string", "integer"] },
    narrower: S,
    request: "request-type-changed",
    response: "response-type-narrowed",
  },
  enum: {
    wider: { ...S, enum: ["a", "b"] },
    narrower: { ...S, enum: ["a"] },
    request: "request-enum-value-removed",
    response: "response-enum-value-removed",
  },
  const: {
    wider: S,
    narrower: { ...S, const: "a" },
    request: "request-constraint-narrowed",
    response: "response-enum-value-removed",
  },
  multipleOf: {
    wider: { type: "integer", multipleOf: 2 },
    narrower: { type: "integer", multipleOf: 4 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  maximum: {
    wider: { type: "number", maximum: 9 },
    narrower: { type: "number", maximum: 5 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  exclusiveMaximum: {
    wider: { type: "number", exclusiveMaximum: 9 },
    narrower: { type: "number", exclusiveMaximum: 5 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  minimum: {
    wider: { type: "number", minimum: 0 },
    narrower: { type: "number", minimum: 1 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  exclusiveMinimum: {
    wider: { type: "number", exclusiveMinimum: 0 },
    narrower: { type: "number", exclusiveMinimum: 1 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  maxLength: {
    wider: { ...S, maxLength: 9 },
    narrower: { ...S, maxLength: 5 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  minLength: {
    wider: { ...S, minLength: 1 },
    narrower: { ...S, minLength: 3 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  pattern: {
    wider: S,
    narrower: { ...S, pattern: "^a" },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  format: {
    wider: S,
    narrower: { ...S, format: "email" },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  maxItems: {
    wider: { ...A, maxItems: 9 },
    narrower: { ...A, maxItems: 5 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  minItems: {
    wider: { ...A, minItems: 0 },
    narrower: { ...A, minItems: 2 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  uniqueItems: {
    wider: A,
    narrower: { ...A, uniqueItems: true },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  maxContains: {
    wider: { ...A, contains: S, maxContains: 5 },
    narrower: { ...A, contains: S, maxContains: 3 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  minContains: {
    wider: { ...A, contains: S, minContains: 1 },
    narrower: { ...A, contains: S, minContains: 2 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  maxProperties: {
    wider: { ...O, maxProperties: 9 },
    narrower: { ...O, maxProperties: 5 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  minProperties: {
    wider: { ...O, minProperties: 0 },
    narrower: { ...O, minProperties: 2 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  required: {
    wider: { ...O, properties: { a: S } },
    narrower: { ...O, properties: { a: S }, required: ["a"] },
    request: "request-property-required",
    response: "response-property-required",
  },
  dependentRequired: {
    wider: { ...O, dependentRequired: { a: ["b"] } },
    narrower: { ...O, dependentRequired: { a: ["b", "c"] } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  properties: {
    wider: { ...O, properties: { a: S } },
    narrower: { ...O, properties: { a: { ...S, maxLength: 3 } } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  patternProperties: {
    wider: O,
    narrower: { ...O, patternProperties: { "^x": S } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  additionalProperties: {
    wider: O,
    narrower: { ...O, additionalProperties: false },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  propertyNames: {
    wider: { ...O, propertyNames: { maxLength: 9 } },
    narrower: { ...O, propertyNames: { maxLength: 5 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  unevaluatedProperties: {
    wider: O,
    narrower: { ...O, unevaluatedProperties: false },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  dependentSchemas: {
    wider: { ...O, dependentSchemas: { a: { maxProperties: 5 } } },
    narrower: { ...O, dependentSchemas: { a: { maxProperties: 3 } } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  items: {
    wider: { ...A, items: S },
    narrower: { ...A, items: { ...S, maxLength: 3 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  prefixItems: {
    wider: { ...A, prefixItems: [S] },
    narrower: { ...A, prefixItems: [S, S] },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  contains: {
    wider: A,
    narrower: { ...A, contains: S },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  unevaluatedItems: {
    wider: A,
    narrower: { ...A, unevaluatedItems: false },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  allOf: {
    wider: { allOf: [S] },
    narrower: { allOf: [S, { maxLength: 3 }] },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  anyOf: {
    wider: { anyOf: [S, { type: "integer" }] },
    narrower: { anyOf: [S] },
    request: "request-variant-removed",
    response: "response-variant-removed",
  },
  oneOf: {
    wider: { oneOf: [S, { type: "integer" }] },
    narrower: { oneOf: [S] },
    request: "request-variant-removed",
    response: "response-variant-removed",
  },
  not: {
    wider: S,
    narrower: { ...S, not: { maxLength: 2 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  if: {
    wider: { ...S, if: { pattern: "^a" }, then: { maxLength: 3 } },
    narrower: { ...S, if: { pattern: "^" }, then: { maxLength: 3 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-widened",
  },
  then: {
    wider: { ...S, if: { pattern: "^a" }, then: { minLength: 1 } },
    narrower: { ...S, if: { pattern: "^a" }, then: { minLength: 3 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  else: {
    wider: { ...S, if: { pattern: "^a" }, else: { minLength: 1 } },
    narrower: { ...S, if: { pattern: "^a" }, else: { minLength: 3 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  contentMediaType: {
    wider: S,
    narrower: { ...S, contentMediaType: "application/json" },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  contentEncoding: {
    wider: S,
    narrower: { ...S, contentEncoding: "base64" },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  contentSchema: {
    wider: { ...S, contentMediaType: "application/json", contentSchema: O },
    narrower: { ...S, contentMediaType: "application/json", contentSchema: { ...O, maxProperties: 3 } },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  readOnly: {
    wider: S,
    narrower: { ...S, readOnly: true },
    request: "request-constraint-narrowed",
    response: "annotation-changed",
  },
  writeOnly: {
    wider: S,
    narrower: { ...S, writeOnly: true },
    request: "annotation-changed",
    response: "response-constraint-narrowed",
  },
  default: {
    wider: { ...S, default: "a" },
    narrower: { ...S, default: "b" },
    request: "request-default-changed",
    response: "response-default-changed",
  },
  deprecated: { wider: S, narrower: { ...S, deprecated: true }, request: "deprecated", response: "deprecated" },
  title: { wider: S, narrower: { ...S, title: "A" }, request: "annotation-changed", response: "annotation-changed" },
  description: {
    wider: S,
    narrower: { ...S, description: "A" },
    request: "description-changed",
    response: "description-changed",
  },
  examples: { wider: S, narrower: { ...S, examples: ["a"] }, request: "example-changed", response: "example-changed" },
  $comment: {
    wider: S,
    narrower: { ...S, $comment: "a" },
    request: "annotation-changed",
    response: "annotation-changed",
  },
  $ref: {
    wider: { $ref: "#/components/schemas/Thing" },
    narrower: { $ref: "#/components/schemas/Thing", maxLength: 3 },
    request: "request-constraint-narrowed",
    response: "response-constraint-narrowed",
  },
  // Identifiers and dialect switches: no rule can say what they do to clients, so the safety net reports them.
  $id: {
    wider: S,
    narrower: { ...S, $id: "https://e.example/s" },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $anchor: {
    wider: S,
    narrower: { ...S, $anchor: "s" },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $dynamicAnchor: {
    wider: S,
    narrower: { ...S, $dynamicAnchor: "s" },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $dynamicRef: {
    wider: S,
    narrower: { ...S, $dynamicRef: "#s" },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $schema: {
    wider: S,
    narrower: { ...S, $schema: "https://json-schema.org/draft/2020-12/schema" },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $vocabulary: {
    wider: S,
    narrower: { ...S, $vocabulary: { "https://e.example/v": true } },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  $defs: {
    wider: S,
    narrower: { ...S, $defs: { X: S } },
    request: "unclassified-change",
    response: "unclassified-change",
  },
  discriminator: {
    wider: S,
    narrower: { ...S, discriminator: { propertyName: "kind" } },
    request: "discriminator-changed",
    response: "discriminator-changed",
  },
  xml: {
    wider: S,
    narrower: { ...S, xml: { name: "thing" } },
    request: "unclassified-change",
    response: "unclassified-change",
  },
};

describe("every keyword", () => {
  for (const [keyword, k] of Object.entries(KEYWORDS)) {
    it(`${keyword}: fires ${k.request} in a request and ${k.response} in a response; the reverse edit is reported`, () => {
      const request = rulesOf(doc(k.wider, S), doc(k.narrower, S));
      expect(request.map((c) => c.rule)).toContain(k.request);
      const response = rulesOf(doc(S, k.wider), doc(S, k.narrower));
      expect(response.map((c) => c.rule)).toContain(k.response);
      // Near miss: the reverse edit (the request accepts more) does not fire the request rule...
      const reverse = rulesOf(doc(k.narrower, S), doc(k.wider, S));
      expect(reverse.length, "the reverse edit is reported").toBeGreaterThan(0);
      if (k.request === "request-constraint-narrowed" && !["if", "readOnly"].includes(keyword)) {
        expect(reverse.map((c) => c.rule)).not.toContain(k.request);
        expect(reverse.filter((c) => c.breaking)).toEqual([]);
        // ...and breaks a response (a response that may send more breaks clients).
        const widened = rulesOf(doc(S, k.narrower), doc(S, k.wider));
        expect(widened.filter((c) => c.breaking).map((c) => c.rule)).not.toEqual([]);
      }
    });
  }
});

/** Places a schema can sit in a JSON Schema: each puts `inner` there. */
const SCHEMA_PLACES: Record<string, (inner: Json) => Json> = {
  properties: (x) => ({ ...O, properties: { a: x } }),
  items: (x) => ({ ...A, items: x }),
  prefixItems: (x) => ({ ...A, prefixItems: [S, x] }),
  additionalProperties: (x) => ({ ...O, additionalProperties: x }),
  patternProperties: (x) => ({ ...O, patternProperties: { "^x": x } }),
  allOf: (x) => ({ allOf: [S, x] }),
  anyOf: (x) => ({ anyOf: [{ type: "integer" }, { title: "s", ...x }] }),
  oneOf: (x) => ({ oneOf: [{ type: "integer" }, { title: "s", ...x }] }),
  then: (x) => ({ ...S, if: { pattern: "^a" }, then: x }),
  else: (x) => ({ ...S, if: { pattern: "^a" }, else: x }),
  dependentSchemas: (x) => ({ ...O, dependentSchemas: { a: { properties: { b: x } } } }),
  contains: (x) => ({ ...A, contains: x }),
  propertyNames: (x) => ({ ...O, propertyNames: x }),
  contentSchema: (x) => ({ ...S, contentMediaType: "application/json", contentSchema: x }),
  unevaluatedProperties: (x) => ({ ...O, unevaluatedProperties: x }),
  unevaluatedItems: (x) => ({ ...A, unevaluatedItems: x }),
  "deep (items of a property of an allOf part)": (x) => ({ allOf: [{ ...O, properties: { a: { ...A, items: x } } }] }),
};

describe("every place in a schema, in both directions", () => {
  const min = (n: number) => ({ ...S, minLength: n });
  for (const [place, at] of Object.entries(SCHEMA_PLACES)) {
    it(`${place}: a minLength raised breaks a request, lowered breaks a response; the reverses do not`, () => {
      const raised = rulesOf(doc(at(min(2)), S), doc(at(min(4)), S));
      expect(raised.filter((c) => c.breaking).map((c) => `${c.rule} ${c.location.endsWith("/minLength")}`)).toEqual([
        "request-constraint-narrowed true",
      ]);
      expect(rulesOf(doc(at(min(4)), S), doc(at(min(2)), S)).map((c) => c.rule)).toEqual([
        "request-constraint-widened",
      ]);
      const lowered = rulesOf(doc(S, at(min(4))), doc(S, at(min(2))));
      expect(lowered.map((c) => c.rule)).toEqual(["response-constraint-widened"]);
      expect(rulesOf(doc(S, at(min(2))), doc(S, at(min(4)))).map((c) => c.rule)).toEqual([
        "response-constraint-narrowed",
      ]);
    });
  }

  it("allOf: items (propertyNames, contentSchema) of two parts both apply, so the second one's are judged too", () => {
    const parts = (n: number) => ({
      allOf: [
        { ...A, items: { maxLength: 9 } },
        { ...A, items: { minLength: n } },
      ],
    });
    expect(rulesOf(doc(parts(2), S), doc(parts(4), S)).map((c) => `${c.rule} ${c.location}`)).toEqual([
      "request-constraint-narrowed /requestBody/content/application~1json/schema/items/minLength",
    ]);
  });

  it("not: the excluded schema compares the other way (a wider exclusion accepts less)", () => {
    const not = (n: number) => ({ ...S, not: { ...S, maxLength: n } });
    expect(rulesOf(doc(not(2), S), doc(not(4), S)).map((c) => c.rule)).toEqual(["request-constraint-narrowed"]);
    expect(rulesOf(doc(not(4), S), doc(not(2), S)).map((c) => c.rule)).toEqual(["request-constraint-widened"]);
    expect(rulesOf(doc(S, not(4)), doc(S, not(2))).map((c) => c.rule)).toEqual(["response-constraint-widened"]);
  });

  it("if: a changed condition moves values between branches, so it breaks both directions", () => {
    const cond = (p: string) => ({ ...S, if: { pattern: p }, then: { minLength: 3 } });
    expect(rulesOf(doc(cond("^a"), S), doc(cond("^b"), S)).map((c) => c.rule)).toEqual(["request-constraint-narrowed"]);
    expect(rulesOf(doc(S, cond("^a")), doc(S, cond("^b"))).map((c) => c.rule)).toEqual(["response-constraint-widened"]);
    // Near miss: the same condition written through a $ref.
    const viaRef = { ...S, if: { $ref: "#/components/schemas/Cond" }, then: { minLength: 3 } };
    const withCond = (d: Json) => ((d.components.schemas.Cond = { pattern: "^a" }), d);
    expect(rulesOf(withCond(doc(cond("^a"), S)), withCond(doc(viaRef, S)))).toEqual([]);
  });
});

/** Places a schema can sit in an OpenAPI document, each with the direction its values travel. */
const DOCUMENT_PLACES: Record<string, { dir: "request" | "response"; put: (d: Json, schema: Json) => void }> = {
  "a $ref'd component": {
    dir: "request",
    put: (d, s) => {
      d.components.schemas.Body = s;
      d.paths["/things"].post.requestBody.content["application/json"].schema = { $ref: "#/components/schemas/Body" };
    },
  },
  "a parameter's schema": {
    dir: "request",
    put: (d, s) => void (d.paths["/things"].post.parameters = [{ name: "q", in: "query", schema: s }]),
  },
  "a parameter's content": {
    dir: "request",
    put: (d, s) => {
      d.paths["/things"].post.parameters = [{ name: "q", in: "query", content: { "application/json": { schema: s } } }];
    },
  },
  "a path item's parameter": {
    dir: "request",
    put: (d, s) => void (d.paths["/things"].parameters = [{ name: "q", in: "query", schema: s }]),
  },
  "a request body's second media type": {
    dir: "request",
    put: (d, s) => void (d.paths["/things"].post.requestBody.content["text/plain"] = { schema: s }),
  },
  "a response header's schema": {
    dir: "response",
    put: (d, s) => void (d.paths["/things"].post.responses["200"].headers = { "X-A": { schema: s } }),
  },
  "a response header's content": {
    dir: "response",
    put: (d, s) => {
      d.paths["/things"].post.responses["200"].headers = { "X-A": { content: { "text/plain": { schema: s } } } };
    },
  },
  "a response's second media type": {
    dir: "response",
    put: (d, s) => void (d.paths["/things"].post.responses["200"].content["text/plain"] = { schema: s }),
  },
  "a response in components/responses": {
    dir: "response",
    put: (d, s) => {
      d.components.responses = { Err: { description: "e", content: { "application/json": { schema: s } } } };
      d.paths["/things"].post.responses["400"] = { $ref: "#/components/responses/Err" };
    },
  },
  "a webhook's payload (the client receives it)": {
    dir: "response",
    put: (d, s) => {
      d.webhooks = {
        thingMade: {
          post: {
            requestBody: { content: { "application/json": { schema: s } } },
            responses: { "204": { description: "ok" } },
          },
        },
      };
    },
  },
  "a callback's payload (the client receives it)": {
    dir: "response",
    put: (d, s) => {
      d.paths["/things"].post.callbacks = {
        made: {
          "{$request.body#/url}": {
            post: {
              requestBody: { content: { "application/json": { schema: s } } },
              responses: { "204": { description: "ok" } },
            },
          },
        },
      };
    },
  },
  "a webhook's response (the client sends it)": {
    dir: "request",
    put: (d, s) => {
      d.webhooks = {
        thingMade: {
          post: { responses: { "200": { description: "ok", content: { "application/json": { schema: s } } } } },
        },
      };
    },
  },
};

describe("every place in a document, in its direction", () => {
  const withSchema = (put: (d: Json, s: Json) => void, n: number) => {
    const d = doc(S, S);
    put(d, { ...S, minLength: n });
    return d;
  };
  for (const [place, { dir, put }] of Object.entries(DOCUMENT_PLACES)) {
    const breaks = dir === "request" ? "raised" : "lowered";
    it(`${place}: a minLength ${breaks} breaks clients (${dir}); the reverse does not`, () => {
      const [narrow, wide] = [withSchema(put, 4), withSchema(put, 2)];
      const [fires, near] =
        dir === "request"
          ? [rulesOf(wide, narrow), rulesOf(narrow, wide)]
          : [rulesOf(narrow, wide), rulesOf(wide, narrow)];
      expect(fires.filter((c) => c.breaking).map((c) => c.rule)).toEqual([
        `${dir}-constraint-${dir === "request" ? "narrowed" : "widened"}`,
      ]);
      expect(fires[0]?.location).toMatch(/\/minLength$/);
      expect(near.filter((c) => c.breaking)).toEqual([]);
      expect(near.length).toBeGreaterThan(0);
    });
  }
});
