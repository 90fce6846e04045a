// Conformance of `npm run mock` with the real spec (generated/openapi.json): every operation answers a
// valid request with a documented, schema-valid response (checked by the contract validator), and the
// error cases answer in the reference's shapes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createContractValidator,
  DEFAULT_SPEC_PATH,
  deref as coreDeref,
  formatErrors,
  listOperations,
  loadSpec,
  OPERATIONS,
} from "../../contract-core/index.js";
import { concreteStatus, responsesOf } from "../../scripts/examples-list.js";
import { startMock, type RunningMock } from "./server.js";
import { call, failure, type CallOptions } from "./testing.js";

type Json = Record<string, unknown>;
const spec = loadSpec(DEFAULT_SPEC_PATH) as Json;
const contract = createContractValidator(DEFAULT_SPEC_PATH);
const deref = (value: unknown): Json => coreDeref(spec, value) as Json;

/** An example value for a parameter or media object: `example`, else the first of `examples`, else the schema's. */
function exampleOf(node: Json): unknown {
  if (node.example !== undefined) return node.example;
  const first = Object.values((node.examples ?? {}) as Json)[0];
  if (first !== undefined) return deref(first).value;
  const schema = deref(node.schema);
  return schema?.example ?? (schema?.examples as unknown[] | undefined)?.[0];
}

interface Operation {
  id: string;
  method: string;
  template: string;
  request: CallOptions;
  /** `Prefer` values reaching each documented example, e.g. `code=404, example=not_found`. */
  prefers: string[];
}

/** A valid request for each operation, built from the spec's own examples (path params, required query, body). */
const operations: Operation[] = listOperations(spec).map(
  ({ path: template, method: m, operation: op, pathItem: item }) => {
    const params = [...(((item as Json).parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].map(
      deref,
    );
    let path = template;
    const query = new URLSearchParams();
    for (const p of params) {
      if (p.in === "path") path = path.replace(`{${String(p.name)}}`, encodeURIComponent(String(exampleOf(p))));
      if (p.in === "query" && p.required) query.set(String(p.name), String(exampleOf(p)));
    }
    const body = op.requestBody
      ? exampleOf(deref((deref(op.requestBody).content as Json)["application/json"]))
      : undefined;
    const qs = query.toString();
    const prefers = responsesOf(spec, op).flatMap((entry) =>
      entry.rows.map((row) =>
        [`code=${concreteStatus(row.status)}`, ...(row.name ? [`example=${row.name}`] : [])].join(", "),
      ),
    );
    return {
      id: String(op.operationId),
      method: m.toUpperCase(),
      template,
      request: { method: m.toUpperCase(), path: qs ? `${path}?${qs}` : path, body },
      prefers,
    };
  },
);
const byId = (id: string): Operation => {
  const op = operations.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id} in the spec`);
  return op;
};

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, quiet: true });
});
afterAll(async () => {
  await mock?.close();
});

async function checked(options: CallOptions, side: "both" | "response" = "both") {
  const result = await call(mock.baseUrl, options);
  const check = side === "both" ? contract.validate(result.exchange) : contract.validateResponse(result.exchange);
  expect(check.valid, formatErrors(check)).toBe(true);
  return result;
}

describe("every operation answers a valid request with a valid response", () => {
  it("the spec has every operation of the reference", () => {
    expect(operations).toHaveLength(OPERATIONS.length);
  });

  it.each(operations.map((o) => [o.id, o] as const))("%s", async (_, op) => {
    const result = await checked(op.request);
    expect(result.status, JSON.stringify(result.body)).toBeGreaterThanOrEqual(200);
    expect(result.status).toBeLessThan(300);
    expect(contract.matchRoute(op.method, `/v1${op.request.path}`)?.operationId).toBe(op.id);
  });
});

describe("a people-Target create (the reference: A people request always creates a new Target)", () => {
  it("a people-Target create answers 202 with a new Target, every time", async () => {
    const body = { input: "Data engineers, Lagos", kind: "people" };
    for (let i = 0; i < 2; i += 1) {
      const result = await checked({ method: "POST", path: "/targets", body });
      expect(result.status).toBe(202);
      const target = (result.body as { data: { kind: string; member_count: number; job: Json } }).data;
      expect([target.kind, target.member_count, target.job.status, target.job.phase]).toEqual([
        "people",
        0,
        "pending",
        "queued",
      ]);
    }
    // A company create without a preference keeps the default answer (the reused Target, 200).
    expect((await checked({ method: "POST", path: "/targets", body: { input: "Contoso" } })).status).toBe(200);
  });
});

describe("every documented example, picked with Prefer, is a valid answer", () => {
  it.each(operations.map((o) => [o.id, o] as const))("%s", async (_, op) => {
    expect(op.prefers.length).toBeGreaterThan(0);
    for (const prefer of op.prefers) {
      const result = await checked({ ...op.request, headers: { prefer } });
      expect(result.status, prefer).toBe(Number(/code=(\d+)/.exec(prefer)![1]));
    }
  });
});

describe("error cases answer the reference's shapes", () => {
  const invalid = async (options: CallOptions): Promise<string> => {
    const result = await checked(options, "response");
    return failure(result, 400, "invalid_request");
  };
  const members = byId("setTargetMemberStatus").request.path;

  it("limit=101", async () => {
    expect(await invalid({ path: "/people?limit=101" })).toBe("limit must be <= 100");
  });

  it("nl of 401 characters", async () => {
    expect(await invalid({ path: `/people?nl=${"n".repeat(401)}` })).toBe("nl must NOT have more than 400 characters");
  });

  it("an unknown view", async () => {
    expect(await invalid({ path: "/people?view=tiny" })).toMatch(/^view must be one of: /);
  });

  it("a bad UUID in a path", async () => {
    expect(await invalid({ path: "/targets/not-a-uuid" })).toBe('id must match format "uuid"');
  });

  it("POST /targets/{id}/members without status", async () => {
    expect(
      await invalid({
        method: "POST",
        path: members,
        body: { apply: "selected", urls: ["https://network.example.com/in/priya-raman"] },
      }),
    ).toBe("body must have required property 'status'");
  });

  it("missing credentials: 401 unauthorized", async () => {
    const result = await checked({ path: "/people", auth: false }, "response");
    expect(failure(result, 401, "unauthorized")).toMatch(/Authorization header/);
  });

  it.each([
    [402, "payment_required", "searchPeople"],
    [404, "not_found", "getPerson"],
    [409, "conflict", "createTarget"],
  ] as const)("Prefer: code=%i -> %s", async (code, type, id) => {
    const result = await checked({ ...byId(id).request, headers: { prefer: `code=${code}` } });
    failure(result, code, type);
  });

  it("Prefer: code=429 -> framework shape with Retry-After", async () => {
    const result = await checked({ path: "/people", headers: { prefer: "code=429" } });
    expect(result.status).toBe(429);
    expect(Number(result.headers.get("retry-after"))).toBeGreaterThanOrEqual(0);
    expect(result.body).toMatchObject({ statusCode: 429, error: "Too Many Requests" });
  });

  it("an unknown path: 404 not_found", async () => {
    const result = await call(mock.baseUrl, { path: "/peoples" });
    expect(failure(result, 404, "not_found")).toContain("/v1/peoples");
    expect(result.headers.get("content-type")).toBe("application/json");
  });

  it("a valid search with every bound at its limit is not rejected", async () => {
    const result = await checked({ path: `/people?limit=100&offset=0&view=compact&nl=${"n".repeat(400)}` });
    expect(result.status).toBe(200);
  });
});
