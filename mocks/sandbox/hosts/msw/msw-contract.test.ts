/**
 * The kit's consumer contract: one entry per distinct interaction (operation, parameter names, body shape,
 * status), response fields merged with their JSON types, kept across reset(), the same text whatever the order
 * of the requests; network errors leave nothing; the stateless handlers record too. The file format reads back
 * and refuses what it does not know.
 */
import { getResponse } from "msw";
import { describe, expect, it } from "vitest";
import {
  CONSUMER_CONTRACT_FORMAT,
  ConsumerContractError,
  parseConsumerContract,
} from "../../../../contract-core/consumer-contract.js";
import { createMockHandlers, createSandboxHandlers, mergeConsumerContracts } from "./msw.js";

const BASE = "http://localhost:5173/v1";
type Handlers = { handlers: Parameters<typeof getResponse>[0] };
const send = async (h: Handlers, path: string, key: string, init: { method?: string; body?: unknown } = {}) => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return getResponse(h.handlers, new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body }));
};
const ME = { name: "scratch-app", version: "2.1.0" };

describe("sandbox.consumerContract", () => {
  it("records each distinct interaction once, merges the fields, survives reset(), ignores order", async () => {
    const run = async (order: "forward" | "backward") => {
      const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
      const key = sandbox.keys.acme;
      const steps = [
        () => send(sandbox, "/people?limit=2", key),
        () => send(sandbox, "/people?limit=3", key), // same shape as the first: one interaction
        () => send(sandbox, "/people?limit=0", key), // 400
        () => send(sandbox, "/lists", key, { method: "POST", body: { name: "Shortlist" } }),
        () => send(sandbox, "/nowhere", key), // no operation: not recorded
      ];
      for (const step of order === "forward" ? steps : steps.reverse()) {
        await step();
        sandbox.reset();
      }
      sandbox.networkError("getAccount");
      await send(sandbox, "/me", key).catch(() => undefined); // a network error: no answer, nothing recorded
      const contract = sandbox.consumerContract(ME);
      sandbox.close();
      return contract;
    };
    const forward = await run("forward");
    expect(JSON.stringify(forward)).toBe(JSON.stringify(await run("backward")));
    expect(forward.format).toBe(CONSUMER_CONTRACT_FORMAT);
    expect(forward.consumer).toEqual(ME);
    expect(forward.interactions.map((i) => [i.operationId, i.status, i.request.query])).toEqual([
      ["createList", 201, []],
      ["searchPeople", 200, ["limit"]],
      ["searchPeople", 400, ["limit"]],
    ]);
    const [created, found] = forward.interactions;
    expect(created!.request.body).toEqual({ "": "object", "/name": "string" });
    expect(created!.response["/data/name"]).toBe("string");
    expect(found!.request.body).toBeNull();
    expect(found!.response).toMatchObject({ "/data": "array", "/data/*/slug": "string", "/meta/has_more": "boolean" });
    expect(Object.keys(found!.response)).toEqual([...Object.keys(found!.response)].sort());
    expect(JSON.stringify(forward)).not.toMatch(/Shortlist|20\d\d-\d\d-\d\d/); // shapes only: no values, no times
  });

  it("gives a value, not a view: a later request does not change a contract taken before", async () => {
    const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
    await send(sandbox, "/me", sandbox.keys.acme);
    const before = sandbox.consumerContract(ME);
    before.interactions[0]!.response["/added"] = "string";
    await send(sandbox, "/people?limit=1", sandbox.keys.acme);
    expect(sandbox.consumerContract(ME).interactions.map((i) => i.operationId)).toEqual(["getAccount", "searchPeople"]);
    expect(sandbox.consumerContract(ME).interactions[0]!.response["/added"]).toBeUndefined();
    expect(() => sandbox.consumerContract({ name: " ", version: "1" })).toThrow("needs a name");
    sandbox.close();
  });

  it("the stateless handlers record the examples they answer", async () => {
    const mock = createMockHandlers({ baseUrl: BASE });
    await send(mock, "/people/priya-raman", "any-key");
    const [one] = mock.consumerContract(ME).interactions;
    expect(one).toMatchObject({ operationId: "getPerson", status: 200, request: { path: ["slug"] } });
    expect(one!.response["/data/full_name"]).toBe("string");
  });
});

describe("parseConsumerContract", () => {
  it("reads what the kit writes and refuses anything else, naming the part", async () => {
    const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
    await send(sandbox, "/me", sandbox.keys.acme);
    const text = JSON.stringify(sandbox.consumerContract(ME), null, 2);
    sandbox.close();
    expect(parseConsumerContract(text, "a.json")).toEqual(JSON.parse(text));
    const broken = (edit: (doc: Record<string, any>) => void) => {
      const doc = JSON.parse(text);
      edit(doc);
      return () => parseConsumerContract(JSON.stringify(doc), "a.json");
    };
    expect(() => parseConsumerContract("{", "a.json")).toThrow("a.json: is not JSON");
    expect(broken((d) => (d.format = "pact/3"))).toThrow(ConsumerContractError);
    expect(broken((d) => (d.format = "pact/3"))).toThrow('format must be "talent-graph-consumer-contract/1"');
    expect(broken((d) => delete d.consumer.name)).toThrow("consumer.name must be a non-empty string");
    expect(broken((d) => delete d.interactions[0].status)).toThrow("interactions[0].status must be an HTTP status");
    expect(broken((d) => (d.interactions[0].response["/data"] = "text"))).toThrow(
      "interactions[0].response must be fields with JSON types",
    );
    expect(broken((d) => (d.interactions[0].request.query = "limit"))).toThrow("interactions[0].request must list");
  });
});

describe("mergeConsumerContracts", () => {
  it("one contract from several sandboxes (a page per test), the same whatever their order", async () => {
    const one = async (path: string) => {
      const sandbox = createSandboxHandlers({ baseUrl: BASE, timers: false });
      await send(sandbox, path, sandbox.keys.acme);
      sandbox.close();
      return sandbox.consumerContract(ME);
    };
    const [a, b, c] = [await one("/people?limit=1"), await one("/me"), await one("/people?limit=2")];
    const merged = mergeConsumerContracts([a, b, c]);
    expect(merged.interactions.map((i) => i.operationId)).toEqual(["getAccount", "searchPeople"]);
    expect(JSON.stringify(mergeConsumerContracts([c, b, a]))).toBe(JSON.stringify(merged));
    // The same interaction's fields are merged: the types seen in either.
    const nulled = structuredClone(a);
    nulled.interactions[0]!.response["/data/*/headline"] = "null";
    expect(mergeConsumerContracts([a, nulled]).interactions[0]!.response["/data/*/headline"]).toBe(
      `${[...new Set(["null", ...a.interactions[0]!.response["/data/*/headline"]!.split("|")])].sort().join("|")}`,
    );
    expect(() => mergeConsumerContracts([a, { ...b, consumer: { name: "other", version: "1" } }])).toThrow(
      "cannot be merged",
    );
  });
});
