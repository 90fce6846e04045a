/** Targets and their jobs: create rules, app_query mapping, list/get/patch/delete, counts, allocation, phases, speed. */
import { describe, expect, it } from "vitest";
import { NORTHWIND_ALUMNI, NORTHWIND_CURRENT, openStateful, useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();

describe("POST /targets", () => {
  it("rejects a missing, blank or over-long input and an invalid kind with 400 invalid_request", async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /input/],
      [{ input: "   " }, /input must not be blank/],
      [{ input: "x".repeat(401) }, /input/],
      [{ input: "Northwind Labs", kind: "team" }, /kind/],
      [{ input: "Northwind Labs", auto_admit: "yes" }, /auto_admit/],
      [{ input: "Northwind Labs", result_limit: 0 }, /result_limit/],
      [{ kind: "people", input: "x", app_query: "engineering" }, /app_query/],
      ["{not json", /JSON/],
    ];
    for (const [body, message] of cases) {
      const res = await sb.request("POST", "/targets", { body, invalidRequest: true });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
      expect(res.body.error.message).toMatch(message);
    }
    expect((await sb.get("/targets")).body.meta.count).toBe(0);
  });

  it("app_query: the route validates only that it is an object, so other shapes of known keys are not a 400", async () => {
    for (const app_query of [{ roles: "engineering" }, { skills: "go" }, { companyCurrent: "yes", extra: 1 }]) {
      const res = await sb.request("POST", "/targets", { body: { kind: "people", input: "Backend", app_query } });
      expect(res.status, JSON.stringify(app_query)).not.toBe(400);
    }
  });

  it.each([
    [{ certification: "Certified Kubernetes Administrator" }],
    [{ certifications: ["CKA"] }],
    [{ keywords: "backend", certification: null }],
  ])("app_query %j: 400 certification_target_unsupported, nothing created", async (app_query) => {
    const res = await sb.request("POST", "/targets", { body: { kind: "people", input: "Cloud admins", app_query } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe("certification_target_unsupported");
    expect((await sb.get("/targets")).body.meta.count).toBe(0);
  });

  it("maps app_query the reference's way and stores input, filters, app and result_limit for people Targets", async () => {
    const app_query = {
      keywords: "backend engineer",
      company: "Northwind Labs",
      companyCurrent: true,
      location: "Berlin;Hamburg",
      excludeLocations: "Munich",
      roles: [
        {
          family: "Engineering",
          minMonths: 24,
          scope: "company",
          title: "Backend Engineer",
          titles: ["Staff Backend Engineer"],
          titleMatch: "contains",
        },
      ],
      companyLeftMinMonthsAgo: 6,
      skills: ["Go", "Kubernetes"],
      skillMatch: "all",
      languages: ["German"],
      excludeLanguages: ["French"],
      school: "Lakeside",
    };
    const t = await sb.createTarget({
      kind: "people",
      input: "Backend engineers in Germany",
      app_query,
      query: { seniorities: ["Staff"], unknown_key: 1 },
    });
    expect(t.name).toBe("Backend engineers in Germany");
    expect(t.network_url).toBeNull();
    expect(t.result_limit).toBeNull();
    expect(t.query).toEqual({
      input: "Backend engineers in Germany",
      filters: {
        keywords: "backend engineer",
        titles: ["Backend Engineer", "Staff Backend Engineer"],
        role_families: ["engineering"],
        skills: ["Go", "Kubernetes"],
        skill_match: "all",
        languages: ["German"],
        exclude_languages: ["French"],
        school: "Lakeside",
        location_ids: ["Berlin", "Hamburg"],
        exclude_location_ids: ["Munich"],
        recently_changed_jobs: true,
        seniorities: ["Staff"],
      },
      app: app_query,
      result_limit: 4000,
    });
    // company / companyCurrent never become company_ids; minMonths and scope are not mapped.
    expect(JSON.stringify(t.query.filters)).not.toMatch(/company_ids|Northwind|minMonths|scope/);
  });

  it("query.keywords overrides the keyword generated from input or app_query; betweenRoles true maps to recently_changed_jobs", async () => {
    const t = await sb.createTarget({
      kind: "people",
      input: "Data people",
      app_query: { keywords: "data", betweenRoles: true },
      query: { keywords: "data engineer" },
    });
    expect(t.query.filters).toEqual({ keywords: "data engineer", recently_changed_jobs: true });
    const plain = await sb.createTarget({ kind: "people", input: "  Data engineers, Lagos  " });
    expect(plain.name).toBe("Data engineers, Lagos");
    expect(plain.query.filters).toEqual({ keywords: "Data engineers, Lagos" });
  });

  it("clamps result_limit to the cap (4000); omitted means the deployment default (null); discovery respects it", async () => {
    const big = await sb.createTarget({ kind: "people", input: "engineer", result_limit: 10_000 });
    expect(big.result_limit).toBe(4000);
    expect(big.query.result_limit).toBe(4000);
    const small = await sb.createTarget({ input: "Northwind Labs", result_limit: 2 });
    expect(small.result_limit).toBe(2);
    await sb.finish(small.id);
    expect((await sb.get(`/targets/${small.id}`)).body.data).toMatchObject({ member_count: 2, job: { total: 2 } });
  });

  it("company Targets are unique per organization and resolved company; an unknown company is a separate Target whose job fails to resolve", async () => {
    const a = await sb.createTarget({ input: "Northwind Labs" });
    const b = await sb.createTarget({ input: "Fabrikam" });
    const c = await sb.createTarget({ input: "Umbrella Corp" });
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    await sb.finish(c.id);
    const failed = (await sb.get(`/targets/${c.id}`)).body.data;
    expect(failed).toMatchObject({
      network_url: null,
      member_count: 0,
      job: { status: "failed", phase: "resolving", error: "Company could not be resolved" },
    });
    // Another organization gets its own Target for the same company.
    const other = await sb.request("POST", "/targets", { key: "globex", body: { input: "Northwind Labs" } });
    expect(other.status).toBe(202);
    expect(other.body.data.id).not.toBe(a.id);
  });
});

