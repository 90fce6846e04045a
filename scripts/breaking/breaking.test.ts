import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  type Change,
  type RuleId,
  POLICY,
  PreparedSpec,
  compareSpecFiles,
  detectChanges,
  formatText,
  main,
  markdownTable,
  needsReview,
  policyMarkdown,
} from "./breaking.js";
import { ANNOTATION_EXTENSIONS } from "./policy.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

interface Expectation {
  /** Rule ids of the breaking changes (empty: the verdict is non-breaking). */
  breaking: RuleId[];
  nonBreaking?: RuleId[];
  /** Text that must appear in a reported change (location or message). */
  names?: string;
}

/** One base/head pair per policy item, breaking and non-breaking. */
const CASES: Record<string, Expectation> = {
  "operation-removed": { breaking: ["operation-removed"], names: "GET /events" },
  "operation-id-changed": { breaking: ["operation-id-changed"], names: "fetchPerson" },
  "response-status-removed": { breaking: ["response-status-removed"], names: "/responses/404" },
  "response-media-type-removed": { breaking: ["response-media-type-removed"], nonBreaking: ["media-type-added"] },
  "response-header-removed": { breaking: ["response-header-removed"], names: "X-RateLimit-Limit" },
  "response-property-removed": {
    breaking: ["response-property-removed"],
    names: "/properties/data/properties/headline",
  },
  "response-property-optional": { breaking: ["response-property-optional"], names: "network_url" },
  "response-property-nullable": { breaking: ["response-property-nullable"], names: "network_url" },
  "response-property-nullable-oneof": { breaking: ["response-property-nullable"], names: "location" },
  "response-enum-value-added": { breaking: ["response-enum-value-added"], names: '"urgent"' },
  "response-variant-added": { breaking: ["response-variant-added"], names: "PersonStub" },
  "response-type-changed": { breaking: ["response-type-changed"], names: "number to string" },
  "response-type-widened": { breaking: ["response-type-changed"], names: "integer to number" },
  "request-parameter-required-added": { breaking: ["request-parameter-required"], names: "company" },
  "request-parameter-made-required": {
    breaking: ["request-parameter-required"],
    names: "/parameters/query/nl/required",
  },
  "request-property-required-added": { breaking: ["request-property-required"], names: "owner" },
  "request-property-made-required": { breaking: ["request-property-required"], names: "description" },
  "request-body-made-required": { breaking: ["request-body-required"] },
  "request-body-removed": { breaking: ["request-body-removed"] },
  "request-max-length-lowered": { breaking: ["request-constraint-narrowed"], names: "maxLength lowered from 80 to 40" },
  "request-min-length-raised": { breaking: ["request-constraint-narrowed"], names: "minLength raised from 1 to 3" },
  "request-maximum-lowered": { breaking: ["request-constraint-narrowed"], names: "maximum lowered from 100 to 50" },
  "request-minimum-raised": { breaking: ["request-constraint-narrowed"], names: "minimum raised from 0 to 1" },
  "request-enum-value-removed": { breaking: ["request-enum-value-removed"], names: '"compact"' },
  "request-body-enum-value-removed": { breaking: ["request-enum-value-removed"], names: '"proposed"' },
  "request-pattern-added": { breaking: ["request-constraint-narrowed"], names: "pattern" },
  "request-max-items-lowered": { breaking: ["request-constraint-narrowed"], names: "maxItems lowered from 500 to 100" },
  "request-additional-properties-closed": { breaking: ["request-constraint-narrowed"], names: "additionalProperties" },
  "request-type-changed": { breaking: ["request-type-changed"], names: "boolean to string" },
  "request-null-rejected": { breaking: ["request-type-changed"], names: "no longer accepts null" },
  "request-variant-removed": { breaking: ["request-variant-removed"], names: "CompanyQuery" },
  "parameter-location-changed": { breaking: ["parameter-location-changed"], names: "from query to header" },
  "parameter-renamed": { breaking: ["parameter-renamed"], names: 'from "nl" to "q"' },
  "path-parameter-renamed": { breaking: ["parameter-renamed"], names: 'from "slug" to "key"' },
  "path-parameters-renamed": { breaking: ["parameter-renamed"], names: 'from "membershipId" to "membership_id"' },
  "parameter-serialization-changed": { breaking: ["parameter-serialization-changed"] },
  "request-parameter-removed": { breaking: ["request-parameter-removed"], names: "offset" },
  "request-property-removed": { breaking: ["request-property-removed"], names: "description" },
  "request-media-type-removed": { breaking: ["request-media-type-removed"], nonBreaking: ["media-type-added"] },
  "split-root-property-removed": {
    breaking: ["response-property-removed"],
    names: "#/components/schemas/Person/properties/headline",
  },
  "json-input-status-removed": { breaking: ["response-status-removed"] },
  "unclassified-x-shape-not-shown-removed": {
    breaking: ["unclassified-change"],
    names: "#/components/schemas/Person/x-shape-not-shown",
  },
  "response-constraint-widened": { breaking: ["response-constraint-widened"], names: "maxItems 50 removed" },
  "response-minimum-lowered": { breaking: ["response-constraint-widened"], names: "minimum lowered from 0 to -1" },
  "request-default-changed": { breaking: ["request-default-changed"], names: "/parameters/query/limit/schema/default" },
  "request-then-min-length-raised": {
    breaking: ["request-constraint-narrowed"],
    names: "/parameters/query/nl/schema/then/minLength",
  },
  "webhook-removed": { breaking: ["webhook-removed"], names: "POST webhook personChanged" },
  "discriminator-changed": { breaking: ["discriminator-changed"], names: "discriminator changed" },
  "webhook-payload-widened": {
    breaking: ["response-property-nullable"],
    names: "POST webhook personChanged /requestBody/content/application~1json/schema/properties/network_url/type",
  },
  "callback-removed": { breaking: ["callback-removed"], names: "/callbacks/searchDone" },
  "security-requirement-added": { breaking: ["security-requirement-added"], names: "/security" },
  "security-scope-added": { breaking: ["security-scope-added"], names: "oauth" },
  "security-scheme-changed": {
    breaking: ["security-scheme-changed"],
    names: "#/components/securitySchemes/apiKeyAuth/name",
  },
  "server-removed": { breaking: ["server-removed"], names: "https://eu.talent-graph.example/v1" },
  "ok-webhook-added": { breaking: [], nonBreaking: ["webhook-added"] },
  "ok-callback-added": { breaking: [], nonBreaking: ["callback-added"] },
  "ok-security-requirement-relaxed": { breaking: [], nonBreaking: ["security-requirement-relaxed"] },
  "ok-server-added": { breaking: [], nonBreaking: ["server-added"] },
  "ok-response-default-changed": { breaking: [], nonBreaking: ["response-default-changed"] },
  "ok-component-added": { breaking: [], nonBreaking: ["component-added"], names: "#/components/schemas/Team" },
  "ok-annotation-changed": { breaking: [], nonBreaking: ["annotation-changed"], names: "x-property-case" },
  "ok-example-changed": { breaking: [], nonBreaking: ["example-changed"] },
  "ok-unchanged": { breaking: [] },
  "ok-operation-added": { breaking: [], nonBreaking: ["operation-added"] },
  "ok-response-status-added": { breaking: [], nonBreaking: ["response-status-added"] },
  "ok-response-header-added": { breaking: [], nonBreaking: ["response-header-added"] },
  "ok-response-property-added": { breaking: [], nonBreaking: ["response-property-added"] },
  "ok-response-property-made-required": { breaking: [], nonBreaking: ["response-property-required"] },
  "ok-response-property-non-nullable": { breaking: [], nonBreaking: ["response-property-non-nullable"] },
  "ok-response-enum-value-removed": { breaking: [], nonBreaking: ["response-enum-value-removed"] },
  "ok-response-variant-removed": { breaking: [], nonBreaking: ["response-variant-removed"] },
  "ok-response-type-narrowed": { breaking: [], nonBreaking: ["response-type-narrowed"] },
  "ok-response-constraint-narrowed": { breaking: [], nonBreaking: ["response-constraint-narrowed"] },
  "ok-request-parameter-added": { breaking: [], nonBreaking: ["request-parameter-added"] },
  "ok-request-parameter-made-optional": { breaking: [], nonBreaking: ["request-parameter-optional"] },
  "ok-request-property-added": { breaking: [], nonBreaking: ["request-property-added"] },
  "ok-request-property-made-optional": { breaking: [], nonBreaking: ["request-property-optional"] },
  "ok-request-body-added": { breaking: [], nonBreaking: ["request-body-added"] },
  "ok-request-body-made-optional": { breaking: [], nonBreaking: ["request-body-optional"] },
  "ok-request-max-length-raised": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-maximum-raised": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-minimum-lowered": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-enum-value-added": { breaking: [], nonBreaking: ["request-enum-value-added"] },
  "ok-request-pattern-removed": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-max-items-raised": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-additional-properties-opened": { breaking: [], nonBreaking: ["request-constraint-widened"] },
  "ok-request-type-widened": { breaking: [], nonBreaking: ["request-type-widened"] },
  "ok-request-variant-added": { breaking: [], nonBreaking: ["request-variant-added"] },
  "ok-media-type-added": { breaking: [], nonBreaking: ["media-type-added"] },
  "ok-description-changed": { breaking: [], nonBreaking: ["description-changed"] },
  "ok-deprecated": { breaking: [], nonBreaking: ["deprecated"] },
  "ok-split-root-description-changed": { breaking: [], nonBreaking: ["description-changed"] },
};

