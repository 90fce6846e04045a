/**
 * The runtime spec (generated/openapi.runtime.json, scripts/build/runtime-spec.ts) holds everything its readers
 * read: the MSW handlers (sandbox and mock) and client/validate answer the same with it as with the full spec
 * (generated/openapi.json), byte for byte, over a sweep of every operation: a plain request, parameter
 * examples, broken queries and bodies, every documented status and named example through `Prefer`, the faults'
 * body check, and the answer checker's verdicts on those answers and on broken copies of them.
 */
import { getResponse, type HttpHandler } from "msw";
import { afterAll, describe, expect, it } from "vitest";
import full from "../../../../generated/openapi.json" with { type: "json" };
import runtime from "../../../../generated/openapi.runtime.json" with { type: "json" };
import { createAnswerChecker } from "../../../../contract-core/answer-check.js";
import { deref, isObj, listOperations, type Obj } from "../../../../contract-core/portable.js";
import type { JsonObject } from "../../contract/spec.js";
import { createMockHandlers, createSandboxHandlers, type OperationId, type SandboxHandlers } from "./msw.js";

const BASE = "http://localhost:5173/v1";
const doc = full as unknown as Obj;
const opened: SandboxHandlers[] = [];
afterAll(() => opened.forEach((sandbox) => sandbox.close()));

interface Step {
  operationId: string;
  template: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The first example value of a parameter or media type of the full spec (the runtime spec has none). */
function exampleOf(node: unknown): unknown {
  const resolved = deref(doc, node);
  if (!isObj(resolved)) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  const first = isObj(resolved.examples) ? Object.values(resolved.examples)[0] : undefined;
  return first === undefined ? undefined : (deref(doc, first) as Obj | undefined)?.value;
}

/** The sweep: the same requests, in the same order, for either spec. */
function sweep(key: string): Step[] {
  const steps: Step[] = [];
  for (const { path: template, method, operation } of listOperations(doc)) {
    const operationId = String(operation.operationId);
    const params = (Array.isArray(operation.parameters) ? operation.parameters : []).map((p) => deref(doc, p) as Obj);
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const param = params.find((p) => p.in === "path" && p.name === name);
      return encodeURIComponent(String(exampleOf(param) ?? "x"));
    });
    const query = params.filter((p) => p.in === "query");
    const withExamples = new URLSearchParams();
    for (const p of query) {
      const value = exampleOf(p);
      if (value !== undefined) withExamples.set(String(p.name), Array.isArray(value) ? value.join(",") : String(value));
    }
    const broken = new URLSearchParams(query.map((p) => [String(p.name), "!!"]));
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const write = method !== "get" && method !== "delete";
    const media = (deref(doc, operation.requestBody) as Obj | undefined)?.content as Obj | undefined;
    const requestExample = exampleOf(media?.["application/json"]);
    const body = write ? JSON.stringify(requestExample ?? {}) : undefined;
    const step = (suffix: string, extra: Record<string, string> = {}, stepBody = body): Step => ({
      operationId,
      template,
      method: method.toUpperCase(),
      path: path + suffix,
      headers: { ...headers, ...extra },
      ...(stepBody === undefined ? {} : { body: stepBody }),
    });
    steps.push(step(""), step(`?${withExamples}`), step(`?${broken}`));
    // Each query parameter alone: its example (a rule between parameters, x-requires, may refuse it), a value
    // no pattern or type takes, one past any limit (x-clamp clamps it), and a list of too many terms.
    const many = Array.from({ length: 60 }, (_, i) => `term${i}`).join(",");
    for (const p of query)
      for (const value of [withExamples.get(String(p.name)) ?? "x", "!!", "99999999", "-1", many, "a".repeat(300)])
        steps.push(step(`?${new URLSearchParams({ [String(p.name)]: value })}`));
    if (write) steps.push(step("", {}, '{"unknown":1}'), step("", {}, "[]"), step("", {}, "{"));
    // Each property of the request example broken the same ways.
    if (write && isObj(requestExample))
      for (const name of Object.keys(requestExample))
        for (const value of ["!!", 99999999, -1, many, "a".repeat(300), null, [], {}])
          steps.push(step("", {}, JSON.stringify({ ...requestExample, [name]: value })));
    const responses = isObj(operation.responses) ? operation.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      const code = status.endsWith("XX") ? `${status[0]}03` : status;
      steps.push(step("", { prefer: `code=${code}` }));
      const content = (deref(doc, response) as Obj | undefined)?.content as Obj | undefined;
      const examples = (content?.["application/json"] as Obj | undefined)?.examples;
      for (const name of Object.keys(isObj(examples) ? examples : {}))
        steps.push(step("", { prefer: `code=${code}, example=${name}` }));
    }
    steps.push(step("", { prefer: "example=no-such-example" }), step("", { prefer: "code=299" }));
  }
  return steps;
}

interface Answer {
  step: Step;
  status: number;
  headers: [string, string][];
  body: string;
}

async function answers(handlers: HttpHandler[], key: string): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const step of sweep(key)) {
    const request = new Request(`${BASE}${step.path}`, {
      method: step.method,
      headers: step.headers,
      ...(step.body === undefined ? {} : { body: step.body }),
    });
    const response = await getResponse(handlers, request);
    expect(response, `${step.method} ${step.path} is answered`).toBeDefined();
    out.push({ step, status: response!.status, headers: [...response!.headers], body: await response!.text() });
  }
  return out;
}

