/**
 * Every query the READMEs and examples show finds someone on the MSW host's default graph (its default size,
 * the default seed): a newcomer who tries an example in the browser sees people, not an empty page.
 * Sources: mocks/sandbox/README.md (curl examples, the nl echo), client/README.md and examples/quickstart.ts
 * (nl), examples/msw (role_family, keywords from the page's search box, an "Engineers" Target) and
 * examples/sandbox-session.ts (the "Backend engineers in Berlin" Target, its members accepted by location).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSW_DEFAULT_SIZE } from "../hosts/msw/msw.js";
import { openSandbox, type TestSandbox } from "../testing/harness.js";

const SEARCHES = [
  "company=northwind&company_current=true&view=compact",
  "nl=engineers%20in%20Germany%20with%205%2B%20years",
  "roles=data:24,t.contains.machine%20learning.12&location=Europe;Asia",
  "certifications=%5B%22scrum%22%2C%22cloud%22%5D&certification_match=any",
  "nl=open%20to%20work%20senior%20engineers%20in%20Germany%20with%205%2B%20years",
  "nl=staff%20engineers%20in%20Berlin",
  "nl=engineers%20in%20Berlin",
  "role_family=engineering",
  "keywords=engineer",
  "limit=1",
];

const TARGETS: { body: Record<string, unknown>; members: string }[] = [
  {
    body: {
      kind: "people",
      input: "Backend engineers in Berlin",
      app_query: { keywords: "backend engineer", location: "Berlin" },
    },
    members: "status=proposed&location=Berlin",
  },
  { body: { kind: "people", input: "Engineers", app_query: { keywords: "engineer" } }, members: "status=proposed" },
];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await openSandbox({ ...MSW_DEFAULT_SIZE, jobSpeed: 0, jobFailureRate: 0 });
});
afterAll(() => sb.close());

describe(`documented example queries on the MSW default graph (${MSW_DEFAULT_SIZE.people} people)`, () => {
  it.each(SEARCHES)("GET /people?%s finds someone", async (query) => {
    const res = await sb.get(`/people?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it("GET /suggest?q=cloud suggests something", async () => {
    const res = await sb.get("/suggest?q=cloud");
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it.each(TARGETS)("the Target $body.input discovers members ($members)", async ({ body, members }) => {
    const created = await sb.request("POST", "/targets", { key: "acme", body });
    expect(created.status).toBe(202);
    const id = created.body.data.id as string;
    const advanced = await sb.control("POST", "/__sandbox/jobs/advance", { target_id: id, until: "finished" });
    expect(advanced.status).toBe(200);
    const res = await sb.get(`/targets/${id}/members?limit=500&${members}`, { key: "acme" });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });
});
