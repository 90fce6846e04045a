/**
 * Unit tests of the docs build: code samples, shape-not-shown notices, offline post-processing,
 * and the build itself (fixture bundle), plus the generated samples of the real bundle.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_ENV,
  clientSample,
  curlSample,
  MAX_OPTIONAL_QUERY,
  requestUrl,
  sampleRequest,
  serverUrl,
  tsLiteral,
  withCodeSamples,
  type CodeSample,
  type SampleRequest,
} from "./code-samples.js";
import { assertOffline, buildDocs, DEFAULT_SPEC, makeOffline, readBundle } from "./build.js";
import { fixtureSpec } from "./fixtures/fixture-spec.js";
import { OPERATIONS, deref } from "../../contract-core/index.js";
import { listOperations, STRICT, type JsonObject, type OpenApiDoc, type OperationRef } from "./openapi.js";
import {
  breakableTableWords,
  flaggedSchemasIn,
  LIMIT_NOTICE_TITLE,
  markFlaggedSchemas,
  prepareDocsSpec,
  resolveServerVariables,
  SHAPE_NOTICE_TITLE,
} from "./prepare-spec.js";

const fixture = (): OpenApiDoc => structuredClone(fixtureSpec) as unknown as OpenApiDoc;

function operation(doc: OpenApiDoc, operationId: string): OperationRef {
  const found = listOperations(doc).find((op) => op.operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

function requestFor(doc: OpenApiDoc, operationId: string): { request: SampleRequest; warnings: string[] } {
  const warnings: string[] = [];
  return { request: sampleRequest(doc, operation(doc, operationId), warnings), warnings };
}

const samplesOf = (op: OperationRef) => op.operation["x-codeSamples"] as unknown as CodeSample[];

describe("code samples from examples", () => {
  it("takes path values from the parameter example and URL-encodes them", () => {
    const doc = fixture();
    expect(requestUrl(requestFor(doc, "getPerson").request)).toBe(
      "https://api.talent-graph.example/v1/people/priya-raman",
    );
    expect(requestUrl(requestFor(doc, "addListMembers").request)).toBe(
      "https://api.talent-graph.example/v1/lists/Platform%20leads/members",
    );
  });

  it("takes query values from parameter-level examples only, at most MAX_OPTIONAL_QUERY of them", () => {
    const { request } = requestFor(fixture(), "searchPeople");
    // nl (example) and open_to_work (examples map); view has none; limit's example is on the schema only.
    expect(request.query).toEqual({ nl: "staff engineers in Berlin", open_to_work: true });
    expect(Object.keys(request.query)).toHaveLength(MAX_OPTIONAL_QUERY);
    expect(requestUrl(request)).toBe(
      "https://api.talent-graph.example/v1/people?nl=staff+engineers+in+Berlin&open_to_work=true",
    );
  });

  it("uses a required query parameter's schema example, and a visible placeholder plus a warning when there is none", () => {
    const doc = fixture();
    const params = operation(doc, "searchPeople").operation.parameters as JsonObject[];
    params.push({ name: "since", in: "query", required: true, schema: { type: "string", example: "24h" } });
    params.push({ name: "cursor", in: "query", required: true, schema: { type: "string" } });
    const { request, warnings } = requestFor(doc, "searchPeople");
    expect(request.query).toMatchObject({ since: "24h", cursor: "<cursor>" });
    expect(warnings).toEqual(['GET /people (searchPeople): required query parameter "cursor" has no example']);
  });

  it("warns and keeps a placeholder when a path parameter has no example", () => {
    const doc = fixture();
    const param = (operation(doc, "deleteList").operation.parameters as JsonObject[])[0]!;
    delete param.example;
    const { request, warnings } = requestFor(doc, "deleteList");
    expect(request.pathParams).toEqual({ id: "<id>" });
    expect(warnings).toEqual(['DELETE /lists/{id} (deleteList): path parameter "id" has no example']);
  });

  it("takes the body from example, the first examples entry, or a $ref'd example", () => {
    const doc = fixture();
    expect(requestFor(doc, "createList").request.body).toEqual({
      name: "Platform leads",
      description: "Berlin shortlist, don't share",
    });
    expect(requestFor(doc, "addListMembers").request.body).toEqual({
      urls: ["https://network.example.com/in/priya-raman"],
    });
    expect(requestFor(doc, "updateTarget").request.body).toEqual({ auto_admit: true });
    expect(requestFor(doc, "getPerson").request.body).toBeUndefined();
  });

  it("sends {} with a warning for a required body without any example", () => {
    const doc = fixture();
    const media = (operation(doc, "createList").operation.requestBody as JsonObject).content as JsonObject;
    delete (media["application/json"] as JsonObject).examples;
    const { request, warnings } = requestFor(doc, "createList");
    expect(request.body).toEqual({});
    expect(warnings).toEqual(["POST /lists (createList): required request body has no example; samples send {}"]);
  });

  it("puts the key in an environment variable, never a literal, for either security scheme", () => {
    const doc = fixture();
    const curl = curlSample(requestFor(doc, "getPerson").request);
    expect(curl).toContain(`-H "Authorization: Bearer $${API_KEY_ENV}"`);
    operation(doc, "getPerson").operation.security = [{ apiKeyAuth: [] }];
    expect(curlSample(requestFor(doc, "getPerson").request)).toContain(`-H "X-Api-Key: $${API_KEY_ENV}"`);
    operation(doc, "getPerson").operation.security = [];
    expect(curlSample(requestFor(doc, "getPerson").request)).not.toContain("-H");
  });

  it("quotes bodies for the shell, single quotes included", () => {
    const curl = curlSample(requestFor(fixture(), "createList").request);
    expect(curl).toContain("-X POST 'https://api.talent-graph.example/v1/lists'");
    expect(curl).toContain("-H 'Content-Type: application/json'");
    expect(curl).toContain(`"description": "Berlin shortlist, don'\\''t share"`);
  });

  it("writes the typed-client call in openapi-fetch style", () => {
    const doc = fixture();
    expect(clientSample(requestFor(doc, "getPerson").request)).toBe(
      [
        'import { createTalentGraphClient } from "talent-graph-api-contract/client";',
        "",
        "const client = createTalentGraphClient({",
        '  baseUrl: "https://api.talent-graph.example/v1",',
        "  apiKey: process.env.TALENT_GRAPH_API_KEY!,",
        "});",
        "",
        'const { data, error } = await client.GET("/people/{slug}", {',
        '  params: { path: { slug: "priya-raman" } },',
        "});",
      ].join("\n"),
    );
    expect(clientSample(requestFor(doc, "getAccount").request)).toMatch(/await client\.GET\("\/me"\);$/);
    expect(clientSample(requestFor(doc, "updateTarget").request)).toContain("body: { auto_admit: true },");
  });

  it("prints TypeScript literals with quoted non-identifier keys and wraps long values", () => {
    expect(tsLiteral({ "x-y": 1, ok: [true, null], empty: {} })).toBe('{ "x-y": 1, ok: [true, null], empty: {} }');
    const long = tsLiteral({
      urls: ["https://network.example.com/in/priya-raman", "https://network.example.com/in/jonas-weber"],
    });
    expect(long.split("\n").length).toBeGreaterThan(3);
  });

  it("adds samples to a copy and replaces hand-written ones with a warning", () => {
    const doc = fixture();
    operation(doc, "getAccount").operation["x-codeSamples"] = [
      { lang: "curl", source: "curl -H 'X-Api-Key: sk_live_123'" },
    ];
    const { doc: copy, warnings } = withCodeSamples(doc);
    expect(warnings).toEqual(["GET /me (getAccount): hand-written x-codeSamples replaced by generated ones"]);
    expect(operation(doc, "getPerson").operation["x-codeSamples"]).toBeUndefined();
    for (const op of listOperations(copy)) {
      expect(samplesOf(op).map((sample) => sample.label)).toEqual(["curl", "Typed client"]);
      expect(JSON.stringify(samplesOf(op))).not.toContain("sk_live_123");
    }
  });

  it("rejects documents it cannot read a server or a reference from", () => {
    const noServer = fixture();
    delete noServer.servers;
    expect(() => serverUrl(noServer)).toThrow("The spec declares no server URL");
    const noDefault = fixture();
    noDefault.servers = [{ url: "{origin}/v1", variables: { origin: { description: "no default" } } }];
    expect(() => serverUrl(noDefault)).toThrow('Server variable "origin" has no default');
    expect(() => deref(fixture(), { $ref: "other.yaml#/components/schemas/Error" }, STRICT)).toThrow(
      "Only local $refs",
    );
    expect(() => deref(fixture(), { $ref: "#/components/schemas/Missing" }, STRICT)).toThrow("Unresolvable $ref");
    const dangling = fixture();
    (operation(dangling, "getPerson").operation.parameters as JsonObject[])[0] = {
      $ref: "#/components/parameters/Nope",
    };
    expect(() => withCodeSamples(dangling)).toThrow("Unresolvable $ref #/components/parameters/Nope");
  });
});

describe("shapes not shown in the reference", () => {
  it("prefixes the description of every flagged schema and leaves others alone", () => {
    const doc = fixture();
    expect(markFlaggedSchemas(doc)).toBe(3);
    const schemas = (doc.components as JsonObject).schemas as Record<string, JsonObject>;
    expect(schemas.Account!.description).toMatch(
      new RegExp(`^> \\*\\*${SHAPE_NOTICE_TITLE}\\.\\*\\*[^\\n]*\\n\\nAccount access and quota\\.$`),
    );
    expect(schemas.OpenObject!.description).toContain(SHAPE_NOTICE_TITLE);
    expect(schemas.Error!.description).toBeUndefined();
    expect(markFlaggedSchemas({ type: "object", properties: { a: { type: "string" } } })).toBe(0);
    // A property may be called "example"; example values themselves are data and stay untouched.
    const schema = {
      properties: { example: { type: "object", "x-shape-not-shown": true } },
      example: { "x-shape-not-shown": true },
    } as const;
    const copy = structuredClone(schema) as unknown as JsonObject;
    expect(markFlaggedSchemas(copy)).toBe(1);
    expect(copy.example).toEqual({ "x-shape-not-shown": true });
  });

  it("marks a bound the reference does not give (x-limit-not-in-reference), on the schema and on its parameter", () => {
    const parameter: JsonObject = {
      name: "cursor",
      in: "query",
      description: "Opaque value.",
      schema: { type: "string", maxLength: 2048, "x-limit-not-in-reference": ["maxLength"] },
    };
    const plain: JsonObject = {
      name: "q",
      in: "query",
      description: "Text.",
      schema: { type: "string", maxLength: 80 },
    };
    expect(markFlaggedSchemas({ parameters: [parameter, plain] })).toBe(1);
    const notice = new RegExp(
      `^> \\*\\*${LIMIT_NOTICE_TITLE}\\.\\*\\* The written API reference gives no \`maxLength\` here`,
    );
    expect(parameter.description).toMatch(notice);
    expect(parameter.description).toMatch(/\n\nOpaque value\.$/);
    expect((parameter.schema as JsonObject).description).toMatch(notice);
    expect(plain.description).toBe("Text.");
    expect((plain.schema as JsonObject).description).toBeUndefined();
    // Example data is not a schema, and an empty or malformed flag marks nothing.
    expect(
      markFlaggedSchemas({
        example: { "x-limit-not-in-reference": ["maxLength"] },
        a: { "x-limit-not-in-reference": [] },
        b: { "x-limit-not-in-reference": true },
      }),
    ).toBe(0);
  });

  it("locates flagged schemas by property path, through $refs and cycles", () => {
    const doc = fixture();
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    schemas.Node = {
      type: "object",
      properties: { next: { $ref: "#/components/schemas/Node" }, meta: { $ref: "#/components/schemas/OpenObject" } },
    };
    expect(flaggedSchemasIn(doc, { $ref: "#/components/schemas/Node" })).toEqual(["meta"]);
    expect(
      flaggedSchemasIn(doc, {
        type: "array",
        items: { properties: { data: { $ref: "#/components/schemas/Account" } } },
      }),
    ).toEqual(["[].data"]);
    expect(flaggedSchemasIn(doc, { $ref: "#/components/schemas/Account" })).toEqual([""]);
    expect(flaggedSchemasIn(doc, { $ref: "#/components/schemas/Error" })).toEqual([]);
    // Example values are data, not schemas.
    expect(flaggedSchemasIn(doc, { type: "object", example: { "x-shape-not-shown": true } })).toEqual([]);
  });

  it("puts a notice at the top of each operation with such a request body or success response", () => {
    const { doc, shapeNotShown } = prepareDocsSpec(fixture());
    expect(Object.fromEntries(shapeNotShown)).toEqual({
      getAccount: ["200 response (data)"],
      addListMembers: ["request body", "200 response"],
    });
    expect(operation(doc, "getAccount").operation.description).toMatch(
      new RegExp(`^> \\*\\*${SHAPE_NOTICE_TITLE}:\\*\\* 200 response \\(data\\)\\.`),
    );
    expect(operation(doc, "searchPeople").operation.description).toBeUndefined();
  });

  it("does not list error responses at operation level (their schemas carry the notice)", () => {
    const doc = fixture();
    const responses = operation(doc, "searchPeople").operation.responses as JsonObject;
    responses["500"] = {
      description: "x",
      content: { "application/json": { schema: { $ref: "#/components/schemas/OpenObject" } } },
    };
    expect(prepareDocsSpec(doc).shapeNotShown.has("searchPeople")).toBe(false);
  });
});

describe("page text fixes", () => {
  it("lets words in table rows wrap at underscores, outside code spans and outside tables only", () => {
    const markdown = [
      "Send `error_type` as snake_case.",
      "| 400 | certification_target_unsupported | `app_query.certification` or app_query.certifications |",
      "| 5xx | | _emphasis_ |",
    ].join("\n");
    expect(breakableTableWords(markdown).split("\n")).toEqual([
      "Send `error_type` as snake_case.",
      "| 400 | certification_<wbr>target_<wbr>unsupported | `app_query.certification` or app_<wbr>query.certifications |",
      "| 5xx | | _emphasis_ |",
    ]);
  });

  it("shows each server's URL with its variables at their defaults, and leaves a variable without one", () => {
    const doc = {
      servers: [
        { url: "{origin}/v1", variables: { origin: { default: "https://api.example" } } },
        { url: "http://127.0.0.1:4011/v1" },
        { url: "{scheme}://h/v1", variables: { scheme: { enum: ["https"] } } },
      ],
    } as unknown as OpenApiDoc;
    resolveServerVariables(doc);
    expect(doc.servers).toEqual([
      { url: "https://api.example/v1" },
      { url: "http://127.0.0.1:4011/v1" },
      { url: "{scheme}://h/v1", variables: { scheme: { enum: ["https"] } } },
    ]);
  });
});

describe("offline page", () => {
  const page = (head: string, body = "") =>
    `<!DOCTYPE html><html><head>${head}</head><body><div id="redoc"></div><script type="module">
const x = \`https://cdn.redoc.ly/redoc/logo-mini.svg\`; const __redoc_options = {"disableTelemetry":true};
hydrate(__redoc_definition, __redoc_options, el);</script>${body}</body></html>`;

  it("replaces the remote Redocly logo and adds an inline favicon", () => {
    const html = makeOffline(page(""));
    expect(html).not.toContain("cdn.redoc.ly");
    expect(html).toContain("data:image/svg+xml,");
    expect(html).toContain('<link rel="icon" href="data:," />');
    expect(() => assertOffline(html)).not.toThrow();
  });

  it.each([
    ["a remote script", '<script src="https://cdn.redocly.com/redoc/v3/redoc.standalone.js"></script>', "<script src>"],
    [
      "a remote stylesheet",
      '<link rel="stylesheet" href="https://fonts.example.com/a.css">',
      "<link> to a remote host",
    ],
    ["a module preload", '<link rel="modulepreload" href="/redoc.js">', "modulepreload"],
    ["a remote image", '<img src="//cdn.example.com/logo.png">', "<img> from a remote host"],
  ])("rejects %s", (_, tag, message) => {
    expect(() => assertOffline(makeOffline(page(tag)))).toThrow(message);
  });

  it("rejects the remote logo, enabled telemetry and a page without the inline bundle", () => {
    expect(() => assertOffline(page(""))).toThrow("the remote Redocly logo");
    expect(() =>
      assertOffline(makeOffline(page("")).replace('"disableTelemetry":true', '"disableTelemetry":false')),
    ).toThrow("telemetry enabled");
    expect(() => assertOffline("<html><body>nothing</body></html>")).toThrow("no inline Redoc hydration script");
  });
});

describe("docs build (fixture bundle)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "docs-build-test-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes one self-contained page with the samples and notices, leaving the bundle untouched", async () => {
    const specPath = path.join(dir, "openapi.json");
    const original = JSON.stringify(fixtureSpec);
    await writeFile(specPath, original);
    const result = await buildDocs({ specPath, outFile: path.join(dir, "out", "index.html") });
    const html = await readFile(result.outFile, "utf8");
    expect(result.operations).toBe(7);
    expect(result.bytes).toBe(Buffer.byteLength(html));
    expect(() => assertOffline(html)).not.toThrow();
    // The page title carries the version.
    expect(html).toContain("<title>Talent Graph API (fixture) 1.0.0</title>");
    expect(html).toContain("x-codeSamples");
    expect(html).toContain("createTalentGraphClient");
    expect(html).toContain(SHAPE_NOTICE_TITLE);
    // Try it answers the project's own spec only (the browser test covers the page that has it).
    expect(html).not.toContain('id="try-it-code"');
    expect(await readFile(specPath, "utf8")).toBe(original);
  });

  it("fails clearly when the bundle is missing or not OpenAPI", async () => {
    await expect(
      buildDocs({ specPath: path.join(dir, "missing.json"), outFile: path.join(dir, "x.html") }),
    ).rejects.toThrow("Spec bundle not found at"); // a path the caller gave: no "run npm run generate" hint
    const notOpenApi = path.join(dir, "not-openapi.json");
    await writeFile(notOpenApi, JSON.stringify({ swagger: "2.0" }));
    await expect(readBundle(notOpenApi)).rejects.toThrow("is not an OpenAPI document");
  });
});

describe("samples of the real bundle (generated/openapi.json)", () => {
  const present = existsSync(DEFAULT_SPEC);

  it("exists (run `npm run generate`)", () => {
    expect(present, `${DEFAULT_SPEC} is missing: run \`npm run generate\``).toBe(true);
  });

  it.runIf(present)("gives every operation a curl and a typed-client sample built from complete examples", async () => {
    const { doc, warnings } = prepareDocsSpec(await readBundle(DEFAULT_SPEC));
    expect(warnings).toEqual([]);
    const operations = listOperations(doc);
    expect(operations).toHaveLength(OPERATIONS.length);
    const base = serverUrl(doc);
    for (const op of operations) {
      const [curl, client] = samplesOf(op);
      const label = `${op.method.toUpperCase()} ${op.path}`;
      expect(curl?.lang, label).toBe("curl");
      expect(curl?.source, label).toMatch(new RegExp(`^curl -sS.* '${base.replace(/\./g, "\\.")}/`));
      expect(curl?.source, label).toContain(`"Authorization: Bearer $${API_KEY_ENV}"`);
      const url = /^curl -sS(?: -X \w+)? '([^']+)'/.exec(curl?.source ?? "")?.[1] ?? "";
      expect(url, label).not.toMatch(/[<>{}]|%3C|%7B/); // no placeholder or path template left
      expect(client?.label, label).toBe("Typed client");
      expect(client?.source, label).toContain(`await client.${op.method.toUpperCase()}(${JSON.stringify(op.path)}`);
      expect(client?.source, label).toContain(`apiKey: process.env.${API_KEY_ENV}!`);
      const data = /--data '([\s\S]*)'$/.exec(curl?.source ?? "")?.[1];
      if (data !== undefined) expect(() => JSON.parse(data.replace(/'\\''/g, "'")), label).not.toThrow();
    }
  });
});
