// The request log line: method, path, status, time; the error of a 4xx or 5xx in any body form; nothing else;
// every request-derived value escaped, so one request is one line.
import { describe, expect, it } from "vitest";
import { controlCharacters, requestLogLine } from "./request-log.js";

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

  it("adds the error of a 5xx (why it failed)", () => {
    const failed = { error: { type: "server_error", message: "The sandbox could not save this write" } };
    expect(requestLogLine({ method: "POST", url: "/v1/lists", status: 500, ms: 1, body: failed })).toBe(
      "POST /v1/lists 500 1.0 ms server_error: The sandbox could not save this write",
    );
  });

  it("escapes control characters in the method, path and error: a request cannot forge a line or a colour", () => {
    const forged = { error: { type: "not_found", message: "No operation GET /v1/lists/x\r\nGET /v1/me 200 1.0 ms" } };
    const line = requestLogLine({ method: "GET\u001b", url: "/v1/x\u001b[31m\\", status: 404, ms: 1, body: forged });
    expect(line).toBe(
      "GET\\x1b /v1/x\\x1b[31m\\\\ 404 1.0 ms not_found: No operation GET /v1/lists/x\\x0d\\x0aGET /v1/me 200 1.0 ms",
    );
    expect(controlCharacters(line)).toEqual([]);
    expect(requestLogLine({ method: "GET", url: "/\u2028\u0085", status: 200, ms: 1 })).toBe(
      "GET /\\u2028\\x85 200 1.0 ms",
    );
  });

  it("adds nothing for a 2xx body, or a 4xx body that is not the error shape (negative)", () => {
    expect(requestLogLine({ method: "GET", url: "/v1/me", status: 200, ms: 1, body: error })).toBe(
      "GET /v1/me 200 1.0 ms",
    );
    expect(requestLogLine({ method: "GET", url: "/x", status: 404, ms: 1, body: "<html>" })).toBe("GET /x 404 1.0 ms");
  });
});
