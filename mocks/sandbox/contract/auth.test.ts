/** The authenticate and organization steps: the key names the organization; a locked one answers 402 but to getAccount. */
import { describe, expect, it } from "vitest";
import { authenticate, KEYS, ORGS, requireAnyKey, requireOrganizationAccess, SEED_ORGS } from "./auth.js";
import { ApiError } from "./errors.js";
import { SandboxState } from "./state.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { buildGraph } from "../data/graph.js";

const state = new SandboxState(buildGraph(fixtureGraphInput()), SEED_ORGS);
const key = (kind: string, org?: string) => KEYS.find((k) => k.kind === kind && (!org || k.orgId === org))!.key;
const statusOf = (run: () => unknown) => {
  try {
    run();
    return "passed";
  } catch (e) {
    return e instanceof ApiError ? e.status : String(e);
  }
};

describe("authenticate step", () => {
  it("names the key's organization, from X-Api-Key or a bearer token", () => {
    expect(authenticate({ "x-api-key": key("customer", ORGS.acme.id) }, state).org.info.id).toBe(ORGS.acme.id);
    const bearer = { authorization: `Bearer ${key("customer", ORGS.globex.id)}` };
    expect(authenticate(bearer, state)).toMatchObject({
      keyKind: "customer",
      org: { info: { id: ORGS.globex.id } },
    });
  });

  it("is a 401 for a missing, unknown or revoked key", () => {
    expect(statusOf(() => authenticate({}, state))).toBe(401);
    expect(statusOf(() => authenticate({ "x-api-key": "tgsb_nobody" }, state))).toBe(401);
    expect(statusOf(() => authenticate({ "x-api-key": key("revoked") }, state))).toBe(401);
  });

  it("in examples mode takes any presented key", () => {
    expect(statusOf(() => requireAnyKey({ "x-api-key": "anything" }))).toBe("passed");
    expect(statusOf(() => requireAnyKey({}))).toBe(401);
  });
});

describe("organization step", () => {
  const locked = authenticate({ "x-api-key": key("customer", ORGS.initech.id) }, state).org;
  const open = authenticate({ "x-api-key": key("customer", ORGS.acme.id) }, state).org;

  it("answers 402 to a locked organization, except for getAccount", () => {
    expect(statusOf(() => requireOrganizationAccess(locked, "searchPeople"))).toBe(402);
    expect(statusOf(() => requireOrganizationAccess(locked, "getAccount"))).toBe("passed");
    expect(statusOf(() => requireOrganizationAccess(open, "searchPeople"))).toBe("passed");
  });
});
