/** The harness must fail a test on a contract violation (a helper that cannot fail is a defect). */
import { describe, expect, it } from "vitest";
import { assertContract, ContractViolation } from "./harness.js";

const ok = {
  request: { method: "GET", url: "/v1/me", headers: { authorization: "Bearer k" } },
  response: { status: 200, headers: { "content-type": "application/json" }, body: { data: {} } },
};

describe("assertContract", () => {
  it("passes a valid exchange", () => {
    expect(assertContract(ok).valid).toBe(true);
  });

  it.each([
    ["an undocumented status", { ...ok, response: { ...ok.response, status: 418 } }],
    ["a body breaking the schema", { ...ok, response: { ...ok.response, body: { nope: 1 } } }],
    ["a wrong error shape", { ...ok, response: { ...ok.response, status: 401, body: { message: "no" } } }],
    [
      "a 429 without Retry-After",
      {
        ...ok,
        response: { ...ok.response, status: 429, body: { statusCode: 429, error: "Too Many Requests", message: "x" } },
      },
    ],
    ["a request without credentials", { ...ok, request: { method: "GET", url: "/v1/me" } }],
  ])("throws on %s", (_name, exchange) => {
    expect(() => assertContract(exchange)).toThrow(ContractViolation);
  });

  it("invalidRequest skips the request side only", () => {
    expect(assertContract({ ...ok, request: { method: "GET", url: "/v1/me" } }, { invalidRequest: true }).valid).toBe(
      true,
    );
    expect(() =>
      assertContract(
        { ...ok, request: { method: "GET", url: "/v1/me" }, response: { ...ok.response, status: 418 } },
        { invalidRequest: true },
      ),
    ).toThrow(ContractViolation);
  });
});
