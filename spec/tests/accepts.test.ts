/**
 * The spec accepts what the reference accepts and refuses what it refuses: one block per finding of the
 * independent review (spec/DECISIONS.md 1, 3, 10, 15, 20, 21, 23, 29, 34-36), each with the values the
 * reference allows and the ones it does not.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  brokenDependency,
  createSpecCompiler,
  deref,
  listOperations,
  loadSpec,
  paramDependencies,
  queryValues,
  sentIn,
} from "../../contract-core/index.js";

const doc = loadSpec() as Record<string, any>;
const compiler = createSpecCompiler(doc, { allErrors: false, verbose: false });
const operations = new Map(listOperations(doc).map((o) => [String(o.operation.operationId), o]));

function declared(operationId: string): any[] {
  const entry = operations.get(operationId);
  if (!entry) throw new Error(`no operation ${operationId}`);
  const item = entry.pathItem as { parameters?: unknown[] };
  return [...(item.parameters ?? []), ...((entry.operation.parameters as unknown[]) ?? [])].map((p) => deref(doc, p));
}

function parameter(operationId: string, location: string, name: string): any {
  const found = declared(operationId).find((p) => p.in === location && p.name === name);
  if (!found) throw new Error(`${operationId} has no ${location} parameter ${name}`);
  return found;
}

/** Whether a value is valid for a schema of the bundle (its component $refs resolved). */
function valid(schema: unknown, value: unknown): boolean {
  return compiler.compile(schema as object)(value) === true;
}

const component = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const requestSchema = (operationId: string) =>
  deref<any>(doc, operations.get(operationId)!.operation.requestBody).content["application/json"].schema;

describe("1. X-Service-Org-Id is ignored for customer keys, so any value is valid", () => {
  it.each(["getAccount", "searchPeople", "listLists", "getNotificationPreferences"])("%s", (id) => {
    const schema = parameter(id, "header", "X-Service-Org-Id").schema;
    expect(valid(schema, "acme-org")).toBe(true);
    expect(valid(schema, "6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e")).toBe(true);
  });

  it("on every operation", () => {
    const refusing = [...operations.keys()].filter(
      (id) => !valid(parameter(id, "header", "X-Service-Org-Id").schema, "not-a-uuid"),
    );
    expect(refusing).toEqual([]);
  });
});

describe("2. no invented maximum on integers the reference leaves unbounded or clamps", () => {
  const big = 3_000_000_000;
  it.each([
    ["searchPeople", "offset"],
    ["searchPeople", "min_company_months"],
    ["searchPeople", "min_role_months"],
    ["listTargetMembers", "limit"],
    ["listTargetMembers", "offset"],
  ])("%s %s", (id, name) => {
    const schema = parameter(id, "query", name).schema;
    expect(valid(schema, big)).toBe(true);
    expect(valid(schema, 1.5)).toBe(false);
  });

  it("the search echo carries such an offset and month values", () => {
    expect(
      valid(component("PeopleSearchMeta"), {
        count: 0,
        limit: 25,
        offset: big,
        has_more: false,
        total: 0,
        total_capped: false,
      }),
    ).toBe(true);
    expect(valid(component("PeopleSearchFilters"), { min_company_months: big, min_role_months: big })).toBe(true);
  });

  it("documented bounds stay", () => {
    expect(valid(parameter("searchPeople", "query", "limit").schema, 101)).toBe(false);
    expect(valid(parameter("searchPeople", "query", "offset").schema, -1)).toBe(false);
    expect(valid(parameter("searchPeople", "query", "min_role_months").schema, 0)).toBe(false);
  });
});

describe("3. lengths 'after trimming' are checked after trimming", () => {
  const padded = `  ${"n".repeat(80)}\t `;
  it.each(["createSavedQuery", "createList"])("%s name", (id) => {
    const name = requestSchema(id).properties?.name ?? deref<any>(doc, requestSchema(id)).properties.name;
    expect(valid(name, padded)).toBe(true);
    expect(valid(name, "a")).toBe(true);
    expect(valid(name, " a b ")).toBe(true);
    expect(valid(name, "n".repeat(81))).toBe(false);
    expect(valid(name, ` ${"n".repeat(81)} `)).toBe(false);
    expect(valid(name, "   ")).toBe(false);
    expect(valid(name, "")).toBe(false);
  });

  it("a long Slack channel value is not one of the preferences operation's 400 causes", () => {
    const body = component("UpdatePreferencesRequest");
    expect(valid(body, { slack_channel_id: ` ${"C".repeat(64)} `, slack_channel_name: "n".repeat(200) })).toBe(true);
    // What is stored stays bounded.
    const stored = deref<any>(doc, component("NotificationPreferences")).properties;
    expect(valid(stored.slack_channel_id, "C".repeat(65))).toBe(false);
    expect(valid(stored.slack_channel_name, "n".repeat(81))).toBe(false);
  });
});

