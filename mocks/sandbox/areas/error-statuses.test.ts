// Every documented error status of every operation, answered by the sandbox (both hosts) and checked against
// the spec by the harness: a platform key without X-Service-Org-Id is a 400 and a client over its rate
// limit a 429 on every operation (their real causes); every other documented 4xx and 5xx is asked for with
// `Prefer: code=` (the sandbox's fault injection: a 409 "preserved if it occurs" or a 500 has no other cause
// here). The harness logs each exchange as contract-coverage evidence: the first two as caused, the
// `Prefer: code=` answers as forced, which coverage lists apart and counts in no total.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_SPEC_PATH,
  OPERATIONS,
  REPO_ROOT,
  cellsOf,
  loadSpec,
  type Exchange,
} from "../../../contract-core/index.js";
import { openSandbox, type TestSandbox } from "../testing/harness.js";

const EXAMPLES = join(REPO_ROOT, "contract-tests/recordings/examples");
const cells = cellsOf(loadSpec(DEFAULT_SPEC_PATH));

/** A request the operation documents a success for (its recording built from the spec's examples). */
function successRequest(operationId: string): { method: string; path: string; body?: unknown } {
  const file = readdirSync(join(EXAMPLES, operationId)).find((f) => /^2\d\d-/.test(f));
  if (!file) throw new Error(`no success recording for ${operationId}`);
  const { request } = JSON.parse(readFileSync(join(EXAMPLES, operationId, file), "utf8")) as Exchange;
  return {
    method: request.method,
    path: request.url.replace(/^\/v1/, ""),
    ...(request.body === null || request.body === undefined ? {} : { body: request.body }),
  };
}

/** A code the status stands for: `5XX` as 503, as the recordings write ranges. */
const codeOf = (status: string): number => (/^\dXX$/.test(status) ? Number(`${status[0]}03`) : Number(status));

describe("every documented error status is reachable on the sandbox", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await openSandbox({ people: 200, companies: 20 });
  });
  afterAll(async () => sb?.close());

  it("covers every operation", () => {
    expect(cells.map((c) => c.operationId).sort()).toEqual([...OPERATIONS].map((o) => o.operationId).sort());
  });

  it.each(cells.map((c) => [c.operationId, c] as const))(
    "%s: 400 for a platform key without X-Service-Org-Id",
    async (id) => {
      const req = successRequest(id);
      const res = await sb.request(req.method, req.path, { key: "platform", body: req.body, invalidRequest: true });
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe("invalid_request");
    },
  );

  it.each(cells.map((c) => [c.operationId, c] as const))(
    "%s: each documented 4xx and 5xx through Prefer: code=",
    async (id, op) => {
      const req = successRequest(id);
      for (const { status } of op.statuses.filter((s) => /^[45]/.test(s.status))) {
        const code = codeOf(status);
        const res = await sb.request(req.method, req.path, { body: req.body, headers: { prefer: `code=${code}` } });
        // The harness has checked the body against the spec's response for this status.
        expect(res.status, `${id} ${status}`).toBe(code);
        expect(res.body, `${id} ${status}`).not.toBeNull();
      }
    },
  );
});

describe("every operation answers 429 over the rate limit", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await openSandbox({ people: 200, companies: 20, rateLimit: { max: 1, windowMs: 60_000 } });
    await sb.get("/me");
  });
  afterAll(async () => sb?.close());

  it.each(cells.map((c) => [c.operationId] as const))("%s", async (id) => {
    const req = successRequest(id);
    const res = await sb.request(req.method, req.path, { body: req.body });
    expect(res.status).toBe(429);
  });
});