const SPLIT = new Set(["split-root-property-removed", "ok-split-root-description-changed"]);

function files(name: string): { base: string; head: string } {
  const ext = readdirSync(join(FIXTURES, name)).some((f) => f === "base.json") ? "json" : "yaml";
  return { base: join(FIXTURES, name, `base.${ext}`), head: join(FIXTURES, name, `head.${ext}`) };
}
const load = (file: string) => parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const ruleSet = (changes: Change[]) => [...new Set(changes.map((c) => c.rule))].sort();

describe("fixtures", () => {
  it("every fixture directory has an expectation and every expectation a fixture", () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(CASES).sort());
  });

  it("cover every rule of the policy, breaking and non-breaking", () => {
    const covered = new Set(Object.values(CASES).flatMap((c) => [...c.breaking, ...(c.nonBreaking ?? [])]));
    expect(Object.keys(POLICY).filter((id) => !covered.has(id as RuleId))).toEqual([]);
    expect(Object.values(CASES).filter((c) => c.breaking.length === 0).length).toBeGreaterThan(20);
  });
});

describe("detector verdicts (own rules)", () => {
  for (const [name, expected] of Object.entries(CASES)) {
    it(`${name}: ${expected.breaking.length > 0 ? "breaking" : "non-breaking"}`, async () => {
      const { base, head } = files(name);
      const changes = SPLIT.has(name)
        ? (await compareSpecFiles(base, head)).changes
        : detectChanges(load(base), load(head));
      const breaking = changes.filter((c) => c.breaking);
      expect(ruleSet(breaking)).toEqual([...new Set(expected.breaking)].sort());
      expect(ruleSet(changes.filter((c) => !c.breaking))).toEqual([...new Set(expected.nonBreaking ?? [])].sort());
      for (const c of breaking) {
        expect(c.operation).toMatch(/^(?:[A-Z]+ \/|[A-Z]+ webhook |\(document\)$)/);
        expect(c.why).toBeTruthy();
      }
      if (expected.names) {
        const text = changes.map((c) => `${c.operation} ${c.location} ${c.component ?? ""} ${c.message}`).join("\n");
        expect(text).toContain(expected.names);
      }
    });
  }
});