describe("4. the member list's query string is not framework-validated", () => {
  it.each(["listTargetMembers", "setTargetMemberStatus"])(
    "%s takes any status, stint, depth and timestamp text",
    (id) => {
      expect(valid(parameter(id, "query", "status").schema, "pending")).toBe(true);
      expect(valid(parameter(id, "query", "stint").schema, "former")).toBe(true);
      expect(valid(parameter(id, "query", "depth").schema, "deep")).toBe(true);
      expect(valid(parameter(id, "query", "first_seen_after").schema, "2026-01-01T00:00:00")).toBe(true);
    },
  );
});

describe("5. a saved query's stored values are never null or empty ('null and empty-string values are dropped')", () => {
  const saved = (query: Record<string, unknown>) => ({
    id: "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    name: "Berlin backend",
    query,
    created_at: "2026-11-20T10:00:00Z",
  });
  it("refuses null and the empty string, keeps 0 and false", () => {
    expect(valid(component("SavedQuery"), saved({ school: null }))).toBe(false);
    expect(valid(component("SavedQuery"), saved({ school: "" }))).toBe(false);
    expect(valid(component("SavedQuery"), saved({ min_company_months: 0, open_to_work: false, school: "tum" }))).toBe(
      true,
    );
    expect(valid(component("SavedQuery"), saved({}))).toBe(true);
  });
});

describe("6. min_role_months requires role_family or roles, declared once in the spec", () => {
  const rules = paramDependencies(doc, declared("searchPeople"));
  it("is declared on the parameter with the reference's message", () => {
    expect(rules).toEqual([
      {
        parameter: "min_role_months",
        anyOf: ["role_family", "roles"],
        message: "min_role_months requires role_family",
      },
    ]);
  });

  it("is broken only by min_role_months without role_family or roles", () => {
    const broken = (query: string) => brokenDependency(rules, sentIn(queryValues(new URLSearchParams(query))));
    expect(broken("min_role_months=3")).toBe("min_role_months requires role_family");
    expect(broken("min_role_months=3&role_family=")).toBe("min_role_months requires role_family");
    expect(broken("min_role_months=3&role_family=engineering")).toBeUndefined();
    expect(broken("min_role_months=3&roles=engineering:24")).toBeUndefined();
    expect(broken("role_family=engineering")).toBeUndefined();
    expect(broken("")).toBeUndefined();
  });

  it("a malformed declaration is refused, not ignored", () => {
    const bad = { name: "x", in: "query", schema: {}, "x-requires": { anyOf: "role_family" } };
    expect(() => paramDependencies(doc, [bad])).toThrow(/x-requires on query parameter x/);
  });
});

describe("7. the sandbox README says 404 for an unknown id, as the sandbox answers", () => {
  it("no longer claims the documented 400 for saved-query and List reads", () => {
    const readme = readFileSync(new URL("../../mocks/sandbox/README.md", import.meta.url), "utf8");
    expect(readme).not.toMatch(/documents no 404/);
    expect(readme).toMatch(/saved-query reads, List reads, List deletes, List member writes/);
  });
});

