/** Two organizations never see each other's saved queries, Lists, Targets or events; platform keys act for one. */
import { beforeAll, describe, expect, it } from "vitest";
import { ORGS } from "../contract/auth.js";
import type { OperationId } from "../contract/context.js";
import { expectNotVisible, useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox({ resetEach: false });
let query: any;
let list: any;
let target: any;
const PRIYA = "https://network.example.com/in/priya-raman";

beforeAll(async () => {
  query = (
    await sb.request("POST", "/queries", { body: { name: "Acme secret search", query: { company: "northwind" } } })
  ).body.data;
  list = (await sb.request("POST", "/lists", { body: { name: "Acme shortlist" } })).body.data;
  await sb.request("POST", `/lists/${list.id}/members`, { body: { urls: ["lucas-moreau"] } });
  target = await sb.northwind({ auto_admit: true });
  await sb.emit({ target_id: target.id, count: 10 });
  await sb.emit({ person: "lucas-moreau", count: 2 });
});

/** Not visible, and no acme data in the answer. */
function notVisible(res: { status: number; body: any }, operationId: OperationId) {
  expectNotVisible(sb, res, operationId);
  expect(JSON.stringify(res.body)).not.toMatch(/northwind|priya|lucas|member_count/i);
}

describe("globex cannot see acme's resources", () => {
  it("saved queries", async () => {
    expect((await sb.get("/queries", { key: "globex" })).body).toEqual({ data: [], meta: { count: 0 } });
    notVisible(await sb.get(`/queries/${query.id}`, { key: "globex" }), "getSavedQuery");
  });

  it("Lists: listing, reading by id or name, deleting, adding and updating members", async () => {
    const lists = (await sb.get("/lists", { key: "globex" })).body.data;
    expect(lists.map((l: any) => l.default_key)).toEqual(["origin"]);
    expect(lists[0].id).not.toBe((await sb.get("/lists/saved%20people")).body.data.id);
    notVisible(await sb.get(`/lists/${list.id}`, { key: "globex" }), "getList");
    notVisible(await sb.get("/lists/acme%20shortlist", { key: "globex" }), "getList");
    notVisible(await sb.request("DELETE", `/lists/${list.id}`, { key: "globex" }), "deleteList");
    notVisible(
      await sb.request("POST", `/lists/${list.id}/members`, { key: "globex", body: { urls: ["priya-raman"] } }),
      "addListMembers",
    );
    const membership = (await sb.get(`/lists/${list.id}`)).body.data.members[0];
    notVisible(
      await sb.request("PATCH", `/lists/${list.id}/members/${membership.id}`, { key: "globex", body: { stage: "x" } }),
      "updateListMember",
    );
    expect((await sb.get(`/lists/${list.id}`)).body.data).toMatchObject({ name: "Acme shortlist", member_count: 1 });
  });

  it("Targets and their members", async () => {
    expect((await sb.get("/targets", { key: "globex" })).body).toEqual({ data: [], meta: { count: 0 } });
    notVisible(await sb.get(`/targets/${target.id}`, { key: "globex" }), "getTarget");
    notVisible(
      await sb.request("PATCH", `/targets/${target.id}`, { key: "globex", body: { title: "Mine" } }),
      "updateTarget",
    );
    notVisible(await sb.request("POST", `/targets/${target.id}/retry`, { key: "globex" }), "retryTarget");
    notVisible(await sb.get(`/targets/${target.id}/members`, { key: "globex" }), "listTargetMembers");
    notVisible(
      await sb.request("POST", `/targets/${target.id}/members`, {
        key: "globex",
        body: { status: "excluded", apply: "filter" },
      }),
      "setTargetMemberStatus",
    );
    notVisible(await sb.request("DELETE", `/targets/${target.id}`, { key: "globex" }), "deleteTarget");
    expect((await sb.get(`/targets/${target.id}`)).body.data).toMatchObject({
      name: "Northwind Labs",
      watching_count: 7,
    });
    expect((await sb.get("/me", { key: "globex" })).body.data.quota.watch_slots.used).toBe(0);
  });

  it("events: acme's watching members and List members are invisible to globex; acme's List is 404", async () => {
    const mine = (await sb.get("/events?limit=100")).body.data;
    expect(mine.length).toBe(12);
    const theirs = (await sb.get("/events?limit=100", { key: "globex" })).body.data;
    expect(theirs).toEqual([]);
    const res = await sb.get(`/events?list=${list.id}`, { key: "globex" });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe("not_found");
    // Once globex watches Priya itself, her (earlier) diffs are visible to it too: diffs are about people.
    const own = await sb.createTarget({ input: "Northwind Labs", auto_admit: true, result_limit: 1 }, "globex");
    await sb.finish(own.id);
    expect((await sb.members(own.id, "", "globex")).map((m) => m.network_url)).toEqual([PRIYA]);
    const shared = (await sb.get("/events?limit=100", { key: "globex" })).body.data;
    expect(new Set(shared.map((e: any) => e.person.network_url))).toEqual(new Set([PRIYA]));
  });
});

describe("platform and locked organizations", () => {
  it("a platform key acts for the organization named by X-Service-Org-Id", async () => {
    const asAcme = await sb.get("/queries", { key: "platform", headers: { "x-service-org-id": ORGS.acme.id } });
    expect(asAcme.body.data.map((q: any) => q.id)).toEqual([query.id]);
    const asGlobex = await sb.get("/queries", { key: "platform", headers: { "x-service-org-id": ORGS.globex.id } });
    expect(asGlobex.body.data).toEqual([]);
    const fresh = await sb.get("/targets", {
      key: "platform",
      headers: { "x-service-org-id": "7d0c5a3e-1b2f-4c6d-9e8f-0a1b2c3d4e5f" },
    });
    expect(fresh.body).toEqual({ data: [], meta: { count: 0 } });
    const missing = await sb.get("/targets", { key: "platform" });
    expect(missing.status).toBe(400);
  });

  it("a locked organization gets 402 on the stateful endpoints", async () => {
    for (const [method, path, body] of [
      ["GET", "/targets"],
      ["GET", "/lists"],
      ["GET", "/events"],
      ["POST", "/queries", { name: "x", query: {} }],
      ["GET", "/signals/preferences"],
    ] as const) {
      const res = await sb.request(method, path, { key: "initech", ...(body ? { body } : {}) });
      expect(res.status, path).toBe(402);
      expect(res.body.error.type).toBe("payment_required");
    }
  });
});
