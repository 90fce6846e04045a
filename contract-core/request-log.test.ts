// The request log line: method, path, status, time; the error of a 4xx in any body form; nothing else.
import { describe, expect, it } from "vitest";
import { requestLogLine } from "./request-log.js";

const error = { error: { type: "invalid_request", message: "limit must be <= 100" } };

describe("requestLogLine", () => {
  it("names method, path, status and time", () => {
    expect(requestLogLine({ method: "GET", url: "/v1/people?limit=2", status: 200, ms: 3.14159 })).toBe(
      "GET /v1/people?limit=2 200 3.1 ms",
    );
  });

  it("adds the error of a 4xx whether the body is an object, JSON text or bytes", () => {
    const line = "GET /v1/people?limit=101 400 1.0 ms invalid_request: limit must be <= 100";
    for (const body of [error, JSON.stringify(error), new TextEncoder().encode(JSON.stringify(error))])
      expect(requestLogLine({ method: "GET", url: "/v1/people?limit=101", status: 400, ms: 1, body })).toBe(line);
  });

  it("adds nothing for a 2xx or 5xx body, or a 4xx body that is not the error shape (negative)", () => {
    expect(requestLogLine({ method: "GET", url: "/v1/me", status: 200, ms: 1, body: error })).toBe(
      "GET /v1/me 200 1.0 ms",
    );
    expect(requestLogLine({ method: "GET", url: "/v1/me", status: 500, ms: 1, body: error })).toBe(
      "GET /v1/me 500 1.0 ms",
    );
    expect(requestLogLine({ method: "GET", url: "/x", status: 404, ms: 1, body: "<html>" })).toBe("GET /x 404 1.0 ms");
  });
});