describe("detector details", () => {
  const doc = (schema: unknown, extra: Record<string, unknown> = {}) => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          responses: { "200": { description: "ok", content: { "application/json": { schema } } } },
          ...extra,
        },
      },
    },
    components: {
      schemas: {
        Node: {
          type: "object",
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
          },
        },
        Named: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
      },
    },
  });

  it("terminates on recursive schemas and still finds changes inside them", () => {
    const head = doc({ $ref: "#/components/schemas/Node" });
    const nodeProps = (head.components.schemas.Node as { properties: Record<string, unknown> }).properties;
    delete nodeProps.name;
    const changes = detectChanges(doc({ $ref: "#/components/schemas/Node" }), head);
    expect(changes.map((c) => c.location)).toContain("/responses/200/content/application~1json/schema/properties/name");
    expect(changes.every((c) => c.rule === "response-property-removed")).toBe(true);
    expect(changes[0]?.component).toBe("#/components/schemas/Node/properties/name");
  });

  it("meets a second variant with the same $ref at its position: an unchanged one is no change", () => {
    const twice = (maxLength?: number) => {
      const d = doc({ oneOf: [{ $ref: "#/components/schemas/Named" }, { $ref: "#/components/schemas/Named" }] });
      if (maxLength !== undefined) Object.assign(d.components.schemas.Named.properties.name, { maxLength });
      return d;
    };
    for (const everyOperation of [false, true])
      expect(detectChanges(twice(), twice(), { everyOperation }), `everyOperation: ${everyOperation}`).toEqual([]);
    expect(detectChanges(twice(), twice(40)).map((c) => c.rule)).toEqual(["response-constraint-narrowed"]);
  });

  it("never writes to the documents it compares: frozen ones give what the same documents unfrozen give", () => {
    const named = (name: Record<string, unknown>) => ({ type: "object", properties: { name } });
    const base = doc({ type: "object", properties: { a: named({ type: "string" }), b: named({ type: "string" }) } });
    const head = doc({ type: "object", properties: { a: named({ type: "string" }), b: named({ maxLength: 9 }) } });
    const freeze = <T>(v: T): T => {
      if (v && typeof v === "object") for (const x of Object.values(Object.freeze(v))) freeze(x);
      return v;
    };
    const expected = detectChanges(base, head);
    expect(expected.map((c) => c.location)).toContain(
      "/responses/200/content/application~1json/schema/properties/b/properties/name/maxLength",
    );
    expect(detectChanges(freeze(structuredClone(base)), freeze(structuredClone(head)))).toEqual(expected);
  });

  it("compares a prepared spec as the document it was prepared from, and a later edit of that one does not reach it", () => {
    const base = doc({ type: "object", properties: { name: { type: "string" } } });
    const head = doc({ type: "object", properties: { name: { type: "string", maxLength: 9 } } });
    const expected = detectChanges(base, head);
    expect(expected.map((c) => c.rule)).toEqual(["response-constraint-narrowed"]);
    const [pb, ph] = [new PreparedSpec(base), new PreparedSpec(head)];
    expect(detectChanges(pb, head)).toEqual(expected);
    expect(detectChanges(base, ph)).toEqual(expected);
    expect(detectChanges(pb, ph)).toEqual(expected);
    expect(detectChanges(pb, pb)).toEqual([]);
    // Preparing copies: the prepared base is the document as it was.
    Object.assign(base.paths["/things"].get, { deprecated: true });
    expect(detectChanges(base, head).map((c) => c.rule)).toContain("deprecated");
    expect(detectChanges(pb, head)).toEqual(expected);
  });

  it("merges allOf before comparing, so moving properties into allOf is not a change", () => {
    const flat = doc({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, size: { type: "integer" } },
    });
    const composed = doc({
      allOf: [{ $ref: "#/components/schemas/Named" }, { type: "object", properties: { size: { type: "integer" } } }],
    });
    expect(detectChanges(flat, composed).filter((c) => c.breaking)).toEqual([]);
    const shrunk = doc({ allOf: [{ $ref: "#/components/schemas/Named" }] });
    expect(ruleSet(detectChanges(composed, shrunk))).toEqual(["response-property-removed"]);
  });

  it("lets a schema's own property refine the one it takes from allOf, and words an always-null type as such", () => {
    // POST /lists answers CreatedList: allOf List (default_key string or null) with its own default_key: null.
    const list = {
      type: "object",
      properties: { default_key: { type: ["string", "null"] }, name: { type: "string" } },
    };
    const created = (listSchema: unknown) => ({
      ...doc({ allOf: [{ $ref: "#/components/schemas/List" }], properties: { default_key: { type: "null" } } }),
      components: { schemas: { List: listSchema } },
    });
    // A refinement that only describes keeps the type it refines.
    const described = (d: unknown) => ({
      ...doc({ allOf: [{ $ref: "#/components/schemas/List" }], properties: { name: d } }),
      components: { schemas: { List: list } },
    });
    expect(detectChanges(described({ type: "string" }), described({ description: "The name." }))).toEqual([
      expect.objectContaining({ rule: "description-changed" }),
    ]);
    // Removing default_key from List leaves CreatedList's own declaration: its answer did not change.
    const withoutKey = { ...list, properties: { name: { type: "string" } } };
    expect(detectChanges(created(list), created(withoutKey))).toEqual([]);
    const narrowed = detectChanges(
      doc(list),
      doc({ ...list, properties: { ...list.properties, default_key: { type: "null" } } }),
    );
    expect(narrowed.map((c) => `${c.rule}: ${c.message}`)).toEqual([
      "response-type-narrowed: is now always null (was string or null)",
    ]);
  });

  it("reads the type of a const or enum without a type from its values", () => {
    const props = (isDefault: unknown) => doc({ type: "object", properties: { is_default: isDefault } });
    // Restricted to one value of the same type: not a type change (the enum rule reports the restriction; the
    // type keyword, now implied by the const, is an annotation-changed).
    expect(ruleSet(detectChanges(props({ type: "boolean" }), props({ const: false })))).toEqual([
      "annotation-changed",
      "response-enum-value-removed",
    ]);
    expect(detectChanges(props({ type: "integer" }), props({ enum: [0, 1] })).filter((c) => c.breaking)).toEqual([]);
    expect(ruleSet(detectChanges(props({ type: "boolean" }), props({ const: "no" })))).toEqual([
      "response-type-changed",
    ]);
  });

  it("compares response headers case-insensitively", () => {
    const headers = (name: string) => ({
      responses: { "200": { description: "ok", headers: { [name]: { schema: { type: "integer" } } } } },
    });
    expect(detectChanges(doc({}, headers("Retry-After")), doc({}, headers("retry-after")))).toEqual([]);
    expect(ruleSet(detectChanges(doc({}, headers("Retry-After")), doc({}, headers("X-Other"))))).toEqual([
      "response-header-added",
      "response-header-removed",
    ]);
  });

  it("treats a response header that stops being required as breaking", () => {
    const header = (required: boolean) => ({
      responses: {
        "429": { description: "limited", headers: { "Retry-After": { required, schema: { type: "integer" } } } },
      },
    });
    expect(ruleSet(detectChanges(doc({}, header(true)), doc({}, header(false))))).toEqual(["response-header-removed"]);
    expect(detectChanges(doc({}, header(false)), doc({}, header(true)))).toEqual([]);
  });

  it("does not compare readOnly properties as request input", () => {
    const body = (props: Record<string, unknown>) => ({
      requestBody: {
        content: { "application/json": { schema: { type: "object", required: ["id"], properties: props } } },
      },
    });
    const withId = body({ id: { type: "string", readOnly: true }, name: { type: "string" } });
    const withoutId = body({ name: { type: "string" } });
    expect(
      detectChanges(doc({}, withId), doc({}, withoutId)).filter((c) => c.location.startsWith("/requestBody")),
    ).toEqual([]);
  });

  it("ignores template variable names when matching operations, but reports the renamed path parameter", () => {
    const withPath = (path: string, name: string) => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        [path]: {
          get: {
            parameters: [{ name, in: "path", required: true, schema: { type: "string" } }],
            responses: { "204": { description: "none" } },
          },
        },
      },
    });
    const changes = detectChanges(withPath("/a/{x}", "x"), withPath("/a/{y}", "y"));
    expect(ruleSet(changes)).toEqual(["parameter-renamed"]);
    expect(changes[0]?.operation).toBe("GET /a/{y}");
  });

  it("pairs renamed path parameters by their position in the template, not by elimination", () => {
    const twoParams = (path: string, names: string[]) => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        [path]: {
          get: {
            parameters: names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
            responses: { "204": { description: "none" } },
          },
        },
      },
    });
    const changes = detectChanges(twoParams("/a/{x}/b/{y}", ["x", "y"]), twoParams("/a/{p}/b/{q}", ["q", "p"]));
    expect(changes.map((c) => [c.rule, c.message])).toEqual([
      ["parameter-renamed", 'path parameter renamed from "x" to "p"'],
      ["parameter-renamed", 'path parameter renamed from "y" to "q"'],
    ]);
    // Same names, same positions: nothing to report.
    expect(detectChanges(twoParams("/a/{x}/b/{y}", ["x", "y"]), twoParams("/a/{x}/b/{y}", ["y", "x"]))).toEqual([]);
  });
});

