import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createContractValidator, formatErrors, type Exchange, type ExchangeResult } from "../contract-core/index.js";

const FIXTURE = "contract-tests/fixtures/mini-openapi.json";
const contract = createContractValidator(FIXTURE);
const AUTH = { authorization: "Bearer [redacted]" };
const JSON_HEADERS = { "content-type": "application/json" };
const PERSON = {
  slug: "priya-raman",
  full_name: "Priya Raman",
  network_url: "https://network.example/in/priya-raman",
  location: { city: "Berlin" },
  is_between_roles: false,
  match: {},
};
const LIST = { id: "0b6f2f8e-3f0c-4d1e-9a57-6a1f2c3d4e5f", name: "Shortlist", description: null };

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown = null,
  extra: { reqHeaders?: Record<string, string>; reqBody?: unknown; resHeaders?: Record<string, string> } = {},
): Exchange {
  return {
    request: { method, url, headers: { ...AUTH, ...extra.reqHeaders }, body: extra.reqBody ?? null },
    response: {
      status,
      headers: body === null ? { ...extra.resHeaders } : { ...JSON_HEADERS, ...extra.resHeaders },
      body,
    },
  };
}

/** The single error of an exchange that breaks one rule. */
function onlyError(result: ExchangeResult) {
  expect(result.valid, formatErrors(result)).toBe(false);
  expect(result.errors, formatErrors(result)).toHaveLength(1);
  return result.errors[0]!;
}

describe("route matching", () => {
  it("strips the base path and matches a template", () => {
    expect(contract.matchRoute("GET", "/v1/people/priya-raman")).toEqual({
      operationId: "getPerson",
      pathTemplate: "/people/{slug}",
      params: { slug: "priya-raman" },
    });
  });
  it("accepts absolute URLs", () => {
    expect(contract.matchRoute("get", "https://api.talent-graph.example/v1/people?limit=2")?.operationId).toBe(
      "searchPeople",
    );
  });
  it("URL-decodes an encoded profile URL used as slug, keeping %2F inside one segment", () => {
    const url = `/v1/people/${encodeURIComponent("https://network.example/in/priya-raman")}/coworkers`;
    expect(contract.matchRoute("GET", url)).toEqual({
      operationId: "listPersonCoworkers",
      pathTemplate: "/people/{slug}/coworkers",
      params: { slug: "https://network.example/in/priya-raman" },
    });
  });
  it("never matches /people/{slug}/coworkers against /people/{slug} or the reverse", () => {
    expect(contract.matchRoute("GET", "/v1/people/priya-raman/coworkers")?.pathTemplate).toBe(
      "/people/{slug}/coworkers",
    );
    expect(contract.matchRoute("GET", "/v1/people/priya-raman")?.pathTemplate).toBe("/people/{slug}");
    expect(contract.matchRoute("GET", "/v1/people/priya-raman/coworkers/extra")).toBeNull();
  });
  it("prefers a literal segment over a parameter", () => {
    expect(contract.matchRoute("GET", "/v1/lists/defaults")?.operationId).toBe("listDefaultLists");
    expect(contract.matchRoute("GET", `/v1/lists/${LIST.id}`)?.operationId).toBe("getList");
  });
  it("falls back to the template when the literal path lacks the method", () => {
    expect(contract.matchRoute("DELETE", "/v1/lists/defaults")).toMatchObject({
      operationId: "deleteList",
      params: { id: "defaults" },
    });
  });
  it("rejects unknown paths, unknown methods, empty parameters and URLs without the base path", () => {
    expect(contract.matchRoute("GET", "/v1/nope")).toBeNull();
    expect(contract.matchRoute("PUT", "/v1/people")).toBeNull();
    expect(contract.matchRoute("GET", "/v1/people/")).toBeNull();
    expect(contract.matchRoute("GET", "/people")).toBeNull();
    expect(contract.matchRoute("GET", "/v1people")).toBeNull();
  });
  it("reports why a route did not match", () => {
    expect(onlyError(contract.validate(exchange("GET", "/people", 200, {}))).message).toMatch(
      "not under the server base path /v1",
    );
    expect(onlyError(contract.validate(exchange("GET", "/v1/nope", 200, {}))).message).toMatch(
      "no path template matches /nope",
    );
    const put = onlyError(contract.validate(exchange("PUT", "/v1/people", 200, {})));
    expect(put).toMatchObject({ side: "request", pointer: "/url", schemaPath: "#/paths" });
    expect(put.message).toMatch("/people has no PUT operation (documented: GET)");
  });
});

