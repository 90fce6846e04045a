/** The validate and handle steps: the spec's validators coerce the input; the area's handler gets it, or a 500 names the gap. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { Area } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import { indexSpec } from "../contract/spec.js";
import { fixtureGraphInput } from "../data/fixture.js";
import { createSandboxCore } from "./core.js";
import { compileRequestValidators } from "./validation.js";

const spec = loadSpec();
const search = compileRequestValidators(indexSpec(spec as never)).get("searchPeople")!;

describe("validate step", () => {
  it("coerces the query to the schema's types", () => {
    const input = search({}, new URLSearchParams("limit=5"), undefined);
    expect(input.query).toMatchObject({ limit: 5 });
  });

  it("is a 400 naming the first problem", () => {
    try {
      search({}, new URLSearchParams("limit=100000"), undefined);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect([(e as ApiError).status, (e as ApiError).message]).toEqual([400, expect.stringMatching(/limit/)]);
    }
  });
});

describe("handle step", () => {
  const area: Area = {
    name: "probe",
    handlers: { getAccount: (req) => ({ body: { seen: req.operationId, q: req.rawQuery.get("x") } }) as never },
  };
  const core = createSandboxCore({ spec, graph: fixtureGraphInput(), areas: [area], rateLimit: false, timers: false });
  const headers = { authorization: `Bearer ${core.keys[0]!.key}` };

  it("calls the operation's handler with the validated input", async () => {
    const res = await core.handle({ method: "GET", url: "/v1/me?x=1", headers });
    expect([res.status, JSON.parse(res.body!)]).toEqual([200, { seen: "getAccount", q: "1" }]);
  });

  it("answers 500 naming an operation the given areas leave out", async () => {
    const res = await core.handle({ method: "GET", url: "/v1/people", headers });
    expect([res.status, JSON.parse(res.body!).error.message]).toEqual([
      500,
      "searchPeople is not implemented in the sandbox yet",
    ]);
  });
});