describe("exemptions and the safety net", () => {
  it("exempts only the x- extensions spec/EXTENSIONS.md documents, and never one that changes behaviour", () => {
    const documented = readFileSync(join(FIXTURES, "..", "..", "..", "spec", "EXTENSIONS.md"), "utf8");
    for (const name of ANNOTATION_EXTENSIONS) expect(documented, name).toContain(`| \`${name}\``);
    // x-requires makes the server refuse requests; x-shape-not-shown opens a shape: the safety net judges them.
    expect(ANNOTATION_EXTENSIONS).not.toContain("x-requires");
    expect(ANNOTATION_EXTENSIONS).not.toContain("x-shape-not-shown");
  });

  it("reports a difference no rule knows as a breaking unclassified change with its pointer and values", () => {
    const base = load(files("ok-unchanged").base);
    const head = structuredClone(base) as Record<string, any>;
    head.paths["/people/{slug}"].get.responses["200"].content["application/json"].schema.xml = { name: "person" };
    const [change, ...rest] = detectChanges(base, head);
    expect(rest).toEqual([]);
    expect(change).toMatchObject({
      rule: "unclassified-change",
      breaking: true,
      operation: "GET /people/{slug}",
      location: "/responses/200/content/application~1json/schema/xml",
      component: "#/paths/~1people~1{slug}/get/responses/200/content/application~1json/schema/xml",
      after: '{"name":"person"}',
      why: "the detector does not know what this does to clients: review it",
    });
    expect(change?.before).toBeUndefined();
    expect(needsReview(change!)).toBe(true);
    // Key order is no difference.
    const reordered = Object.fromEntries(Object.entries(base).reverse());
    expect(detectChanges(base, reordered)).toEqual([]);
  });
});