/** Targets created, their jobs run by the clock, then read with paging outside its clamps. */
async function scenario(sandbox: SandboxHandlers): Promise<unknown[]> {
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await getResponse(
      sandbox.handlers,
      new Request(`${BASE}${path}`, {
        method,
        headers: { authorization: `Bearer ${sandbox.keys.acme}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: response!.status, body: await response!.text() };
  };
  const company = sandbox.core.graph.companies[0]!.name;
  const out: unknown[] = [];
  for (const body of [
    { input: company, kind: "company", result_limit: 99999999 },
    { input: company, kind: "company", result_limit: 1 },
  ]) {
    const created = await send("POST", "/targets", body);
    out.push(created);
    const id = (JSON.parse(created.body) as { data?: { id?: string } }).data?.id;
    expect(id, created.body).toBeDefined();
    sandbox.advance(3_600_000);
    out.push(await send("GET", `/targets/${id}`));
    for (const query of ["limit=99999999&offset=-5", "limit=0", "limit=2&offset=1"])
      out.push(await send("GET", `/targets/${id}/members?${query}`));
  }
  return out;
}

const sandboxOf = (spec?: JsonObject) => {
  const sandbox = createSandboxHandlers({
    baseUrl: BASE,
    timers: false,
    ids: "sequential",
    now: "2026-11-27T09:00:00.000Z",
    ...(spec ? { spec } : {}),
  });
  opened.push(sandbox);
  return sandbox;
};

describe("the runtime spec answers as the full spec does", () => {
  let sandboxAnswers: Answer[] = [];

  it("the sandbox: every answer of the sweep is the same, byte for byte", async () => {
    const lean = sandboxOf();
    const whole = sandboxOf(full as JsonObject);
    const [a, b] = [await answers(lean.handlers, lean.keys.acme), await answers(whole.handlers, whole.keys.acme)];
    expect(a.length).toBeGreaterThan(listOperations(doc).length * 5);
    expect(a).toEqual(b);
    // Then Targets whose jobs run (what jobs read of the spec, x-clamp's result cap among it), read with
    // paging past its clamps.
    expect(await scenario(lean)).toEqual(await scenario(whole));
    // The sweep reaches validation, Prefer examples and handlers alike (not only one kind of answer).
    const statuses = new Set(a.map((x) => x.status));
    for (const status of [200, 201, 400, 401, 404, 429, 500]) expect(statuses, `status ${status}`).toContain(status);
    sandboxAnswers = a;
  });

  it("the stateless mock: every answer of the sweep is the same, byte for byte", async () => {
    const lean = createMockHandlers({ baseUrl: BASE });
    const whole = createMockHandlers({ baseUrl: BASE, spec: full as JsonObject });
    expect(await answers(lean.handlers, "any-key")).toEqual(await answers(whole.handlers, "any-key"));
  });

  it("the faults' body check refuses and accepts the same bodies", () => {
    const [lean, whole] = [sandboxOf(), sandboxOf(full as JsonObject)];
    const outcome = (sandbox: SandboxHandlers, op: OperationId, status: number, body: unknown) => {
      try {
        sandbox.respond(op, { status, body } as never);
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const seen = new Set<string>();
    for (const { operation } of listOperations(doc))
      for (const status of Object.keys(operation.responses as Obj).filter((s) => /^\d+$/.test(s)))
        for (const body of [{}, { data: null }, { error: { type: "not_found", message: "m" } }]) {
          const op = operation.operationId as OperationId;
          const answered = outcome(lean, op, Number(status), body);
          expect(answered, `${op} ${status}`).toBe(outcome(whole, op, Number(status), body));
          seen.add(answered === "accepted" ? "accepted" : "refused");
        }
    expect([...seen].sort()).toEqual(["accepted", "refused"]);
  });

  it("client/validate gives the same verdict on every answer, and on broken copies of them", () => {
    const [lean, whole] = [createAnswerChecker(runtime), createAnswerChecker(full)];
    expect(sandboxAnswers.length).toBeGreaterThan(0);
    let mismatches = 0;
    for (const { step, status, headers, body } of sandboxAnswers) {
      const variants = [
        { status, headers: new Headers(headers), body },
        // Without its headers (a 429 must carry Retry-After), with a header of the wrong type, with a body of
        // the wrong shape, and as an undocumented status.
        { status, headers: new Headers(), body },
        { status, headers: new Headers({ ...Object.fromEntries(headers), "retry-after": "soon" }), body },
        { status, headers: new Headers(headers), body: '{"data":1,"error":1}' },
        { status: 418, headers: new Headers(headers), body },
      ];
      for (const variant of variants) {
        const answer = { method: step.method, path: step.template, ...variant };
        const verdict = lean.check(answer);
        expect(verdict, `${step.method} ${step.path} ${variant.status}`).toEqual(whole.check(answer));
        if (verdict) mismatches++;
      }
    }
    expect(mismatches).toBeGreaterThan(sandboxAnswers.length);
  });
});
