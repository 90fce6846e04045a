/**
 * The sandbox acts on the values of the spec it loaded: a core built from a changed in-memory spec answers by
 * the change with no code edit (a page size, a clamp, a bound, an enum value), and a value the code needs and
 * the spec lacks fails closed, naming where it looked.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSpec, resolvePointer } from "../../../contract-core/index.js";
import { createSandboxCore, type SandboxCore } from "../core/core.js";
import { indexSpec, type JsonObject } from "./spec.js";
import { enumValues, parameterDefault, propertyBound, propertyClamp } from "./spec-values.js";

const T0 = Date.parse("2026-11-22T08:00:00.000Z");
const opened: SandboxCore[] = [];
afterEach(() => {
  for (const core of opened.splice(0)) core.close();
});

/** The bundled spec, copied, with `change` applied to it. */
function changedSpec(change: (doc: JsonObject) => void): JsonObject {
  const doc = structuredClone(loadSpec()) as unknown as JsonObject;
  change(doc);
  return doc;
}
const at = (doc: JsonObject, pointer: string) => {
  const node = resolvePointer(doc, pointer);
  if (typeof node !== "object" || node === null) throw new Error(`no ${pointer} in the spec`);
  return node as JsonObject;
};
/** A parameter's schema, found by its name (never by its position). */
const parameterSchema = (doc: JsonObject, path: string, method: string, name: string) => {
  const params = at(doc, `/paths/${path.replaceAll("/", "~1")}/${method}`).parameters as JsonObject[];
  const param = params.find((p) => p.name === name);
  if (!param) throw new Error(`no parameter ${name} of ${method} ${path}`);
  return param.schema as JsonObject;
};

function open(doc: JsonObject = loadSpec() as unknown as JsonObject): SandboxCore {
  const core = createSandboxCore({ spec: doc, rateLimit: false, jobFailureRate: 0, now: () => T0, timers: false });
  opened.push(core);
  return core;
}
async function call(core: SandboxCore, method: string, url: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${core.keys[0]!.key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await core.handle({
    method,
    url: `/v1${url}`,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.body === undefined ? undefined : JSON.parse(res.body) };
}

describe("a changed spec changes the sandbox's answer with no code edit", () => {
  it("the default page size of GET /people and GET /events is the spec's", async () => {
    const before = await call(open(), "GET", "/people");
    const original = parameterSchema(loadSpec() as never, "/people", "get", "limit").default as number;
    expect(before.body.data).toHaveLength(original);
    expect(original).not.toBe(20);
    const doc = changedSpec((d) => {
      parameterSchema(d, "/people", "get", "limit").default = 20;
      parameterSchema(d, "/events", "get", "limit").default = 3;
    });
    const core = open(doc);
    const people = await call(core, "GET", "/people");
    expect(people.status).toBe(200);
    expect(people.body.data).toHaveLength(20);
    expect(people.body.meta.limit).toBe(20);
    expect((await call(core, "GET", "/people?limit=7")).body.data).toHaveLength(7);
    const events = await call(core, "GET", "/events");
    expect(events.body.meta.limit).toBe(3);
  });

  it("an EventField value added to the spec is taken by PUT /signals/preferences and GET /events?type=", async () => {
    const unchanged = open();
    expect((await call(unchanged, "PUT", "/signals/preferences", { fields: ["skills"] })).status).toBe(400);
    expect((await call(unchanged, "GET", "/events?type=skills")).status).toBe(400);
    const doc = changedSpec((d) => {
      (at(d, "/components/schemas/EventField").enum as string[]).push("skills");
    });
    const core = open(doc);
    const put = await call(core, "PUT", "/signals/preferences", { fields: ["skills", "headline"] });
    expect(put.status).toBe(200);
    expect(put.body.data.fields).toEqual(["skills", "headline"]);
    const bad = await call(core, "PUT", "/signals/preferences", { fields: ["nope"] });
    expect(bad.body.error.message).toContain("skills");
    const events = await call(core, "GET", "/events?type=skills");
    expect(events.status).toBe(200);
    expect(events.body.data).toEqual([]);
  });

  it("the stored email count is the spec's", async () => {
    const doc = changedSpec((d) => {
      at(d, "/components/schemas/NotificationPreferences/properties/emails").maxItems = 2;
    });
    const emails = ["a@x.test", "b@x.test", "c@x.test"];
    const put = await call(open(doc), "PUT", "/signals/preferences", { emails });
    expect(put.body.data.emails).toEqual(["a@x.test", "b@x.test"]);
    expect((await call(open(), "PUT", "/signals/preferences", { emails })).body.data.emails).toEqual(emails);
  });
});

describe("the preferences' defaults are the spec's", () => {
  it("GET /signals/preferences answers the stored shape's defaults, which the spec's default example shows", async () => {
    const doc = loadSpec() as unknown as JsonObject;
    const props = at(doc, "/components/schemas/NotificationPreferences/properties");
    const example = at(doc, "/components/examples/PreferencesDefault").value as { data: Record<string, unknown> };
    const { org_id: _, ...shown } = example.data;
    const defaults = Object.fromEntries(Object.keys(shown).map((k) => [k, (props[k] as JsonObject).default]));
    expect(defaults).toEqual(shown);
    const changed = changedSpec((d) => {
      at(d, "/components/schemas/NotificationPreferences/properties/fields").default = ["headline"];
    });
    const res = await call(open(changed), "GET", "/signals/preferences");
    expect(res.body.data.fields).toEqual(["headline"]);
  });
});

describe("spec-values reads fail closed", () => {
  it("a default, bound, clamp or enum the spec lacks throws, naming where it looked", () => {
    const doc = changedSpec((d) => {
      delete parameterSchema(d, "/people", "get", "limit").default;
      delete at(d, "/components/schemas/NotificationPreferences/properties/emails").maxItems;
      delete at(d, "/components/schemas/CreateTargetRequest/properties/result_limit")["x-clamp"];
      delete at(d, "/components/schemas/EventField").enum;
    });
    const spec = indexSpec(doc);
    expect(() => parameterDefault(spec, "searchPeople", "limit")).toThrow("searchPeople limit default");
    expect(() => propertyBound(spec, "NotificationPreferences", "emails", "maxItems")).toThrow(/emails maxItems/);
    expect(() => propertyClamp(spec, "CreateTargetRequest", "result_limit")).toThrow(/result_limit x-clamp/);
    expect(() => enumValues(spec, "EventField")).toThrow(/EventField enum/);
    const whole = indexSpec(loadSpec() as unknown as JsonObject);
    expect(propertyClamp(whole, "CreateTargetRequest", "result_limit").maximum).toBeGreaterThan(1);
  });
});