describe("response side", () => {
  const page = (data: unknown[]) => ({ data, meta: { count: data.length } });

  it("accepts a valid page", () => {
    const result = contract.validate(
      exchange("GET", "/v1/people?limit=2", 200, page([PERSON]), { resHeaders: { "x-ratelimit-limit": "300" } }),
    );
    expect(result, formatErrors(result)).toMatchObject({
      valid: true,
      operationId: "searchPeople",
      status: 200,
      errors: [],
    });
  });
  it("reports a missing required key with its pointer and schema location", () => {
    const { full_name: _, ...person } = PERSON;
    expect(onlyError(contract.validate(exchange("GET", "/v1/people", 200, page([PERSON, person]))))).toEqual({
      side: "response",
      pointer: "/body/data/1/full_name",
      schemaPath: "#/components/schemas/Person/required",
      message: 'missing required property "full_name"',
    });
  });
  it("reports a null where none is allowed", () => {
    const error = onlyError(
      contract.validate(exchange("GET", "/v1/people", 200, page([{ ...PERSON, network_url: null }]))),
    );
    expect(error).toMatchObject({
      pointer: "/body/data/0/network_url",
      schemaPath: "#/components/schemas/Person/properties/network_url/type",
      message: "must be string, got null",
    });
  });
  it("reports an out-of-enum value", () => {
    const body = { error: { type: "teapot", message: "no" } };
    const error = onlyError(contract.validate(exchange("GET", "/v1/people/x", 404, body)));
    expect(error.message).toBe(
      'must be one of invalid_request or unauthorized or not_found or internal_error, got "teapot"',
    );
    expect(error.pointer).toBe("/body/error/type");
  });
  it("reports a forbidden key", () => {
    const error = onlyError(contract.validate(exchange("GET", "/v1/lists", 200, { data: [{ ...LIST, secret: "x" }] })));
    expect(error).toMatchObject({
      pointer: "/body/data/0/secret",
      schemaPath: "#/components/schemas/List/additionalProperties",
    });
  });
  it("checks int32 and uri formats", () => {
    const errors = contract.validate(
      exchange("GET", "/v1/people", 200, page([{ ...PERSON, connections_count: 2 ** 31, network_url: "not a url" }])),
    ).errors;
    expect(errors.map((e) => e.message).sort()).toEqual([
      "must be a valid int32, got 2147483648",
      'must be a valid uri, got "not a url"',
    ]);
  });
  it("matches exact codes, then ranges, then default", () => {
    const serverError = { error: { type: "internal_error", message: "boom" } };
    expect(contract.validate(exchange("GET", "/v1/people", 503, serverError)).valid).toBe(true);
    expect(contract.validate(exchange("GET", "/v1/people/x", 502, serverError)).valid).toBe(true);
    expect(contract.validate(exchange("GET", "/v1/people/x", 409, serverError)).valid).toBe(true); // default
    expect(onlyError(contract.validate(exchange("GET", "/v1/people", 418, serverError)))).toMatchObject({
      pointer: "/status",
      schemaPath: "#/paths/~1people/get/responses",
      message: "status 418 is not documented for searchPeople (documented: 200, 400, 401, 429, 5XX)",
    });
  });
  it("checks the content type", () => {
    const res = exchange("GET", "/v1/people", 200, page([]), {
      resHeaders: { "content-type": "text/html; charset=utf-8" },
    });
    expect(onlyError(contract.validate(res))).toMatchObject({
      pointer: "/headers/content-type",
      message: "content type text/html is not documented for searchPeople 200 (documented: application/json)",
    });
    const charset = exchange("GET", "/v1/people", 200, page([]), {
      resHeaders: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(contract.validate(charset).valid).toBe(true);
    const missing: Exchange = { ...res, response: { status: 200, headers: {}, body: page([]) } };
    expect(onlyError(contract.validate(missing)).message).toMatch("no content-type header");
  });
  it("requires no body on a 204 and a body where content is documented", () => {
    expect(contract.validate(exchange("DELETE", `/v1/lists/${LIST.id}`, 204)).valid).toBe(true);
    expect(onlyError(contract.validate(exchange("DELETE", `/v1/lists/${LIST.id}`, 204, { ok: true }))).message).toBe(
      "deleteList 204 is documented without content, but the response has a body",
    );
    expect(onlyError(contract.validate(exchange("GET", "/v1/lists", 200))).message).toMatch(
      "documents application/json content, but the response has no body",
    );
  });
  it("checks required and typed response headers", () => {
    const body = { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded, retry in 1 minute" };
    expect(
      contract.validate(exchange("GET", "/v1/people", 429, body, { resHeaders: { "Retry-After": "60" } })).valid,
    ).toBe(true);
    expect(onlyError(contract.validate(exchange("GET", "/v1/people", 429, body)))).toMatchObject({
      pointer: "/headers/retry-after",
      schemaPath: "#/components/headers/RetryAfter/required",
      message: 'missing required property "retry-after"',
    });
    expect(
      onlyError(contract.validate(exchange("GET", "/v1/people", 429, body, { resHeaders: { "retry-after": "soon" } })))
        .message,
    ).toBe('must be integer, got "soon"');
    expect(
      onlyError(
        contract.validate(exchange("GET", "/v1/people", 200, page([]), { resHeaders: { "x-ratelimit-limit": "-1" } })),
      ).schemaPath,
    ).toBe("#/components/headers/RateLimitLimit/schema/minimum");
  });
  it("validates a oneOf of the two error shapes", () => {
    expect(
      contract.validate(exchange("GET", "/v1/people", 400, { statusCode: 400, error: "Bad Request", message: "x" }))
        .valid,
    ).toBe(true);
    expect(
      contract.validate(exchange("GET", "/v1/people", 400, { error: { type: "invalid_request", message: "x" } })).valid,
    ).toBe(true);
    expect(
      contract.validate(exchange("GET", "/v1/people", 400, { message: "x" })).errors.map((e) => e.schemaPath),
    ).toContain("#/components/responses/BadRequest/content/application~1json/schema/oneOf");
  });
});

describe("request side", () => {
  const ok = (url: string) => exchange("GET", url, 200, { data: [], meta: { count: 0 } });

  it("coerces query strings per schema before validating", () => {
    expect(contract.validate(ok("/v1/people?limit=100&offset=0&include_flagged=false&view=compact")).valid).toBe(true);
    const result = contract.validate(ok("/v1/people?limit=101&include_flagged=yes&view=wide&offset=1.5"));
    expect(result.errors.map((e) => `${e.pointer} ${e.message}`).sort()).toEqual([
      '/query/include_flagged must be boolean, got "yes"',
      "/query/limit must be <= 100, got 101",
      "/query/offset must be integer, got 1.5",
      '/query/view must be one of full or compact, got "wide"',
    ]);
    expect(result.errors.every((e) => e.side === "request")).toBe(true);
  });
  it("checks string bounds and repeated scalars", () => {
    expect(onlyError(contract.validate(ok("/v1/people?nl="))).message).toBe(
      'must NOT have fewer than 1 characters, got ""',
    );
    expect(onlyError(contract.validate(ok("/v1/people?limit=1&limit=2"))).message).toBe("must be integer, got [1,2]");
  });
  it("validates path parameters after decoding", () => {
    const error = onlyError(contract.validate(exchange("DELETE", "/v1/lists/not-a-uuid", 204)));
    expect(error).toMatchObject({
      side: "request",
      pointer: "/path/id",
      schemaPath: "#/paths/~1lists~1{id}/parameters/0/schema/format",
    });
  });
  it("validates documented request headers case-insensitively", () => {
    expect(contract.validate(ok("/v1/people")).valid).toBe(true);
    const bad = exchange(
      "GET",
      "/v1/people",
      200,
      { data: [], meta: { count: 0 } },
      { reqHeaders: { "X-Service-Org-Id": "acme" } },
    );
    expect(onlyError(contract.validate(bad))).toMatchObject({
      pointer: "/headers/x-service-org-id",
      message: 'must be a valid uuid, got "acme"',
    });
  });
  it("requires one of the documented credentials", () => {
    const anonymous: Exchange = {
      request: { method: "GET", url: "/v1/people" },
      response: { status: 200, headers: JSON_HEADERS, body: { data: [], meta: { count: 0 } } },
    };
    expect(onlyError(contract.validate(anonymous))).toMatchObject({
      side: "request",
      schemaPath: "#/security",
      message: "no credentials: send Authorization: Bearer <key> or X-Api-Key: <key>",
    });
    expect(
      contract.validate({ ...anonymous, request: { ...anonymous.request, headers: { "X-Api-Key": "[redacted]" } } })
        .valid,
    ).toBe(true);
    expect(
      contract.validate({ ...anonymous, request: { ...anonymous.request, headers: { authorization: "Basic abc" } } })
        .valid,
    ).toBe(false);
    expect(
      contract.validate({ ...anonymous, request: { ...anonymous.request, headers: { authorization: "Bearer " } } })
        .valid,
    ).toBe(false);
    const open: Exchange = {
      request: { method: "GET", url: "/v1/lists/defaults" },
      response: { status: 200, headers: JSON_HEADERS, body: {} },
    };
    expect(contract.validate(open).valid).toBe(true); // security: [] on the operation
  });
  it("checks the request body: presence, content type, schema, and no body where none is documented", () => {
    const created = { data: LIST };
    const post = (reqBody: unknown, reqHeaders: Record<string, string> = JSON_HEADERS) =>
      exchange("POST", "/v1/lists", 201, created, { reqBody, reqHeaders });
    expect(contract.validate(post({ name: "Shortlist" })).valid).toBe(true);
    expect(onlyError(contract.validate(post({ name: "Shortlist", owner: "me" })))).toMatchObject({
      pointer: "/body/owner",
      schemaPath: "#/components/schemas/ListCreate/additionalProperties",
    });
    expect(onlyError(contract.validate(post({ name: "x".repeat(81) }))).message).toMatch(
      "must NOT have more than 80 characters",
    );
    expect(onlyError(contract.validate(post(null))).message).toBe("createList requires a request body");
    expect(onlyError(contract.validate(post({ name: "a" }, { "content-type": "text/plain" }))).message).toMatch(
      "content type text/plain is not documented for the createList request",
    );
    const getWithBody = exchange("GET", "/v1/lists", 200, { data: [] }, { reqBody: { q: 1 } });
    expect(onlyError(contract.validate(getWithBody)).message).toBe(
      "listLists documents no request body, but one was sent",
    );
  });
  it("validateResponse skips the request side but still checks route and status", () => {
    const bad = exchange("GET", "/v1/people?limit=0", 400, {
      error: { type: "invalid_request", message: "limit must be >= 1" },
    });
    expect(contract.validate(bad).errors.map((e) => e.side)).toEqual(["request"]);
    expect(contract.validateResponse(bad)).toMatchObject({ valid: true, errors: [] });
    expect(contract.validateResponse(exchange("GET", "/v1/nope", 400, {})).valid).toBe(false);
    expect(contract.validateResponse(exchange("GET", "/v1/people", 418, {})).errors[0]?.pointer).toBe("/status");
  });
});

describe("compilation", () => {
  it("is cached per spec path and per object", () => {
    expect(createContractValidator(FIXTURE)).toBe(contract);
    const doc = JSON.parse(readFileSync(FIXTURE, "utf8")) as object;
    expect(createContractValidator(doc)).toBe(createContractValidator(doc));
  });
  it("runs Ajv in strict mode: an unknown schema keyword is a compile error", () => {
    const doc = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    doc.components.schemas.Person!.minProperty = 1; // a typo of minProperties
    expect(() => createContractValidator(doc)).toThrow(/unknown keyword: "minProperty"/);
  });
  it("registers OpenAPI and x- keywords instead of turning strict mode off", () => {
    const doc = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    Object.assign(doc.components.schemas.Person!, {
      "x-internal-note": "kept",
      externalDocs: { url: "https://docs.example" },
      xml: { name: "person" },
      discriminator: { propertyName: "slug" },
    });
    expect(() => createContractValidator(doc)).not.toThrow();
  });
  it("names the spec location when a schema cannot compile", () => {
    const doc = JSON.parse(readFileSync(FIXTURE, "utf8")) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
      >;
    };
    doc.paths["/lists/defaults"]!.get!.responses["200"]!.content["application/json"]!.schema = {
      type: "string",
      format: "no-such-format",
    };
    expect(() => createContractValidator(doc)).toThrow(
      /#\/paths\/~1lists~1defaults\/get\/responses\/200\/content\/application~1json\/schema: unknown format "no-such-format"/,
    );
  });
});
