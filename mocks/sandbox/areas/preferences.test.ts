/** Notification preferences, the stored webhook (never returned), POST /signals/test and GET /me. */
import { describe, expect, it } from "vitest";
import { ORGS } from "../contract/auth.js";
import { spawnSandbox } from "../testing/child.js";
import { HOST, testKey } from "../testing/harness.js";
import { PROPERTY_RULES } from "../../../generated/spec-constants.js";
import { useStatefulSandbox } from "../testing/test-kit.js";

const sb = useStatefulSandbox();

const DEFAULTS = {
  fields: ["open_to_work", "between_roles", "left_company", "joined_company", "removed_position"],
  email_enabled: true,
  emails: [],
  slack_enabled: false,
  slack_channel_id: null,
  slack_channel_name: null,
};
const WEBHOOK_URL = "https://hooks.example.com/talent/3f9c";
const WEBHOOK_SECRET = "whsec_do-not-leak-7731";

const put = (body: unknown, invalidRequest = false) =>
  sb.request("PUT", "/signals/preferences", { body, invalidRequest });

describe("GET /signals/preferences", () => {
  it("answers the defaults without the webhook key before anything is saved", async () => {
    const res = await sb.get("/signals/preferences");
    expect(res.body).toEqual({ data: { org_id: ORGS.acme.id, ...DEFAULTS } });
  });
});

