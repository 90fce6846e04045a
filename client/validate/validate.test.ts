// The validation middleware against a server answering in-process (the sandbox in msw/node), and the same
// server made to break the contract with msw overrides: a missing required property, a wrong type, an
// undocumented status, a missing required header. Unknown properties pass.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSandboxHandlers } from "../../mocks/sandbox/hosts/msw/msw.js";
import { createTalentGraphClient, unwrap } from "../index.js";
import { ContractMismatchError, validateAnswers, type AnswerMismatch } from "./index.js";

const BASE = "http://localhost:5173/v1";
const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
const server = setupServer(...sandbox.handlers);
const person = `${BASE}/people/:slug`;

function client(options: Parameters<typeof validateAnswers>[0] = {}) {
  const c = createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.acme, retry: false });
  c.use(validateAnswers(options));
  return c;
}
const getPerson = (c: ReturnType<typeof client>) =>
  c.GET("/people/{slug}", { params: { path: { slug: "priya-raman" } } });
/** A getPerson 200 body the sandbox itself answers, to break one part of. */
async function goodPerson(): Promise<Record<string, unknown>> {
  const plain = createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.acme, retry: false });
  const slug = unwrap(await plain.GET("/people", { params: { query: { limit: 1 } } })).data[0]!.slug!;
  return unwrap(await plain.GET("/people/{slug}", { params: { path: { slug } } })).data as never;
}

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  server.resetHandlers();
  sandbox.reset();
});
afterAll(() => {
  server.close();
  sandbox.close();
});

describe("validateAnswers", () => {
  it("passes the sandbox's own answers, 2xx and errors, without a word", async () => {
    const seen: AnswerMismatch[] = [];
    const c = client({ onMismatch: (m) => seen.push(m) });
    const page = unwrap(await c.GET("/people", { params: { query: { limit: 3 } } }));
    unwrap(await c.GET("/people/{slug}", { params: { path: { slug: page.data[0]!.slug! } } }));
    expect((await c.GET("/people/{slug}", { params: { path: { slug: "no-such-person" } } })).response.status).toBe(404);
    expect((await c.POST("/lists", { body: { name: "" } })).response.status).toBe(400);
    expect(unwrap(await c.POST("/lists", { body: { name: "Shortlist" } })).data.name).toBe("Shortlist");
    expect(seen).toEqual([]);
  });

  it("throws on a missing required property, naming operation, status, pointer and the violation", async () => {
    const { full_name: _dropped, ...rest } = await goodPerson();
    server.use(http.get(person, () => HttpResponse.json({ data: rest })));
    const error = await getPerson(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractMismatchError);
    expect((error as ContractMismatchError).mismatch).toEqual({
      operationId: "getPerson",
      operation: "GET /people/{slug}",
      status: 200,
      part: "body",
      pointer: "/data",
      message: "body/data must have required property 'full_name'",
    });
    expect((error as Error).message).toBe(
      "getPerson (GET /people/{slug}) answered 200, which breaks the contract at /data: " +
        "body/data must have required property 'full_name'",
    );
  });

  it("warns on a wrong type (the call goes on) and calls onMismatch", async () => {
    const good = await goodPerson();
    server.use(http.get(person, () => HttpResponse.json({ data: { ...good, full_name: 42 } })));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const seen: AnswerMismatch[] = [];
    try {
      const result = await getPerson(client({ mode: "warn", onMismatch: (m) => seen.push(m) }));
      expect(result.response.status).toBe(200);
      expect(result.data?.data.full_name).toBe(42); // the answer itself is handed on unchanged
      expect(seen.map((m) => [m.pointer, m.message])).toEqual([
        ["/data/full_name", "body/data/full_name must be string,null"],
      ]);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("getPerson (GET /people/{slug}) answered 200"));
      expect(warn.mock.calls[0]![0]).toContain("at /data/full_name: body/data/full_name must be string,null");
    } finally {
      warn.mockRestore();
    }
  });

  it("throws on an undocumented status and on a documented one without its required header", async () => {
    server.use(http.get(person, () => HttpResponse.json({ message: "teapot" }, { status: 418 })));
    await expect(getPerson(client())).rejects.toThrow(
      /^getPerson \(GET \/people\/\{slug\}\) answered 418, which breaks the contract: status 418 is not documented \(documented: 200, .*404/,
    );
    server.use(
      http.get(person, () =>
        HttpResponse.json(
          { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded" },
          { status: 429 },
        ),
      ),
    );
    const error = (await getPerson(client()).catch((e: unknown) => e)) as ContractMismatchError;
    expect(error.mismatch).toMatchObject({ part: "header", pointer: "Retry-After", status: 429 });
    expect(error.message).toContain("header Retry-After is required and missing");
    server.use(
      http.get(person, () =>
        HttpResponse.json(
          { statusCode: 429, error: "Too Many Requests", message: "Rate limit exceeded" },
          { status: 429, headers: { "retry-after": "soon" } },
        ),
      ),
    );
    await expect(getPerson(client())).rejects.toThrow("at header Retry-After: Retry-After must be integer");
  });

  it("accepts properties the spec does not name, at every level", async () => {
    const good = await goodPerson();
    server.use(http.get(person, () => HttpResponse.json({ data: { ...good, added_later: { x: 1 } }, also: true })));
    expect((await getPerson(client())).data?.data.full_name).toBe(good.full_name);
    // GET /people/{slug}/coworkers's answer is a closed schema (additionalProperties: false) in the spec.
    const plain = createTalentGraphClient({ baseUrl: BASE, apiKey: sandbox.keys.acme, retry: false });
    const coworkers = { params: { path: { slug: good.slug as string } } };
    const page = (await plain.GET("/people/{slug}/coworkers", coworkers)).data!;
    server.use(http.get(`${BASE}/people/:slug/coworkers`, () => HttpResponse.json({ ...page, added_later: 1 })));
    expect((await client().GET("/people/{slug}/coworkers", coworkers)).response.status).toBe(200);
  });

  it("refuses a mode it does not know", () => {
    // @ts-expect-error -- "log" is not a mode
    expect(() => validateAnswers({ mode: "log" })).toThrow('mode must be "throw" or "warn"');
  });
});
