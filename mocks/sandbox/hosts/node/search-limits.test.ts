/**
 * Every limit of the search parameters' term lists, sent to both servers just past it and at it: the same 400
 * and words from the mock and the sandbox past it, a 200 from both at it. The table is built from the spec's
 * declarations (`x-term-list` and `maxLength` on GET /people's parameters), so a limit added there is tested
 * here with no edit; `LIMITS_OF_THE_REFERENCE` pins the reference's numbers apart from the spec, so a loosened
 * declaration fails a named test too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deref, loadSpec, termListRule, type TermListRule } from "../../../../contract-core/index.js";
import { startMock, type RunningMock } from "../../../prism/server.js";
import { call } from "../../../prism/testing.js";
import { fixtureGraphInput } from "../../data/fixture.js";
import { KEYS } from "../../contract/auth.js";
import { startSandbox, type RunningSandbox } from "./server.js";

const doc = loadSpec();
const parameters = (doc.paths as Record<string, { get: { parameters: unknown[] } }>)["/people"]!.get.parameters.map(
  (p) => deref(doc, p) as { name: string; in: string; schema: Record<string, unknown> },
);
const lists = parameters
  .filter((p) => p.in === "query" && termListRule(p.schema))
  .map((p) => ({ name: p.name, rule: termListRule(p.schema)!, maxLength: p.schema.maxLength as number | undefined }));

/** The reference's limits of the search parameters' lists (its parameter and limits tables), not read from the spec. */
const LIMITS_OF_THE_REFERENCE: Record<string, Pick<TermListRule, "maxTerms" | "maxTermLength"> & { alias?: string }> = {
  skills: { maxTerms: 8, maxTermLength: 64, alias: "skill" },
  languages: { maxTerms: 8, maxTermLength: 64, alias: "language" },
  exclude_languages: { maxTerms: 8, maxTermLength: 64 },
  certifications: { maxTerms: 10, maxTermLength: 200, alias: "certification" },
  location: { maxTerms: 20, maxTermLength: 120 },
  exclude_locations: { maxTerms: 20, maxTermLength: 120 },
};

/** `n` distinct terms of `length` characters each, written as the list's split reads them. */
function listOf(rule: TermListRule, n: number, length = 3): string {
  const terms = Array.from({ length: n }, (_, i) => `t${String(i).padStart(2, "0")}`.padEnd(length, "x"));
  return rule.split === "json" ? JSON.stringify(terms) : terms.join(";");
}

interface Case {
  name: string;
  query: string;
  past: boolean;
}

const q = (params: Record<string, string>) => `/people?${new URLSearchParams(params)}`;
const CASES: Case[] = lists.flatMap(({ name, rule, maxLength }): Case[] => [
  { name: `${name}: ${rule.maxTerms} terms`, query: q({ [name]: listOf(rule, rule.maxTerms) }), past: false },
  { name: `${name}: ${rule.maxTerms + 1} terms`, query: q({ [name]: listOf(rule, rule.maxTerms + 1) }), past: true },
  {
    name: `${name}: a term of ${rule.maxTermLength} characters`,
    query: q({ [name]: listOf(rule, 1, rule.maxTermLength) }),
    past: false,
  },
  {
    name: `${name}: a term of ${rule.maxTermLength + 1} characters`,
    query: q({ [name]: listOf(rule, 1, rule.maxTermLength + 1) }),
    past: true,
  },
  {
    name: `${name}: a term of ${rule.maxTermLength + 1} emoji (code points)`,
    query: q({
      [name]:
        rule.split === "json"
          ? JSON.stringify(["😀".repeat(rule.maxTermLength + 1)])
          : "😀".repeat(rule.maxTermLength + 1),
    }),
    past: true,
  },
  ...(rule.alias
    ? [
        {
          name: `${name}: ${rule.maxTerms} terms and the alias ${rule.alias}`,
          query: q({ [name]: listOf(rule, rule.maxTerms), [rule.alias]: "another" }),
          past: true,
        },
      ]
    : []),
  ...(maxLength !== undefined
    ? [{ name: `${name}: ${maxLength + 1} characters`, query: q({ [name]: "x".repeat(maxLength + 1) }), past: true }]
    : []),
]);

let mock: RunningMock;
let sandbox: RunningSandbox;
beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ port: 0, quiet: true }),
    startSandbox({ graph: fixtureGraphInput(), host: "127.0.0.1", port: 0, rateLimit: false, jobSpeed: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), sandbox?.close()]);
});

const errorOf = (body: unknown) => (body as { error?: { type?: unknown; message?: unknown } } | null)?.error;

describe("search-parameter limits", () => {
  it("the spec declares the reference's limit of each list (term counts, term lengths, aliases)", () => {
    const declared = Object.fromEntries(
      lists.map(({ name, rule }) => [
        name,
        { maxTerms: rule.maxTerms, maxTermLength: rule.maxTermLength, ...(rule.alias ? { alias: rule.alias } : {}) },
      ]),
    );
    expect(declared).toEqual(LIMITS_OF_THE_REFERENCE);
  });

  it("the table has a case past every limit", () => {
    expect(CASES.filter((c) => c.past).length).toBeGreaterThanOrEqual(3 * lists.length);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("both servers: %s", async (_name, c) => {
    const fromMock = await call(mock.baseUrl, {
      path: c.query,
      headers: { authorization: "Bearer test" },
      auth: false,
    });
    const fromSandbox = await call(sandbox.baseUrl, {
      path: c.query,
      headers: { authorization: `Bearer ${KEYS[0]!.key}` },
      auth: false,
    });
    expect([fromMock.status, fromSandbox.status], JSON.stringify([fromMock.body, fromSandbox.body])).toEqual(
      c.past ? [400, 400] : [200, 200],
    );
    if (!c.past) return;
    const [m, s] = [errorOf(fromMock.body), errorOf(fromSandbox.body)];
    expect(m?.type).toBe("invalid_request");
    expect(s).toEqual(m);
    expect(String(m?.message)).toMatch(new RegExp(`^${c.name.split(":")[0]} `));
  });
});
