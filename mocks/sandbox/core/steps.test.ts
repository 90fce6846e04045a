/** The Prefer, rate limit, timer and examples steps on their own. */
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../../contract-core/index.js";
import type { SandboxContext } from "../contract/context.js";
import { ApiError } from "../contract/errors.js";
import { indexSpec } from "../contract/spec.js";
import { answerFromExamples } from "./examples.js";
import { acceptedPreferences, appliedPreferences, preferredLatency, readPrefer } from "./prefer.js";
import { createRateLimiter } from "./ratelimit.js";
import { startTicker } from "./timers.js";
import { compileRequestValidators } from "./validation.js";

describe("Prefer step", () => {
  it("reads the header (else its query stand-ins, which leave the query) and reports what it applied under the API", () => {
    const query = new URLSearchParams("__code=404&limit=2");
    const prefer = readPrefer({ prefer: "latency=5" }, query);
    expect(query.toString()).toBe("limit=2");
    expect(acceptedPreferences(prefer)).toEqual({ latencyMs: 5 });
    const fromQuery = new URLSearchParams("__code=404&limit=2");
    expect(acceptedPreferences(readPrefer({}, fromQuery))).toEqual({ code: 404 });
    expect(fromQuery.toString()).toBe("limit=2");
    expect([appliedPreferences(prefer, true, 200), appliedPreferences(prefer, false, 200)]).toEqual([
      expect.any(String),
      undefined,
    ]);
    expect([preferredLatency(prefer, true), preferredLatency(prefer, false)]).toEqual([5, 0]);
  });

  it("refuses a header its grammar does not take with a 400, only when asked to accept it", () => {
    const prefer = readPrefer({ prefer: "code=abc" }, new URLSearchParams());
    expect(appliedPreferences(prefer, true, 400)).toBeUndefined();
    expect(() => acceptedPreferences(prefer)).toThrow(ApiError);
  });
});

describe("rate limit step", () => {
  it("adds the window's headers and answers 429 over the limit", () => {
    const limiter = createRateLimiter({ max: 1, windowMs: 60_000 }, () => 0);
    const headers: Record<string, string> = {};
    expect(limiter("a", headers)).toBeNull();
    expect(headers["x-ratelimit-remaining"]).toBe("0");
    expect(limiter("a", headers)?.status).toBe(429);
    expect(limiter("b", {})).toBeNull();
  });
});

describe("timers", () => {
  it("ticks every area at the shortest interval they ask for, a failing one logged", () => {
    const ran: string[] = [];
    const logged: string[] = [];
    const ctx = { logError: (m: string) => void logged.push(m) } as unknown as SandboxContext;
    const ticker = startTicker(
      [
        { name: "a", handlers: {}, tick: () => void ran.push("a"), tickEveryMs: () => 500 },
        {
          name: "b",
          handlers: {},
          tick: () => {
            throw new Error("x");
          },
          tickEveryMs: () => 200,
        },
        { name: "c", handlers: {} },
      ],
      ctx,
      false,
    );
    ticker.tick();
    expect([ticker.every, ran, logged]).toEqual([200, ["a"], ["sandbox timer failed"]]);
    ticker.stop();
  });
});

describe("examples step", () => {
  const spec = indexSpec(loadSpec() as never);
  const op = spec.operations.find((o) => o.operationId === "getAccount")!;
  const validator = compileRequestValidators(spec).get("getAccount")!;
  const request = { params: {}, rawQuery: new URLSearchParams(), body: undefined, label: `GET ${spec.basePath}/me` };

  it("answers the example the matcher chooses, else the default success example", () => {
    const chosen: string[] = [];
    const answer = answerFromExamples(spec, op, validator, request, {}, (method, path) => {
      chosen.push(`${method} ${path}`);
      return undefined;
    });
    expect(answer.status).toBe(200);
    expect(chosen).toEqual(["GET /me"]);
  });

  it("answers the status Prefer names without asking the matcher", () => {
    const answer = answerFromExamples(spec, op, validator, request, { code: 401 }, () => {
      throw new Error("not asked");
    });
    expect(answer.status).toBe(401);
  });
});
