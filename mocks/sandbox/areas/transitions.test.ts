/**
 * Every row of the reference's "States and transitions" tables (Target job; Target member status), one test
 * per row, against the in-process sandbox (every response validated against the spec).
 */
import { describe, expect, it } from "vitest";
import { useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();

async function jobType(targetId: string): Promise<string> {
  const jobs = (await sb.control("GET", "/__sandbox/jobs")).body.data as { target_id: string; job: { type: string } }[];
  return jobs.find((j) => j.target_id === targetId)!.job.type;
}

/** A Northwind Labs Target whose first job was stepped `steps` phases (0: pending, 1-3: running, 4+: done). */
async function northwindAt(status: string, steps: number): Promise<any> {
  const t = await sb.createTarget({ input: "Northwind Labs" });
  if (steps > 0) await sb.control("POST", "/__sandbox/jobs/advance", { target_id: t.id, steps });
  const read = (await sb.get(`/targets/${t.id}`)).body.data;
  expect(read.job.status).toBe(status);
  return read;
}

const statuses = (rows: any[]) => Object.fromEntries(rows.map((m) => [m.full_name, m.status]));

describe("Target job transitions", () => {
  it("create Target, kind people, always: a new Target with a new job pending/queued (track_people)", async () => {
    const body = { kind: "people", input: "Backend engineers in Berlin" };
    const a = await sb.request("POST", "/targets", { body });
    const b = await sb.request("POST", "/targets", { body });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    for (const res of [a, b])
      expect(res.body.data.job).toMatchObject({
        status: "pending",
        phase: "queued",
        total: 0,
        completed: 0,
        failed: 0,
        error: null,
      });
    expect(await jobType(a.body.data.id)).toBe("track_people");
    expect((await sb.get("/targets")).body.meta.count).toBe(2);
  });

  it("create Target, kind company, no existing company Target for the resolved company: new job pending/queued (202)", async () => {
    const res = await sb.request("POST", "/targets", { body: { input: "Northwind Labs" } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      kind: "company",
      name: "Northwind Labs",
      job: { status: "pending", phase: "queued" },
    });
    expect(await jobType(res.body.data.id)).toBe("track_company");
  });

  it.each([
    ["pending", 0],
    ["running", 1],
    ["done", 10],
  ])(
    "create Target, kind company, existing Target whose latest job is %s: unchanged, the existing Target with 200",
    async (status, steps) => {
      const before = await northwindAt(status, steps);
      // The same company, spelled as a key, a URL and a domain, with other options: still the same Target.
      for (const input of [
        "northwind-labs",
        "https://www.network.example.com/company/northwind-labs/",
        "northwindlabs.example",
      ]) {
        const again = await sb.request("POST", "/targets", { body: { input, auto_admit: true, result_limit: 1 } });
        expect(again.status).toBe(200);
        expect(again.body.data).toEqual(before);
      }
      expect((await sb.get("/targets")).body.meta.count).toBe(1);
    },
  );

  it("create Target, kind company, existing Target whose latest job failed: a new job pending/queued on it (202)", async () => {
    const first = await sb.createTarget({ input: "Northwind Labs" });
    await sb.finish(first.id, "failed");
    const failed = (await sb.get(`/targets/${first.id}`)).body.data;
    expect(failed.job.status).toBe("failed");
    const again = await sb.request("POST", "/targets", { body: { input: "Northwind Labs" } });
    expect(again.status).toBe(202);
    expect(again.body.data.id).toBe(first.id);
    expect(again.body.data.job.id).not.toBe(failed.job.id);
    expect(again.body.data.job).toMatchObject({ status: "pending", phase: "queued", error: null });
  });

  it.each([
    ["people", { kind: "people", input: "Data engineers" }, "track_people"],
    ["company", { input: "Contoso Robotics" }, "track_company"],
  ])(
    "POST /targets/{id}/retry, no pending or running job (%s): a new job pending/queued, 202",
    async (_kind, body, type) => {
      const t = await sb.createTarget(body);
      await sb.finish(t.id);
      const done = (await sb.get(`/targets/${t.id}`)).body.data;
      const res = await sb.request("POST", `/targets/${t.id}/retry`);
      expect(res.status).toBe(202);
      expect(res.body.data.job.id).not.toBe(done.job.id);
      expect(res.body.data.job).toMatchObject({ status: "pending", phase: "queued" });
      expect(res.body.data.member_count).toBe(done.member_count);
      expect(await jobType(t.id)).toBe(type);
    },
  );

  it.each([
    ["pending", 0],
    ["running", 2],
  ])("POST /targets/{id}/retry while a job is %s: unchanged, the current Target with 202", async (status, steps) => {
    const before = await northwindAt(status, steps);
    const res = await sb.request("POST", `/targets/${before.id}/retry`);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual(before);
  });

  it("a job can end done with a non-zero job.failed; job.error then carries the error", async () => {
    const t = await sb.createTarget({ input: "Northwind Labs" });
    await sb.finish(t.id, "partial");
    const { job, member_count } = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(job).toMatchObject({ status: "done", phase: "done", failed: 1, error: "1 profiles could not be fetched" });
    expect(job.completed).toBe(job.total - job.failed);
    expect(member_count).toBe(job.total - 1);
  });
});

describe("Target member status transitions", () => {
  it("discovery adds a member with auto_admit false: proposed; an existing member keeps its status when found again", async () => {
    const t = await sb.northwind();
    const rows = await sb.members(t.id);
    expect(rows).toHaveLength(7);
    expect(rows.every((m) => m.status === "proposed")).toBe(true);
    const [a, b] = rows;
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [a.network_url] } });
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "watching", urls: [b.network_url] } });
    await sb.finish(t.id); // the refresh_watch job
    await sb.request("POST", `/targets/${t.id}/retry`);
    await sb.finish(t.id);
    const again = await sb.members(t.id);
    expect(again).toHaveLength(7);
    expect(statuses(again)).toMatchObject({ [a.full_name]: "excluded", [b.full_name]: "watching" });
    expect(again.filter((m) => m.status === "proposed")).toHaveLength(5);
    expect(again.find((m) => m.full_name === a.full_name).first_seen_at).toBe(a.first_seen_at);
  });

  it("discovery adds a member with auto_admit true: watching (and enriched by the job)", async () => {
    const t = await sb.northwind({ auto_admit: true });
    const rows = await sb.members(t.id);
    expect(rows).toHaveLength(7);
    expect(rows.every((m) => m.status === "watching" && m.enriched_at !== null)).toBe(true);
    expect(t).toMatchObject({ watching_count: 7, proposed_count: 0, enriched_count: 7, member_count: 7 });
  });

  it("PATCH auto_admit true: proposed members become watching, excluded stay excluded, lists synchronized, no enrichment enqueued", async () => {
    const t = await sb.northwind();
    const [x] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [x.network_url] } });
    const res = await sb.request("PATCH", `/targets/${t.id}`, { body: { auto_admit: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      auto_admit: true,
      watching_count: 6,
      proposed_count: 0,
      excluded_count: 1,
      enriched_count: 0,
    });
    expect(res.body.data.job.id).toBe(t.job.id); // no job enqueued
    const rows = await sb.members(t.id);
    expect(statuses(rows)[x.full_name]).toBe("excluded");
    expect(rows.filter((m) => m.status === "watching").every((m) => m.enriched_at === null)).toBe(true);
    const list = (await sb.get("/lists")).body.data.find((l: any) => l.source_watch_id === t.id);
    expect(list.member_count).toBe(6);
  });

  it("PATCH auto_admit false: member statuses unchanged; it affects only future discovery", async () => {
    const watched = await sb.northwind({ auto_admit: true });
    const res = await sb.request("PATCH", `/targets/${watched.id}`, { body: { auto_admit: false } });
    expect(res.body.data).toMatchObject({ auto_admit: false, watching_count: 7, proposed_count: 0 });
    // A Target whose first discovery failed: members found after the PATCH are proposed.
    const t = await sb.createTarget({ input: "Contoso Robotics", auto_admit: true });
    await sb.finish(t.id, "failed");
    await sb.request("PATCH", `/targets/${t.id}`, { body: { auto_admit: false } });
    await sb.request("POST", `/targets/${t.id}/retry`);
    await sb.finish(t.id);
    const rows = await sb.members(t.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((m) => m.status === "proposed")).toBe(true);
  });

  it("GET /targets with auto_admit true and proposed members: they become watching and generated lists are synchronized", async () => {
    const t = await sb.northwind({ auto_admit: true });
    const [a, b] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "proposed", urls: [a.network_url, b.network_url] },
    });
    const single = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(single).toMatchObject({ proposed_count: 2, watching_count: 5 }); // GET /targets/{id} does not reconcile
    const list = await sb.get("/targets");
    expect(list.body.data[0]).toMatchObject({ id: t.id, proposed_count: 0, watching_count: 7 });
    const lists = (await sb.get("/lists")).body.data;
    expect(lists.find((l: any) => l.source_watch_id === t.id).member_count).toBe(7);
  });

  it("POST members status=watching (selected): watching; enqueues refresh_watch only when members need enrichment and no job is pending or running; lists synchronized", async () => {
    const t = await sb.northwind();
    const [a, b, c] = await sb.members(t.id);
    const res = await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "watching", urls: [a.network_url, b.network_url] },
    });
    expect(res.body.data.updated).toBe(2);
    const after = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(after.job).toMatchObject({ status: "pending", phase: "queued" });
    expect(after.job.id).not.toBe(t.job.id);
    expect(await jobType(t.id)).toBe("refresh_watch");
    expect((await sb.get("/lists")).body.data.find((l: any) => l.source_watch_id === t.id).member_count).toBe(2);
    // A job is pending: no second job.
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "watching", urls: [c.network_url] } });
    expect((await sb.get(`/targets/${t.id}`)).body.data.job.id).toBe(after.job.id);
    // The refresh enriches the three; accepting them again needs no enrichment: no new job.
    await sb.finish(t.id);
    const refreshed = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(refreshed).toMatchObject({
      watching_count: 3,
      enriched_count: 3,
      job: { status: "done", total: 3, completed: 3 },
    });
    const again = await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "watching", urls: [a.network_url, b.network_url, c.network_url] },
    });
    expect(again.body.data.updated).toBe(3); // rows already at the requested status count
    expect((await sb.get(`/targets/${t.id}`)).body.data.job.id).toBe(refreshed.job.id);
  });

  it("POST members status=watching (filter): every matching row, skipping existing excluded rows", async () => {
    const t = await sb.northwind();
    const [x] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [x.network_url] } });
    const res = await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "watching", apply: "filter", urls: [x.network_url] },
    });
    expect(res.body.data.updated).toBe(6); // urls are ignored in filter mode
    const rows = await sb.members(t.id);
    expect(statuses(rows)[x.full_name]).toBe("excluded");
    expect(rows.filter((m) => m.status === "watching")).toHaveLength(6);
    expect(await jobType(t.id)).toBe("refresh_watch");
  });

  it("POST members status=proposed: proposed, no enrichment; filter mode skips existing excluded rows", async () => {
    const t = await sb.northwind({ auto_admit: true });
    const [x] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [x.network_url] } });
    const jobBefore = (await sb.get(`/targets/${t.id}`)).body.data.job.id;
    const res = await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "proposed", apply: "filter" } });
    expect(res.body.data.updated).toBe(6);
    const after = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(after).toMatchObject({ proposed_count: 6, excluded_count: 1, watching_count: 0 });
    expect(after.job.id).toBe(jobBefore);
    // Selected mode has no skip rule: the excluded row is updated too.
    const sel = await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "proposed", urls: [x.network_url] },
    });
    expect(sel.body.data.updated).toBe(1);
    expect(statuses(await sb.members(t.id))[x.full_name]).toBe("proposed");
  });

  it("POST members status=excluded: excluded, no enrichment; filter mode updates every matching row, including already excluded", async () => {
    const t = await sb.northwind();
    const [x] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", urls: [x.network_url] } });
    const res = await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "excluded", apply: "filter" } });
    expect(res.body.data.updated).toBe(7);
    const after = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(after).toMatchObject({ excluded_count: 7, watching_count: 0, proposed_count: 0 });
    expect(after.job.id).toBe(t.job.id);
  });
});