describe("output", () => {
  const sample: Change = {
    rule: "response-property-removed",
    breaking: true,
    operation: "GET /people/{slug}",
    operationId: "getPerson",
    location: "/responses/200/content/application~1json/schema/properties/data/properties/head|line",
    component: "#/components/schemas/Person/properties/headline",
    message: 'response property "headline" removed',
    why: POLICY["response-property-removed"].why,
  };

  it("prints operation, location, what and why for each breaking change, then the non-breaking ones", () => {
    const text = formatText({
      breaking: [sample],
      nonBreaking: [{ ...sample, breaking: false, rule: "description-changed", message: "description changed" }],
      notes: [],
    });
    expect(text.indexOf("Breaking changes: 1")).toBeLessThan(text.indexOf("Non-breaking changes: 1"));
    for (const part of [
      "GET /people/{slug} (getPerson)",
      sample.location,
      sample.message,
      "clients reading the property get undefined",
    ])
      expect(text).toContain(part);
  });

  it("escapes table cells in Markdown", () => {
    const table = markdownTable([sample]);
    expect(table.split("\n")).toHaveLength(3);
    expect(table).toContain("head\\|line");
    expect(table).toContain("via `#/components/schemas/Person/properties/headline`");
  });

  it("renders the policy as a table with every rule", () => {
    const table = policyMarkdown();
    for (const id of Object.keys(POLICY)) expect(table).toContain(`\`${id}\``);
  });
});

