// Unit tests of the pure parts: violation wording (Prism diagnostics in the core's words), error replies.
import { describe, expect, it } from "vitest";
import { describeViolations, errorReply } from "./errors.js";

describe("violation messages", () => {
  it("words Prism's diagnostics as the core does (parameter named, no 'Request ' prefix), de-duplicates and keeps only errors", () => {
    const message = describeViolations([
      { message: "Request query parameter limit must be <= 100", severity: 0 },
      { message: "Request query parameter limit must be <= 100", severity: "Error" },
      { message: "Request header X-Foo is deprecated", severity: 1 },
      { message: "Request body must have required property 'status'", severity: 0 },
    ]);
    expect(message).toBe("limit must be <= 100; body must have required property 'status'");
  });

  it("words enums, path parameters and body properties as the sandbox does", () => {
    const words = (message: string) => describeViolations([{ message, severity: 0 }]);
    expect(words("Request query parameter view must be equal to one of the allowed values: full, compact")).toBe(
      "view must be one of: full, compact",
    );
    expect(words('Request path parameter id must match format "uuid"')).toBe('id must match format "uuid"');
    expect(words("Request body/name must NOT have fewer than 1 characters")).toBe(
      "body/name must NOT have fewer than 1 characters",
    );
    expect(words("Request query parameter limit must be <= 100")).not.toContain("query parameter");
    expect(words(String.raw`Request body/name must match pattern "^\s*\S(?:[\s\S]{0,78}\S)?\s*$"`)).toBe(
      "body/name must be 1-80 characters after trimming",
    );
  });

  it("never answers an empty message", () => {
    expect(describeViolations([])).toBe("invalid request");
  });
});

describe("error replies", () => {
  it("keep a message whole: the spec bounds none (what it repeats of the input is cut by echoInput)", () => {
    const long = errorReply(400, "invalid_request", "x".repeat(5000)).body as { error: { message: string } };
    expect(long.error.message).toHaveLength(5000);
    const short = errorReply(400, "invalid_request", "limit must be <= 100").body as { error: { message: string } };
    expect(short.error.message).toBe("limit must be <= 100");
  });
});
