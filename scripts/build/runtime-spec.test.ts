/** The runtime spec keeps what its readers read and drops the rest (prose, request examples, ...). */
import { describe, expect, it } from "vitest";
import full from "../../generated/openapi.json" with { type: "json" };
import runtime from "../../generated/openapi.runtime.json" with { type: "json" };
import { runtimeSpec } from "./runtime-spec.js";

describe("runtimeSpec", () => {
  const doc = {
    info: { title: "T", version: "1", description: "About" },
    tags: [{ name: "People", description: "People" }],
    paths: {
      "/lists": {
        post: {
          operationId: "createList",
          summary: "Create",
          description: "Creates",
          tags: ["Lists"],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  description: "A List",
                  properties: { description: { type: "string", description: "Its text" }, summary: { type: "string" } },
                },
                examples: { Request: { summary: "S", value: { description: "x" } } },
              },
            },
          },
          responses: {
            "201": {
              description: "Made",
              content: {
                "application/json": {
                  examples: {
                    Full: {
                      summary: "S",
                      description: "D",
                      "x-mock-match": { query: { a: "1" } },
                      value: { description: "x", summary: "y" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };

  it("drops prose and request examples, keeps properties and example data named like prose", () => {
    expect(runtimeSpec(doc, "notice")).toEqual({
      "x-generated": "notice",
      info: { title: "T", version: "1" },
      paths: {
        "/lists": {
          post: {
            operationId: "createList",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { description: { type: "string" }, summary: { type: "string" } },
                  },
                },
              },
            },
            responses: {
              "201": {
                content: {
                  "application/json": {
                    examples: {
                      Full: { "x-mock-match": { query: { a: "1" } }, value: { description: "x", summary: "y" } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
  });

  it("drops parameter examples, optional headers, other servers, security and unread x- rules", () => {
    const errorRef = { $ref: "#/components/examples/Err" };
    const ok = (examples: object) => ({ content: { "application/json": { examples } } });
    const spec = {
      servers: [
        { url: "{origin}/v1", "x-internal": false, variables: { origin: { default: "https://a.example" } } },
        { url: "http://127.0.0.1:1/v1" },
      ],
      security: [{ bearerAuth: [] }],
      paths: {
        "/a": {
          get: {
            operationId: "getA",
            parameters: [
              {
                name: "q",
                in: "query",
                required: false,
                example: "x",
                schema: { type: "string", "x-term-list": { split: "," }, "x-shape-not-shown": true },
              },
              { $ref: "#/components/parameters/P" },
            ],
            responses: {
              "200": {
                headers: { "X-Optional": { $ref: "#/components/headers/X-Optional" } },
                ...ok({ one: { $ref: "#/components/examples/One" } }),
              },
              "400": ok({ error: errorRef }),
              "429": {
                headers: { "Retry-After": { $ref: "#/components/headers/Retry-After" } },
                ...ok({ error: errorRef }),
              },
            },
          },
        },
      },
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
        parameters: {
          P: { name: "p", in: "header", required: true, examples: { a: { value: "1" } }, schema: { type: "string" } },
        },
        headers: {
          "X-Optional": { schema: { type: "integer" }, example: 1 },
          "Retry-After": { required: true, schema: { type: "integer" }, example: 30 },
        },
        schemas: { Error: { type: "object", "x-known-values": ["a"], "x-requires": { b: ["c"] } } },
        examples: { One: { value: { a: 1 } }, Err: { value: { error: "e" } } },
      },
    };
    expect(runtimeSpec(spec, "notice")).toEqual({
      "x-generated": "notice",
      info: { title: undefined, version: undefined },
      servers: [{ url: "{origin}/v1", variables: { origin: { default: "https://a.example" } } }],
      paths: {
        "/a": {
          get: {
            operationId: "getA",
            parameters: [
              { name: "q", in: "query", schema: { type: "string", "x-term-list": { split: "," } } },
              { $ref: "#/components/parameters/P" },
            ],
            responses: {
              // An example one media type uses is put in its place; one used twice stays a component.
              "200": ok({ one: { value: { a: 1 } } }),
              "400": ok({ error: errorRef }),
              "429": {
                headers: { "Retry-After": { $ref: "#/components/headers/Retry-After" } },
                ...ok({ error: errorRef }),
              },
            },
          },
        },
      },
      components: {
        parameters: { P: { name: "p", in: "header", required: true, schema: { type: "string" } } },
        headers: { "Retry-After": { required: true, schema: { type: "integer" } } },
        schemas: { Error: { type: "object", "x-requires": { b: ["c"] } } },
        examples: { Err: { value: { error: "e" } } },
      },
    });
  });

  it("the committed runtime spec is the bundled spec's, smaller, with every operation and schema", () => {
    expect(runtime).toEqual(runtimeSpec(full, full["x-generated"]));
    expect(JSON.stringify(runtime).length).toBeLessThan(JSON.stringify(full).length * 0.75);
    expect(Object.keys(runtime.paths)).toEqual(Object.keys(full.paths));
    expect(Object.keys(runtime.components.schemas)).toEqual(Object.keys(full.components.schemas));
  });
});
