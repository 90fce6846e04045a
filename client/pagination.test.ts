import { describe, expect, it } from "vitest";
import { isTalentGraphError, paginatePeople, paginateTargetMembers } from "./index.js";
import { ORG_ID, fakeFetch, json, testClient } from "./fixtures/fake.js";

const row = (n: number) => ({ slug: `person-${n}`, full_name: `Person ${n}`, network_url: `https://n.example/${n}` });

/** GET /people answered from `total` rows; has_more is true when the page is full. */
function peopleService(total: number, serverLimit?: number) {
  return fakeFetch((request) => {
    const url = new URL(request.url);
    const limit = serverLimit ?? Number(url.searchParams.get("limit") ?? 25);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => row(offset + i));
    return json({
      data,
      query: {},
      meta: { count: data.length, limit, offset, has_more: data.length === limit, total },
    });
  });
}

async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe("paginatePeople", () => {
  it("advances offset by meta.limit while has_more, keeping the query", async () => {
    const fetch = peopleService(60);
    const { client } = testClient(fetch);
    const pages = await collect(paginatePeople(client, { nl: "staff engineers in Berlin", limit: 25 }));
    expect(pages.map((page) => page.data.length)).toEqual([25, 25, 10]);
    expect(fetch.calls.map((call) => call.url.searchParams.get("offset"))).toEqual(["0", "25", "50"]);
    expect(fetch.calls.every((call) => call.url.searchParams.get("nl") === "staff engineers in Berlin")).toBe(true);
  });

  it("stops on a final empty page (has_more is true when a page is full)", async () => {
    const fetch = peopleService(50);
    const pages = await collect(paginatePeople(testClient(fetch).client, { limit: 25 }));
    expect(pages.map((page) => page.data.length)).toEqual([25, 25, 0]);
  });

  it("steps by the limit the service reports, from the given offset", async () => {
    const fetch = peopleService(100, 20);
    await collect(paginatePeople(testClient(fetch).client, { offset: 40, limit: 50 }));
    expect(fetch.calls.map((call) => call.url.searchParams.get("offset"))).toEqual(["40", "60", "80", "100"]);
  });

  it("honours maxPages", async () => {
    const fetch = peopleService(1000);
    const pages = await collect(paginatePeople(testClient(fetch).client, {}, { maxPages: 2 }));
    expect(pages).toHaveLength(2);
    expect(fetch.calls).toHaveLength(2);
  });

  it("throws a TalentGraphError for a failed page after yielding the earlier ones", async () => {
    const fetch = fakeFetch((request) =>
      new URL(request.url).searchParams.get("offset") === "0"
        ? json({ data: [row(0)], query: {}, meta: { count: 1, limit: 1, offset: 0, has_more: true, total: 5 } })
        : json({ error: { type: "invalid_request", message: "offset must be >= 0" } }, 400),
    );
    const seen: number[] = [];
    const walk = async () => {
      for await (const page of paginatePeople(testClient(fetch).client, { limit: 1 })) seen.push(page.data.length);
    };
    await expect(walk()).rejects.toSatisfy((error) => isTalentGraphError(error) && error.type === "invalid_request");
    expect(seen).toEqual([1]);
  });
});

describe("paginateTargetMembers", () => {
  /** GET /targets/{id}/members answered from `total` rows; no has_more, only meta.count. */
  function membersService(total: number) {
    return fakeFetch((request) => {
      const url = new URL(request.url);
      const limit = Math.min(500, Math.max(1, Number(url.searchParams.get("limit") ?? 50)));
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const count = Math.max(0, Math.min(limit, total - offset));
      const data = Array.from({ length: count }, (_, i) => ({
        id: ORG_ID,
        network_url: `https://n.example/${offset + i}`,
        status: "watching",
      }));
      return json({ data, meta: { count: total } });
    });
  }

  it("steps offset by limit while below meta.count", async () => {
    const fetch = membersService(120);
    const { client } = testClient(fetch);
    const pages = await collect(paginateTargetMembers(client, ORG_ID, { status: "watching" }));
    expect(pages.map((page) => page.data.length)).toEqual([50, 50, 20]);
    expect(fetch.calls.map((call) => call.url.pathname)).toEqual(Array(3).fill(`/v1/targets/${ORG_ID}/members`));
    expect(fetch.calls.map((call) => call.url.searchParams.get("offset"))).toEqual(["0", "50", "100"]);
    expect(fetch.calls.every((call) => call.url.searchParams.get("status") === "watching")).toBe(true);
  });

  it("uses the limit as the service clamps it (1-500)", async () => {
    const fetch = membersService(1200);
    await collect(paginateTargetMembers(testClient(fetch).client, ORG_ID, { limit: 2000 }));
    expect(fetch.calls.map((call) => call.url.searchParams.get("offset"))).toEqual(["0", "500", "1000"]);
  });

  it("fetches one page when everything fits, and one page for an empty Target", async () => {
    const exact = membersService(50);
    expect(await collect(paginateTargetMembers(testClient(exact).client, ORG_ID))).toHaveLength(1);
    const empty = membersService(0);
    expect(await collect(paginateTargetMembers(testClient(empty).client, ORG_ID))).toHaveLength(1);
  });

  it("throws a TalentGraphError when the Target is not found", async () => {
    const fetch = fakeFetch(() => json({ error: { type: "not_found", message: "watch not found" } }, 404));
    await expect(collect(paginateTargetMembers(testClient(fetch).client, ORG_ID))).rejects.toMatchObject({
      status: 404,
      type: "not_found",
      message: "watch not found",
    });
  });
});
