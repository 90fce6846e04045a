/**
 * Small bundled OpenAPI 3.1 fixture for the docs build tests. It follows the conventions of the
 * real spec (server `{origin}/v1`, parameter-level examples, `$ref`s into components, error
 * responses, `x-shape-not-shown` schemas, `x-tagGroups`) without copying its text.
 */
const json = { "application/json": {} } as const;

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const standardErrors = {
  "400": { $ref: "#/components/responses/BadRequest" },
  "401": errorResponse("Missing, malformed or revoked key."),
};

export const fixtureSpec = {
  openapi: "3.1.0",
  info: {
    title: "Talent Graph API (fixture)",
    version: "1.0.0",
    description: "Fixture bundle used by the docs build tests.\n\n# Getting started\n\nSend one request.",
  },
  servers: [
    {
      url: "{origin}/v1",
      variables: { origin: { default: "https://api.talent-graph.example" } },
    },
  ],
  security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
  tags: [
    { name: "People", description: "People search and dossiers." },
    { name: "Lists", description: "Custom lists." },
    { name: "Targets", description: "Standing discovery." },
    { name: "Account", description: "Access and quota." },
  ],
  "x-tagGroups": [
    { name: "Graph", tags: ["People"] },
    { name: "Organization", tags: ["Lists", "Targets", "Account"] },
  ],
  paths: {
    "/people": {
      get: {
        operationId: "searchPeople",
        summary: "Search people",
        tags: ["People"],
        parameters: [
          { $ref: "#/components/parameters/OrgIdHeader" },
          { name: "nl", in: "query", schema: { type: "string", maxLength: 400 }, example: "staff engineers in Berlin" },
          { name: "view", in: "query", schema: { type: "string", enum: ["full", "compact"] } },
          { name: "open_to_work", in: "query", schema: { type: "boolean" }, examples: { yes: { value: true } } },
          { name: "limit", in: "query", schema: { type: "integer", format: "int32", example: 10 } },
        ],
        responses: {
          "200": {
            description: "A page of people.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/PersonPage" } } },
          },
          ...standardErrors,
        },
      },
    },
    "/people/{slug}": {
      get: {
        operationId: "getPerson",
        summary: "Get a person",
        tags: ["People"],
        parameters: [{ $ref: "#/components/parameters/PersonSlug" }],
        responses: {
          "200": { description: "The person.", content: json },
          ...standardErrors,
          "404": errorResponse("Not visible to the organization."),
        },
      },
    },
    "/lists": {
      post: {
        operationId: "createList",
        summary: "Create a list",
        tags: ["Lists"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: { name: { type: "string" }, description: { type: "string" } },
              },
              examples: {
                shortlist: {
                  summary: "A shortlist",
                  value: { name: "Platform leads", description: "Berlin shortlist, don't share" },
                },
              },
            },
          },
        },
        responses: { "201": { description: "Created.", content: json }, ...standardErrors },
      },
    },
    "/lists/{id}": {
      delete: {
        operationId: "deleteList",
        summary: "Delete a list",
        tags: ["Lists"],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" }, example: "8d3f1a2b-4c5d-4e6f-8a7b-9c0d1e2f3a4b" },
        ],
        responses: { "204": { description: "Deleted." }, ...standardErrors },
      },
    },
    "/lists/{id}/members": {
      post: {
        operationId: "addListMembers",
        summary: "Add list members",
        tags: ["Lists"],
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" }, example: "Platform leads" },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/ListMembersRequest" },
              example: { urls: ["https://network.example.com/in/priya-raman"] },
            },
          },
        },
        responses: {
          "200": {
            description: "Members added.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/OpenObject" } } },
          },
          ...standardErrors,
        },
      },
    },
    "/targets/{id}": {
      patch: {
        operationId: "updateTarget",
        summary: "Update a target",
        tags: ["Targets"],
        parameters: [{ $ref: "#/components/parameters/TargetId" }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { auto_admit: { type: "boolean" }, title: { type: "string" } } },
              examples: { promote: { $ref: "#/components/examples/PromoteTarget" } },
            },
          },
        },
        responses: { "200": { description: "The target.", content: json }, ...standardErrors },
      },
    },
    "/me": {
      get: {
        operationId: "getAccount",
        summary: "Get account",
        tags: ["Account"],
        responses: {
          "200": {
            description: "The account.",
            content: {
              "application/json": {
                schema: { type: "object", properties: { data: { $ref: "#/components/schemas/Account" } } },
              },
            },
          },
          ...standardErrors,
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyAuth: { type: "apiKey", in: "header", name: "X-Api-Key" },
    },
    parameters: {
      OrgIdHeader: {
        name: "X-Service-Org-Id",
        in: "header",
        schema: { type: "string", format: "uuid" },
        example: "6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e",
      },
      PersonSlug: { name: "slug", in: "path", required: true, schema: { type: "string" }, example: "priya-raman" },
      TargetId: {
        name: "id",
        in: "path",
        required: true,
        schema: { type: "string", format: "uuid" },
        example: "3c9e2b7a-1f4d-4a6e-8b2c-5d7f9e1a3b5c",
      },
    },
    examples: {
      PromoteTarget: { summary: "Admit proposed members", value: { auto_admit: true } },
    },
    responses: {
      BadRequest: errorResponse("Invalid request."),
    },
    schemas: {
      Error: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["type", "message"],
            properties: { type: { type: "string" }, message: { type: "string" } },
          },
        },
      },
      PersonPage: {
        type: "object",
        properties: { data: { type: "array", items: { type: "object" } } },
      },
      Account: {
        type: "object",
        description: "Account access and quota.",
        additionalProperties: true,
        "x-shape-not-shown": true,
      },
      ListMembersRequest: {
        type: "object",
        additionalProperties: true,
        "x-shape-not-shown": true,
      },
      OpenObject: {
        type: "object",
        additionalProperties: true,
        "x-shape-not-shown": true,
      },
    },
  },
};