describe("PUT /signals/preferences", () => {
  it("is a partial upsert: omitted fields keep their values; the answer carries webhook.configured", async () => {
    const first = await put({ email_enabled: false, slack_enabled: true });
    expect(first.body.data).toEqual({
      org_id: ORGS.acme.id,
      ...DEFAULTS,
      email_enabled: false,
      slack_enabled: true,
      webhook: { configured: false },
    });
    const second = await put({ emails: ["lead@northwind.example.com"] });
    expect(second.body.data).toMatchObject({
      email_enabled: false,
      slack_enabled: true,
      emails: ["lead@northwind.example.com"],
    });
    expect((await sb.get("/signals/preferences")).body.data).toEqual({
      org_id: ORGS.acme.id,
      ...DEFAULTS,
      email_enabled: false,
      slack_enabled: true,
      emails: ["lead@northwind.example.com"],
    });
    expect((await put({})).body.data.emails).toEqual(["lead@northwind.example.com"]);
  });

  it("fields: unknown and non-string items ignored, duplicates removed, order kept; none left is 400; a non-array selects the defaults", async () => {
    const res = await put({ fields: ["exploring", "nonsense", 7, "open_to_work", "exploring", null] }, true);
    expect(res.status).toBe(200);
    expect(res.body.data.fields).toEqual(["exploring", "open_to_work"]);
    for (const fields of [[], ["nonsense"], [1, 2]]) {
      const bad = await put({ fields }, true);
      expect(bad.status, JSON.stringify(fields)).toBe(400);
      expect(bad.body.error.type).toBe("invalid_request");
      expect(bad.body.error.message).toMatch(/fields/);
    }
    expect((await sb.get("/signals/preferences")).body.data.fields).toEqual(["exploring", "open_to_work"]);
    for (const fields of ["exploring", 5, { a: 1 }, null]) {
      const fallback = await put({ fields }, true);
      expect(fallback.status, JSON.stringify(fields)).toBe(200);
      expect(fallback.body.data.fields).toEqual(DEFAULTS.fields);
    }
    const all = [
      "open_to_work",
      "between_roles",
      "exploring",
      "left_company",
      "joined_company",
      "removed_position",
      "headline",
      "about",
      "role_description",
    ];
    expect((await put({ fields: all })).body.data.fields).toEqual(all);
  });

  it("emails: entries containing @ are trimmed and lowercased, others dropped, the first maxItems (the spec's) stored", async () => {
    const emails = [
      "  Lead@Northwind.Example.com ",
      "not-an-email",
      "",
      ...Array.from({ length: 25 }, (_, i) => `user${i}@example.com`),
    ];
    const res = await put({ emails });
    const max = PROPERTY_RULES.NotificationPreferences.emails.maxItems; // 20 in the spec today
    expect(res.body.data.emails).toHaveLength(max);
    expect(res.body.data.emails[0]).toBe("lead@northwind.example.com");
    expect(res.body.data.emails[max - 1]).toBe(`user${max - 2}@example.com`);
    expect((await put({ emails: [] })).body.data.emails).toEqual([]);
  });

  it("channel values are trimmed; longer than 64 / 80 characters is stored cut, not a 400; blank clears them", async () => {
    const id = `C04${"X".repeat(61)}`;
    const res = await put({ slack_channel_id: `  ${id}  `, slack_channel_name: ` ${"n".repeat(80)} ` });
    expect(res.body.data.slack_channel_id).toBe(id);
    expect(res.body.data.slack_channel_name).toBe("n".repeat(80));
    const long = await put({ slack_channel_id: `${id}YZ`, slack_channel_name: "n".repeat(81) });
    expect(long.status).toBe(200);
    expect(long.body.data).toMatchObject({ slack_channel_id: id, slack_channel_name: "n".repeat(80) });
    expect((await sb.get("/signals/preferences")).body.data.slack_channel_id).toBe(id);
    const small = await put({ slack_channel_id: " C04TALENT ", slack_channel_name: " talent-signals " });
    expect(small.body.data).toMatchObject({ slack_channel_id: "C04TALENT", slack_channel_name: "talent-signals" });
    expect((await put({ slack_channel_id: "   " })).body.data.slack_channel_id).toBeNull();
  });

  it("stores the webhook URL and secret but never returns them; empty values do not replace them", async () => {
    const responses: string[] = [];
    const keep = async (res: { body: unknown }) => {
      responses.push(JSON.stringify(res.body));
      return res;
    };
    const set = await keep(await put({ webhook_url: `  ${WEBHOOK_URL}  `, webhook_secret: ` ${WEBHOOK_SECRET} ` }));
    expect((set.body as any).data.webhook).toEqual({ configured: true });
    const cleared = await keep(await put({ webhook_url: "", webhook_secret: "" }));
    expect((cleared.body as any).data.webhook).toEqual({ configured: true });
    await keep(await sb.get("/signals/preferences"));
    const me = await keep(await sb.get("/me"));
    expect((me.body as any).data.webhook).toEqual({ configured: true });
    await keep(await sb.request("POST", "/signals/test"));
    for (const text of responses) {
      expect(text).not.toContain("hooks.example.com");
      expect(text).not.toContain(WEBHOOK_SECRET);
      expect(text).not.toMatch(/webhook_url|webhook_secret/);
    }
    // The control endpoints never show it either.
    expect(JSON.stringify((await sb.control("GET", "/__sandbox/state")).body)).not.toContain("hooks.example.com");
    // Another organization has none.
    expect((await sb.get("/me", { key: "globex" })).body.data.webhook).toEqual({ configured: false });
  });

  it("rejects wrong types with 400", async () => {
    for (const body of [
      { email_enabled: "yes" },
      { emails: "a@b.c" },
      { slack_enabled: 1 },
      { slack_channel_id: 5 },
      { webhook_url: true },
      "[]",
    ]) {
      const res = await put(body, true);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("POST /signals/test", () => {
  it("delivers nothing and reports which channels would be used", async () => {
    expect((await sb.request("POST", "/signals/test")).body.data).toEqual({
      sent: false,
      channels: { email: 0, slack: false },
      fields: DEFAULTS.fields,
    });
    await put({ emails: ["a@example.com"], slack_enabled: true, slack_channel_id: "C1" });
    const res = await sb.request("POST", "/signals/test", { body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sent: true, channels: { email: 1, slack: true }, fields: DEFAULTS.fields });
  });
});

// The Node command's own output: the same child process whichever host this run of the behaviour tests chose
// (vitest.config.ts runs them again on MSW), so it runs once, in the Fastify run.
describe.skipIf(HOST === "msw")("logging", () => {
  it("a sandbox started with --log never writes the webhook URL or secret (nor the key) to its output", async () => {
    // Its own process group (detached), stopped as a whole below.
    const started = await spawnSandbox(["--log", "--people", "40", "--job-speed", "0"], { detached: true });
    const { child, baseUrl: base } = started;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const headers = { authorization: `Bearer ${testKey("acme")}`, "content-type": "application/json" };
      const put = await fetch(`${base}/signals/preferences`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ webhook_url: WEBHOOK_URL, webhook_secret: WEBHOOK_SECRET }),
      });
      expect(put.status).toBe(200);
      const bad = await fetch(`${base}/signals/preferences`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ fields: [], webhook_url: WEBHOOK_URL }),
      });
      expect(bad.status).toBe(400);
      expect((await fetch(`${base}/me`, { headers })).status).toBe(200);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    const output = started.output();
    expect(output).toMatch(/"url":"\/v1\/signals\/preferences"/); // requests were logged
    expect(output).not.toContain("hooks.example.com");
    expect(output).not.toContain(WEBHOOK_SECRET);
    expect(output.split(testKey("acme")).length).toBe(2); // only the key list printed at start
  });
});
