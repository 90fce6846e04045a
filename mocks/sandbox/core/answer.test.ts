/** The answer step: replies and errors as responses; CORS, Preference-Applied and HEAD applied on the way out. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../contract/errors.js";
import { errorResponse, finishAnswer, JSON_TYPE, reply } from "./answer.js";

describe("answer step", () => {
  it("serializes a reply once: JSON objects, text, no body; header names lower-cased", () => {
    expect(reply({ body: { a: 1 }, headers: { Location: "/x" } })).toEqual({
      status: 200,
      headers: { location: "/x", "content-type": JSON_TYPE },
      body: '{"a":1}',
    });
    expect(reply({ status: 201, body: "hi" }).headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(reply({ status: 204 })).toEqual({ status: 204, headers: {}, body: undefined });
  });

  it("answers an ApiError in the reference's shape, anything else as a reported 500", () => {
    const unexpected: unknown[] = [];
    const known = errorResponse(new ApiError(404, "not_found", "no such person"), (e) => unexpected.push(e));
    expect([known.status, JSON.parse(known.body!)]).toEqual([
      404,
      { error: { type: "not_found", message: "no such person" } },
    ]);
    const crash = errorResponse(new TypeError("x is undefined"), (e) => unexpected.push(e));
    expect([crash.status, JSON.parse(crash.body!).error.type, unexpected.length]).toEqual([500, "server_error", 1]);
  });

  it("adds the shared headers under the response's own, Preference-Applied, and drops a HEAD body", async () => {
    const response = { status: 200, headers: { "x-own": "1", "access-control-allow-origin": "own" }, body: "{}" };
    const out = await finishAnswer(response, {
      method: "HEAD",
      headers: { "access-control-allow-origin": "*", "x-ratelimit-limit": "300" },
      applied: "code=200",
      delayMs: 0,
    });
    expect(out).toEqual({
      status: 200,
      headers: {
        "access-control-allow-origin": "own",
        "x-ratelimit-limit": "300",
        "x-own": "1",
        "preference-applied": "code=200",
      },
      body: undefined,
    });
  });
});