describe("GET /targets and GET /targets/{id}", () => {
  it("lists newest first with meta.count; an unknown or foreign id is 404 not_found", async () => {
    const first = await sb.createTarget({ input: "Northwind Labs" });
    sb.tick();
    const second = await sb.createTarget({ kind: "people", input: "Designers" });
    const third = await sb.createTarget({ kind: "people", input: "Designers" }); // same millisecond: creation order decides
    const res = await sb.get("/targets");
    expect(res.body.meta.count).toBe(3);
    expect(res.body.data.map((t: any) => t.id)).toEqual([third.id, second.id, first.id]);
    for (const key of ["acme", "globex"] as const) {
      const missing = await sb.get(`/targets/${key === "acme" ? "00000000-0000-4000-8000-000000000000" : first.id}`, {
        key,
      });
      expect(missing.status).toBe(404);
      expect(missing.body.error.type).toBe("not_found");
    }
    expect((await sb.get("/targets/not-a-uuid", { invalidRequest: true })).status).toBe(400);
  });

  it("GET /targets/{id} answers { data: Target } for an existing Target: the one asked for, as the list shows it", async () => {
    const a = await sb.createTarget({ input: "Northwind Labs" });
    const b = await sb.createTarget({ kind: "people", input: "Designers" });
    const listed = (await sb.get("/targets")).body.data as { id: string }[];
    for (const t of [a, b]) {
      const res = await sb.get(`/targets/${t.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["data"]);
      expect(res.body.data).toEqual(listed.find((x) => x.id === t.id));
    }
  });

  it("counts: watching/proposed/excluded/enriched/member; current and alum count watching only; allocation_used = watching outside the graph", async () => {
    const t = await sb.northwind();
    expect(t).toMatchObject({
      member_count: 7,
      proposed_count: 7,
      watching_count: 0,
      current_count: 0,
      alum_count: 0,
      allocation_used: 0,
      in_graph_count: 0,
    });
    const rows = await sb.members(t.id);
    const names = rows.map((m) => m.full_name);
    for (const n of [...NORTHWIND_CURRENT, ...NORTHWIND_ALUMNI]) expect(names).toContain(n);
    const offGraph = rows.filter((m) => ![...NORTHWIND_CURRENT, ...NORTHWIND_ALUMNI].includes(m.full_name));
    expect(offGraph).toHaveLength(1);
    await sb.request("POST", `/targets/${t.id}/members?status=proposed`, {
      body: { status: "watching", apply: "filter" },
    });
    await sb.finish(t.id);
    const after = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(after).toMatchObject({
      watching_count: 7,
      proposed_count: 0,
      enriched_count: 7,
      allocation_used: 1,
      in_graph_count: 6,
    });
    expect(after.current_count + after.alum_count).toBe(7);
    const enriched = (await sb.members(t.id)).find((m) => m.network_url === offGraph[0].network_url);
    expect(offGraph[0]).toMatchObject({ full_name: null, is_current: null, enriched_at: null }); // a stub outside the graph
    expect(enriched.full_name).not.toBeNull();
    expect(after.current_count).toBe(3 + (enriched.is_current ? 1 : 0));
    // Exclude the off-graph member: allocation falls back to 0 and in_graph_count stays.
    await sb.request("POST", `/targets/${t.id}/members`, {
      body: { status: "excluded", urls: [offGraph[0].network_url] },
    });
    expect((await sb.get(`/targets/${t.id}`)).body.data).toMatchObject({
      watching_count: 6,
      allocation_used: 0,
      in_graph_count: 6,
      excluded_count: 1,
    });
  });

  it("GET /me quota.watch_slots.used counts distinct watching URLs not already in the graph, across Targets", async () => {
    const before = (await sb.get("/me")).body.data.quota.watch_slots;
    expect(before).toMatchObject({ used: 0, max: 1000, remaining: 1000 });
    const a = await sb.northwind({ auto_admit: true });
    const b = await sb.createTarget({ kind: "people", input: "Finance Manager", auto_admit: true });
    await sb.finish(b.id);
    const bt = (await sb.get(`/targets/${b.id}`)).body.data;
    const expected = a.allocation_used + bt.allocation_used;
    expect(expected).toBeGreaterThanOrEqual(2);
    const quota = (await sb.get("/me")).body.data.quota.watch_slots;
    expect(quota).toMatchObject({ used: expected, remaining: 1000 - expected });
    // Proposed and excluded members do not count.
    await sb.request("POST", `/targets/${b.id}/members`, { body: { status: "excluded", apply: "filter" } });
    expect((await sb.get("/me")).body.data.quota.watch_slots.used).toBe(a.allocation_used);
    expect((await sb.get("/me", { key: "globex" })).body.data.quota.watch_slots.used).toBe(0);
  });
});

describe("PATCH /targets/{id}", () => {
  it("an empty body is valid; title renames the Target and its default List; whitespace-only keeps the title", async () => {
    const t = await sb.northwind();
    const empty = await sb.request("PATCH", `/targets/${t.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(t);
    const renamed = await sb.request("PATCH", `/targets/${t.id}`, { body: { title: "  Northwind alumni watch  " } });
    expect(renamed.body.data.name).toBe("Northwind alumni watch");
    const lists = (await sb.get("/lists")).body.data;
    expect(lists.find((l: any) => l.source_watch_id === t.id).name).toBe("Northwind alumni watch");
    const blank = await sb.request("PATCH", `/targets/${t.id}`, { body: { title: "   " } });
    expect(blank.body.data.name).toBe("Northwind alumni watch");
    // A retry does not rename a titled Target.
    await sb.request("POST", `/targets/${t.id}/retry`);
    await sb.finish(t.id);
    expect((await sb.get(`/targets/${t.id}`)).body.data.name).toBe("Northwind alumni watch");
  });

  it("an empty body with auto_admit already true promotes proposed members", async () => {
    const t = await sb.northwind({ auto_admit: true });
    const [a] = await sb.members(t.id);
    await sb.request("POST", `/targets/${t.id}/members`, { body: { status: "proposed", urls: [a.network_url] } });
    const res = await sb.request("PATCH", `/targets/${t.id}`, { body: {} });
    expect(res.body.data).toMatchObject({ proposed_count: 0, watching_count: 7 });
  });

  it("rejects unknown properties, wrong types and out-of-range titles with 400; 404 for a foreign Target", async () => {
    const t = await sb.createTarget({ input: "Northwind Labs" });
    for (const body of [
      { kind: "people" },
      { auto_admit: "true" },
      { title: "" },
      { title: "x".repeat(81) },
      { result_limit: 5 },
    ]) {
      const res = await sb.request("PATCH", `/targets/${t.id}`, { body, invalidRequest: true });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    }
    const foreign = await sb.request("PATCH", `/targets/${t.id}`, { key: "globex", body: { auto_admit: true } });
    expect(foreign.status).toBe(404);
    expect((await sb.get(`/targets/${t.id}`)).body.data.auto_admit).toBe(false);
  });
});

describe("DELETE /targets/{id}", () => {
  it("204 without a body; the Target, its members and its default List are gone", async () => {
    const t = await sb.northwind({ auto_admit: true });
    const del = await sb.request("DELETE", `/targets/${t.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeNull();
    expect((await sb.get(`/targets/${t.id}`)).status).toBe(404);
    expect((await sb.get(`/targets/${t.id}/members`)).status).toBe(404);
    expect((await sb.get("/lists")).body.data.some((l: any) => l.source_watch_id === t.id)).toBe(false);
    expect((await sb.get("/me")).body.data.quota.watch_slots.used).toBe(0);
  });

  it("a Target of another organization is not deleted (404 not_found)", async () => {
    const t = await sb.createTarget({ input: "Northwind Labs" });
    const res = await sb.request("DELETE", `/targets/${t.id}`, { key: "globex" });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe("not_found");
    expect((await sb.get(`/targets/${t.id}`)).status).toBe(200);
  });
});

describe("jobs", () => {
  it("steps through queued -> resolving -> discovering -> enriching -> done, one phase per advance", async () => {
    const t = await sb.createTarget({ input: "northwindlabs.example", auto_admit: true });
    expect(t.name).toBe("northwindlabs.example"); // resolved asynchronously
    const seen: [string, string | null, string | null][] = [];
    for (let i = 0; i < 5; i++) {
      const cur = (await sb.get(`/targets/${t.id}`)).body.data;
      seen.push([cur.job.status, cur.job.phase, cur.network_url]);
      await sb.control("POST", "/__sandbox/jobs/advance", { target_id: t.id });
    }
    const url = "https://network.example.com/company/northwind-labs";
    expect(seen).toEqual([
      ["pending", "queued", null],
      ["running", "resolving", null],
      ["running", "discovering", url],
      ["running", "enriching", url],
      ["done", "done", url],
    ]);
    const done = (await sb.get(`/targets/${t.id}`)).body.data;
    expect(done).toMatchObject({
      name: "Northwind Labs",
      member_count: 7,
      enriched_count: 7,
      job: { total: 7, completed: 7, failed: 0, error: null },
    });
    // Advancing a finished job changes nothing.
    expect((await sb.control("POST", "/__sandbox/jobs/advance", { target_id: t.id })).body.data).toEqual([]);
  });

  it("a failed discovery leaves no members and keeps the failing phase", async () => {
    const t = await sb.createTarget({ kind: "people", input: "engineer" });
    await sb.finish(t.id, "failed");
    expect((await sb.get(`/targets/${t.id}`)).body.data).toMatchObject({
      member_count: 0,
      job: { status: "failed", phase: "discovering" },
    });
    expect((await sb.get(`/targets/${t.id}`)).body.data.job.error).toMatch(/Discovery failed/);
  });

  it("the control endpoint rejects bad input and unknown Targets", async () => {
    expect((await sb.control("POST", "/__sandbox/jobs/advance", { steps: 0 })).status).toBe(400);
    expect((await sb.control("POST", "/__sandbox/jobs/advance", { outcome: "maybe" })).status).toBe(400);
    expect((await sb.control("POST", "/__sandbox/jobs/advance", [1])).status).toBe(400);
    const missing = await sb.control("POST", "/__sandbox/jobs/advance", {
      target_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe("not_found");
  });
});

describe("job simulation settings", () => {
  it("--job-failure-rate 1 fails every job; 0 never does (deterministic per job id)", async () => {
    const failing = await openStateful({ jobFailureRate: 1 });
    try {
      const t = await failing.createTarget({ kind: "people", input: "engineer" });
      await failing.finish(t.id);
      expect((await failing.get(`/targets/${t.id}`)).body.data.job.status).toBe("failed");
    } finally {
      await failing.close();
    }
    for (let i = 0; i < 5; i++) {
      const t = await sb.createTarget({ kind: "people", input: `engineer ${i}` });
      await sb.finish(t.id);
      expect((await sb.get(`/targets/${t.id}`)).body.data.job.status).toBe("done");
    }
  });

  it("--job-speed moves jobs in the background without the control endpoint", async () => {
    const fast = await openStateful({ jobSpeed: 1000, now: () => Date.now() });
    try {
      const t = await fast.createTarget({ input: "Fabrikam", auto_admit: true });
      let job = t.job;
      for (let i = 0; i < 200 && job.status !== "done"; i++) {
        await new Promise((r) => setTimeout(r, 10));
        job = (await fast.get(`/targets/${t.id}`)).body.data.job;
      }
      expect(job).toMatchObject({ status: "done", phase: "done" });
    } finally {
      await fast.close();
    }
  });
});
