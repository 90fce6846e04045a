/**
 * A near-miss for every rule of the policy: a change that looks like the one the rule reports (same place, same
 * kind of edit) and must not fire it. With breaking.test.ts, where a fixture fires each rule, every rule is shown
 * to tell its change apart from its look-alike.
 */
import { describe, expect, it } from "vitest";
import { type RuleId, POLICY, detectChanges } from "./breaking.js";

/** Documents edited in place by the near-misses. */
type Doc = Record<string, any>;

/** A small document with a path parameter, query and header parameters, a request body, responses and unions. */
function baseDoc(): Doc {
  const variants = () => [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }];
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/people/{slug}": {
        parameters: [{ name: "slug", in: "path", required: true, schema: { type: "string" } }],
        get: {
          operationId: "getPerson",
          summary: "Get a person",
          parameters: [
            { name: "expand", in: "query", required: true, schema: { type: "string", enum: ["a", "b"] } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "ok",
              headers: { "X-Rate": { required: true, schema: { type: "integer" } } },
              content: { "application/json": { schema: { $ref: "#/components/schemas/Person" } } },
            },
            "404": { description: "not found" },
          },
        },
      },
      "/lists": {
        post: {
          summary: "Create a List",
          requestBody: {
            required: true,
            description: "The List",
            content: { "application/json": { schema: { $ref: "#/components/schemas/NewList" } } },
          },
          responses: { "201": { description: "created" } },
        },
      },
    },
    components: {
      schemas: {
        Person: {
          type: "object",
          required: ["slug"],
          properties: {
            slug: { type: "string", maxLength: 80 },
            headline: { type: ["string", "null"], description: "Headline." },
            kind: { type: "string", enum: ["a", "b"] },
            score: { type: "number" },
            secret: { type: "string", writeOnly: true },
            shape: { oneOf: variants() },
          },
        },
        NewList: {
          type: "object",
          required: ["name"],
          properties: {
            id: { type: "string", readOnly: true },
            name: { type: "string", minLength: 1, maxLength: 80 },
            size: { type: "number", maximum: 100 },
            kind: { type: "string", enum: ["x", "y"] },
            note: { type: ["string", "null"] },
            query: { oneOf: variants() },
          },
        },
        A: { title: "A", type: "object", properties: { a: { type: "string" } } },
        B: { title: "B", type: "object", properties: { b: { type: "string" } } },
      },
    },
  };
}

const person = (d: Doc) => d.components.schemas.Person;
const newList = (d: Doc) => d.components.schemas.NewList;
const getPerson = (d: Doc) => d.paths["/people/{slug}"].get;
const createList = (d: Doc) => d.paths["/lists"].post;
const ok200 = (d: Doc) => getPerson(d).responses["200"];

interface NearMiss {
  /** What the head does that looks like the rule's change. */
  what: string;
  head: (d: Doc) => void;
  /** Also edits the base, when the look-alike needs another starting point. */
  base?: (d: Doc) => void;
}

const hook = () => ({
  post: {
    description: "A person changed.",
    requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Person" } } } },
    responses: { "204": { description: "received" } },
  },
});
const callback = () => ({
  "{$request.query.cb}": { post: { responses: { "204": { description: "received" } } } },
});
const secured = (d: Doc) => {
  d.components.securitySchemes = {
    bearer: { type: "http", scheme: "bearer", description: "A token." },
    key: { type: "apiKey", in: "header", name: "X-Key" },
    oauth: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://a.example", scopes: { r: "", w: "" } } } },
  };
  getPerson(d).security = [{ bearer: [] }, { oauth: ["r", "w"] }];
};