describe("CLI exit codes", () => {
  let dir = "";
  let out: string[] = [];
  let err: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "breaking-cli-"));
    await writeFile(join(dir, "broken.yaml"), "openapi: 3.1.0\ninfo: [\n");
    await writeFile(join(dir, "not-openapi.yaml"), "hello: world\n");
    await writeFile(
      join(dir, "split.yaml"),
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    $ref: missing/a.yaml\n",
    );
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });
  const cli = async (...argv: string[]) => {
    out = [];
    err = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
    try {
      return await main(argv);
    } finally {
      vi.restoreAllMocks();
    }
  };

  it("exits 1 on a breaking change and names it", async () => {
    const { base, head } = files("response-property-removed");
    expect(await cli(base, head)).toBe(1);
    expect(out.join("\n")).toContain('response property "headline" removed');
  });

  it("exits 1 on a minLength raised inside a request schema's then branch, naming the pointer", async () => {
    const { base, head } = files("request-then-min-length-raised");
    expect(await cli(base, head)).toBe(1);
    expect(out.join("\n")).toContain("at    /parameters/query/nl/schema/then/minLength");
    expect(out.join("\n")).toContain("minLength raised from 2 to 4");
  });

  it("exits 1 on a change no rule classifies, printing it as needing review with its pointer and values", async () => {
    const { base, head } = files("unclassified-x-shape-not-shown-removed");
    expect(await cli(base, head)).toBe(1);
    const text = out.join("\n");
    expect(text).toContain("Breaking changes: 1 (1 need review)");
    expect(text).toContain("[#/components/schemas/Person/x-shape-not-shown]");
    expect(text).toContain("the detector does not know what this does to clients: review it");
    expect(text).toContain("was   true");
    expect(text).toContain("rule  unclassified-change (needs review)");
  });

  it("exits 0 when nothing breaks, and --json lists the changes", async () => {
    const { base, head } = files("ok-response-property-added");
    expect(await cli(base, head, "--json")).toBe(0);
    const json = JSON.parse(out.join("\n")) as { breaking: unknown[]; nonBreaking: Change[] };
    expect(json.breaking).toEqual([]);
    expect(json.nonBreaking[0]?.rule).toBe("response-property-added");
  });

  it("exits 2 naming a missing file", async () => {
    const missing = join(dir, "nope.yaml");
    expect(await cli(missing, files("ok-unchanged").head)).toBe(2);
    expect(err.join("\n")).toContain(`cannot read ${missing}`);
  });

  it("exits 2 naming a file that is not YAML, not OpenAPI, or has an unresolvable $ref", async () => {
    const ok = files("ok-unchanged").base;
    expect(await cli(ok, join(dir, "broken.yaml"))).toBe(2);
    expect(err.join("\n")).toContain(`${join(dir, "broken.yaml")} is not valid YAML`);
    expect(await cli(join(dir, "not-openapi.yaml"), ok)).toBe(2);
    expect(err.join("\n")).toContain("is not an OpenAPI 3.x document");
    expect(await cli(join(dir, "split.yaml"), ok)).toBe(2);
    expect(err.join("\n")).toMatch(/cannot bundle .*split\.yaml/);
  });

  it("exits 2 on bad usage", async () => {
    expect(await cli("only-one.yaml")).toBe(2);
    expect(await cli("a.yaml", "b.yaml", "--frobnicate")).toBe(2);
    expect(err.join("\n")).toContain("usage:");
  });
});