describe("8. decisions made on review", () => {
  const since = parameter("listEvents", "query", "since").schema;
  it.each([
    "2026",
    "2026-11",
    "2026-11-18T24:00",
    "2026-11-18T24:00:00Z",
    "2026-11-18T09:30:00+0100",
    "20261118T0930+01:00",
  ])("since accepts %s", (value) => expect(valid(since, value)).toBe(true));
  it.each(["2026-13", "2026-W48-5", "2026-331", "2026-11-18T24:30", "2026-11-18T24:00:00.5Z", "2026-02-30"])(
    "since refuses %s",
    (value) => expect(valid(since, value)).toBe(false),
  );

  it("WebhookStatus is open to other keys but never carries the URL or the secret", () => {
    expect(valid(component("WebhookStatus"), { configured: true, last_changed_at: "2026-11-20T10:00:00Z" })).toBe(true);
    expect(valid(component("WebhookStatus"), { configured: true, webhook_url: "https://hooks.example.com" })).toBe(
      false,
    );
    expect(valid(component("WebhookStatus"), {})).toBe(false);
  });

  // One rule (DECISIONS 1): every key a resource names is required unless the reference qualifies it.
  const QUALIFIED: Record<string, string[]> = {
    Person: ["skills", "languages"],
    CompactPerson: ["match"],
    TargetMember: [],
    Event: [],
    List: [],
    SavedQuery: [],
    Target: ["result_limit"],
    TargetJob: [],
    Position: [],
    Education: [],
    Certification: [],
    Codehost: [],
    Social: [],
    ExploringReason: [],
    ExploringInterpretation: [],
    ExploringSegment: [],
    ExploringEvidence: ["source"],
    MatchRole: ["company"],
    CompanyOrbit: [],
    NotificationPreferences: [],
  };
  it.each(Object.entries(QUALIFIED))("%s requires every key but the qualified ones", (name, optional) => {
    const schema = deref<any>(doc, component(name));
    const keys = Object.keys(schema.properties);
    const required = new Set<string>(schema.required ?? []);
    const unrequired = keys.filter((k) => !optional.includes(k) && !required.has(k));
    // The rule and the way out come first: the deep equality below then shows the whole difference.
    expect(
      unrequired,
      `house rule (spec/DECISIONS.md 1: every key a resource names is required): ${name} does not require ` +
        `${unrequired.map((k) => `\`${k}\``).join(", ")}: add it to ${name}'s \`required\` (the sandbox must then ` +
        "produce it), or, if the reference qualifies it as optional, add it to QUALIFIED here with the quote in " +
        "spec/DECISIONS.md",
    ).toEqual([]);
    expect([...required].sort()).toEqual(keys.filter((k) => !optional.includes(k)).sort());
  });

  it("Event's person requires every key", () => {
    const person = deref<any>(doc, component("Event")).properties.person;
    expect([...person.required].sort()).toEqual(Object.keys(person.properties).sort());
  });
});

describe("9. gaps found by tracing each statement of the reference to the spec (spec/trace.yaml)", () => {
  it("the search echo excludes pagination and view", () => {
    // "query (effective saveable filter object; excludes pagination and view)"
    expect(valid(component("PeopleSearchFilters"), { company: "northwind", include_flagged: true })).toBe(true);
    for (const key of ["limit", "offset", "view"])
      expect(
        valid(component("PeopleSearchFilters"), { company: "northwind", [key]: key === "view" ? "full" : 25 }),
      ).toBe(false);
  });

  it("a blank Target input is refused by the schema; surrounding spaces are kept within 1-400", () => {
    // "1-400 chars before trimming; blank after trimming is rejected"
    const body = (value: string) => valid(requestSchema("createTarget"), { input: value });
    for (const blank of ["   ", "\t\n", "\u00a0"]) expect(body(blank), JSON.stringify(blank)).toBe(false);
    expect(body(" Contoso ")).toBe(true);
    expect(body("x".repeat(400))).toBe(true);
    expect(body(" ".repeat(400) + "x")).toBe(false);
  });
});

describe("10. decisions re-read against the text (spec/DECISIONS.md 1, 22)", () => {
  it("CompactPerson.current requires its three keys, as every unqualified key (rule 1)", () => {
    const current = deref<any>(doc, component("CompactPerson")).properties.current;
    expect(valid(current, { company: "Contoso", title: null, months: null })).toBe(true);
    expect(valid(current, { company: "Contoso" })).toBe(false);
    expect(valid(current, null)).toBe(true);
  });

  it("a List membership id is a UUID ('members use UUIDs')", () => {
    const id = parameter("updateListMember", "path", "membershipId").schema;
    expect(valid(id, "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f")).toBe(true);
    expect(valid(id, "membership-1")).toBe(false);
  });
});