const NEAR_MISSES: Record<RuleId, NearMiss> = {
  "unclassified-change": {
    what: "an annotation-only extension (x-property-case, documented) added to a schema",
    head: (d) => void (person(d)["x-property-case"] = "camelCase"),
  },
  "discriminator-changed": {
    what: "a discriminator's mapping written through the same $refs in another key order",
    base: (d) => {
      person(d).properties.shape.discriminator = {
        propertyName: "k",
        mapping: { a: "#/components/schemas/A", b: "#/components/schemas/B" },
      };
    },
    head: (d) => {
      person(d).properties.shape.discriminator = {
        mapping: { b: "#/components/schemas/B", a: "#/components/schemas/A" },
        propertyName: "k",
      };
    },
  },
  "response-constraint-widened": {
    what: "a response maxLength lowered",
    head: (d) => void (person(d).properties.slug.maxLength = 40),
  },
  "request-default-changed": {
    what: "a default changed in a response property",
    base: (d) => void (person(d).properties.kind.default = "a"),
    head: (d) => void (person(d).properties.kind.default = "b"),
  },
  "response-default-changed": {
    what: "a default changed in a request property",
    base: (d) => void (newList(d).properties.kind.default = "x"),
    head: (d) => void (newList(d).properties.kind.default = "y"),
  },
  "webhook-removed": {
    what: "the webhook's description changed",
    base: (d) => void (d.webhooks = { personChanged: hook() }),
    head: (d) => void (d.webhooks.personChanged.post.description = "Sent when a person changes."),
  },
  "webhook-added": {
    what: "an operation added to the paths, not the webhooks",
    head: (d) => void (d.paths["/people/{slug}"].delete = { responses: { "204": { description: "gone" } } }),
  },
  "callback-removed": {
    what: "a callback moved into components/callbacks behind a $ref",
    base: (d) => void (getPerson(d).callbacks = { done: callback() }),
    head: (d) => {
      d.components.callbacks = { Done: callback() };
      getPerson(d).callbacks = { done: { $ref: "#/components/callbacks/Done" } };
    },
  },
  "callback-added": {
    what: "a callback moved into components/callbacks behind a $ref",
    base: (d) => void (getPerson(d).callbacks = { done: callback() }),
    head: (d) => {
      d.components.callbacks = { Done: callback() };
      getPerson(d).callbacks = { done: { $ref: "#/components/callbacks/Done" } };
    },
  },
  "security-requirement-added": {
    what: "an alternative requirement added",
    base: secured,
    head: (d) => void getPerson(d).security.push({ key: [] }),
  },
  "security-scope-added": {
    what: "a scope removed from a requirement",
    base: secured,
    head: (d) => void (getPerson(d).security[1].oauth = ["r"]),
  },
  "security-requirement-relaxed": {
    what: "the requirement alternatives listed in another order",
    base: secured,
    head: (d) => void getPerson(d).security.reverse(),
  },
  "security-scheme-changed": {
    what: "the scheme's description changed",
    base: secured,
    head: (d) => void (d.components.securitySchemes.bearer.description = "A bearer token."),
  },
  "server-removed": {
    what: "the servers listed in another order",
    base: (d) => void (d.servers = [{ url: "https://a.example" }, { url: "https://b.example" }]),
    head: (d) => void d.servers.reverse(),
  },
  "server-added": {
    what: "a server's description changed",
    base: (d) => void (d.servers = [{ url: "https://a.example" }]),
    head: (d) => void (d.servers[0].description = "Production"),
  },
  "component-added": {
    what: "a component added and used by a response property",
    head: (d) => {
      d.components.schemas.Team = { type: "object" };
      person(d).properties.team = { $ref: "#/components/schemas/Team" };
    },
  },
  "annotation-changed": {
    what: "a description changed",
    head: (d) => void (person(d).properties.headline.description = "The headline."),
  },
  "example-changed": {
    what: "an example moved into components/examples behind a $ref (same value)",
    base: (d) => void (ok200(d).content["application/json"].examples = { one: { value: { slug: "x" } } }),
    head: (d) => {
      d.components.examples = { One: { value: { slug: "x" } } };
      ok200(d).content["application/json"].examples = { one: { $ref: "#/components/examples/One" } };
    },
  },
  "operation-removed": {
    what: "the path template variable renamed (same operation)",
    head: (d) => {
      d.paths["/people/{id}"] = d.paths["/people/{slug}"];
      delete d.paths["/people/{slug}"];
      d.paths["/people/{id}"].parameters[0].name = "id";
    },
  },
  "operation-id-changed": {
    what: "an operationId given to an operation that had none",
    head: (d) => void (createList(d).operationId = "createList"),
  },
  "response-status-removed": {
    what: "a response moved into components/responses behind a $ref",
    head: (d) => {
      d.components.responses = { NotFound: getPerson(d).responses["404"] };
      getPerson(d).responses["404"] = { $ref: "#/components/responses/NotFound" };
    },
  },
  "response-media-type-removed": {
    what: "a second response media type added",
    head: (d) => void (ok200(d).content["application/xml"] = { schema: { type: "string" } }),
  },
  "response-header-removed": {
    what: "the response header's name in other letter case",
    head: (d) => {
      ok200(d).headers = { "x-rate": ok200(d).headers["X-Rate"] };
    },
  },
  "response-property-removed": {
    what: "a writeOnly property (never returned) removed",
    head: (d) => void delete person(d).properties.secret,
  },
  "response-property-optional": {
    what: "the required list moved into an allOf part",
    head: (d) => {
      delete person(d).required;
      person(d).allOf = [{ type: "object", required: ["slug"] }];
    },
  },
  "response-property-nullable": {
    what: "an already nullable property rewritten as oneOf [string, null]",
    head: (d) => void (person(d).properties.headline = { oneOf: [{ type: "string" }, { type: "null" }] }),
  },
  "response-enum-value-added": {
    what: "the response enum listed in another order",
    head: (d) => void (person(d).properties.kind.enum = ["b", "a"]),
  },
  "response-variant-added": {
    what: "the response oneOf variants listed in another order",
    head: (d) => void person(d).properties.shape.oneOf.reverse(),
  },
  "response-type-changed": {
    what: "a response number narrowed to integer",
    head: (d) => void (person(d).properties.score.type = "integer"),
  },
  "request-type-changed": {
    what: "a request integer widened to number",
    base: (d) => void (newList(d).properties.size.type = "integer"),
    head: (d) => void (newList(d).properties.size.type = "number"),
  },
  "request-parameter-required": {
    what: "an optional query parameter added",
    head: (d) => void getPerson(d).parameters.push({ name: "lang", in: "query", schema: { type: "string" } }),
  },
  "request-property-required": {
    what: "a required readOnly property (never sent) added to the request body",
    head: (d) => {
      newList(d).properties.created = { type: "string", readOnly: true };
      newList(d).required.push("created");
    },
  },
  "request-body-required": {
    what: "a required request body made optional",
    head: (d) => void (createList(d).requestBody.required = false),
  },
  "request-constraint-narrowed": {
    what: "a request maxLength raised",
    head: (d) => void (newList(d).properties.name.maxLength = 100),
  },
  "request-enum-value-removed": {
    what: "a request enum value added",
    head: (d) => void newList(d).properties.kind.enum.push("z"),
  },
  "request-variant-removed": {
    what: "the request oneOf variants listed in another order",
    head: (d) => void newList(d).properties.query.oneOf.reverse(),
  },
  "request-parameter-removed": {
    what: "the only query parameter renamed",
    head: (d) => void (getPerson(d).parameters[0].name = "include"),
  },
  "request-property-removed": {
    what: "a readOnly property (never sent) removed from the request body",
    head: (d) => void delete newList(d).properties.id,
  },
  "request-body-removed": {
    what: "the request body's description changed",
    head: (d) => void (createList(d).requestBody.description = "The new List"),
  },
  "request-media-type-removed": {
    what: "a second request media type added",
    head: (d) => void (createList(d).requestBody.content["text/plain"] = { schema: { type: "string" } }),
  },
  "parameter-location-changed": {
    what: "the header parameter's name in other letter case",
    head: (d) => void (getPerson(d).parameters[1].name = "x-trace"),
  },
  "parameter-renamed": {
    what: "a query parameter removed and two others added (no one-to-one rename)",
    head: (d) => {
      getPerson(d).parameters[0] = { name: "include", in: "query", schema: { type: "string" } };
      getPerson(d).parameters.push({ name: "lang", in: "query", schema: { type: "string" } });
    },
  },
  "parameter-serialization-changed": {
    what: "the query parameter's default style and explode written out",
    head: (d) => Object.assign(getPerson(d).parameters[0], { style: "form", explode: true }),
  },
  "operation-added": {
    what: "a path item with parameters and no operation added",
    head: (d) => void (d.paths["/teams/{id}"] = { parameters: [{ name: "id", in: "path", required: true }] }),
  },
  "response-status-added": {
    what: "a property added to an existing response",
    head: (d) => void (person(d).properties.title = { type: "string" }),
  },
  "response-header-added": {
    what: "the response header's name in other letter case",
    head: (d) => {
      ok200(d).headers = { "x-rate": ok200(d).headers["X-Rate"] };
    },
  },
  "response-property-added": {
    what: "a writeOnly property (never returned) added to the response",
    head: (d) => void (person(d).properties.password = { type: "string", writeOnly: true }),
  },
  "response-property-required": {
    what: "the response's required list moved into an allOf part",
    head: (d) => {
      delete person(d).required;
      person(d).allOf = [{ type: "object", required: ["slug"] }];
    },
  },
  "response-property-non-nullable": {
    what: "a nullable property rewritten as oneOf [string, null]",
    head: (d) => void (person(d).properties.headline = { oneOf: [{ type: "string" }, { type: "null" }] }),
  },
  "response-enum-value-removed": {
    what: "the response enum listed in another order",
    head: (d) => void (person(d).properties.kind.enum = ["b", "a"]),
  },
  "response-variant-removed": {
    what: "the response oneOf variants listed in another order",
    head: (d) => void person(d).properties.shape.oneOf.reverse(),
  },
  "response-type-narrowed": {
    what: "a response format added without a type change",
    head: (d) => void (person(d).properties.slug.format = "uuid"),
  },
  "response-constraint-narrowed": {
    what: "a response constraint moved into an allOf part",
    head: (d) => {
      delete person(d).properties.slug.maxLength;
      person(d).properties.slug.allOf = [{ maxLength: 80 }];
    },
  },
  "request-parameter-added": {
    what: "the only query parameter renamed",
    head: (d) => void (getPerson(d).parameters[0].name = "include"),
  },
  "request-property-added": {
    what: "a readOnly property (never sent) added to the request body",
    head: (d) => void (newList(d).properties.created = { type: "string", readOnly: true }),
  },
  "request-body-added": {
    what: "a required request body added",
    head: (d) => {
      getPerson(d).requestBody = { required: true, content: { "application/json": { schema: { type: "object" } } } };
    },
  },
  "request-parameter-optional": {
    what: "a required parameter marked deprecated",
    head: (d) => void (getPerson(d).parameters[0].deprecated = true),
  },
  "request-property-optional": {
    what: "a required request property removed",
    head: (d) => {
      delete newList(d).properties.name;
      newList(d).required = [];
    },
  },
  "request-body-optional": {
    what: "the request body removed",
    head: (d) => void delete createList(d).requestBody,
  },
  "request-constraint-widened": {
    what: "a request maxLength lowered",
    head: (d) => void (newList(d).properties.name.maxLength = 40),
  },
  "request-enum-value-added": {
    what: "the request enum listed in another order",
    head: (d) => void newList(d).properties.kind.enum.reverse(),
  },
  "request-variant-added": {
    what: "the request oneOf variants listed in another order",
    head: (d) => void newList(d).properties.query.oneOf.reverse(),
  },
  "request-type-widened": {
    what: "null no longer accepted in a request property",
    head: (d) => void (newList(d).properties.note.type = "string"),
  },
  "media-type-added": {
    what: "an example added to an existing media type",
    head: (d) => void (ok200(d).content["application/json"].example = { slug: "x" }),
  },
  "description-changed": {
    what: "an example changed, no description",
    base: (d) => void (ok200(d).content["application/json"].example = { slug: "x" }),
    head: (d) => void (ok200(d).content["application/json"].example = { slug: "y" }),
  },
  deprecated: {
    what: "deprecated: false written out",
    head: (d) => void (getPerson(d).deprecated = false),
  },
};

describe("near-misses", () => {
  it("every rule of the policy has one", () => {
    expect(Object.keys(NEAR_MISSES).sort()).toEqual(Object.keys(POLICY).sort());
  });

  for (const [rule, { what, head, base }] of Object.entries(NEAR_MISSES) as [RuleId, NearMiss][]) {
    it(`${rule}: not fired by ${what}`, () => {
      const before = baseDoc();
      base?.(before);
      const after = structuredClone(before);
      head(after);
      expect(JSON.stringify(after), "the near-miss changes the document").not.toBe(JSON.stringify(before));
      expect(detectChanges(before, after).map((c) => c.rule)).not.toContain(rule);
    });
  }
});
