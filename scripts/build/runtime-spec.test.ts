/** The runtime spec keeps what validation and answers read and drops the prose; data named like prose stays. */
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
                examples: {
                  Full: {
                    summary: "S",
                    description: "D",
                    "x-mock-match": { query: { a: "1" } },
                    value: { description: "x" },
                  },
                },
              },
            },
          },
          responses: { "201": { description: "Made", content: { "application/json": { example: { summary: "y" } } } } },
        },
      },
    },
  };

  it("drops descriptions, summaries, tags and info texts, keeps properties and example data named like them", () => {
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
                  examples: { Full: { "x-mock-match": { query: { a: "1" } }, value: { description: "x" } } },
                },
              },
            },
            responses: { "201": { content: { "application/json": { example: { summary: "y" } } } } },
          },
        },
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
