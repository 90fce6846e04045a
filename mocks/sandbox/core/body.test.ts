/** The body step: JSON read within BODY_LIMIT, streamed readers read only when asked, every refusal a 400. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../contract/errors.js";
import { BODY_LIMIT, hasNoBody, parseJsonBody } from "./body.js";

const JSON_HEADERS = { "content-type": "application/json" };
const refusal = async (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: unknown) => (e instanceof ApiError ? `${e.status} ${e.message}` : String(e)),
  );

describe("parseJsonBody", () => {
  it("parses JSON from text, bytes and a streamed reader; a read has no body", async () => {
    expect(await parseJsonBody("POST", JSON_HEADERS, '{"a":1}')).toEqual({ a: 1 });
    expect(await parseJsonBody("PUT", JSON_HEADERS, new TextEncoder().encode("[1]"))).toEqual([1]);
    expect(await parseJsonBody("PATCH", JSON_HEADERS, async () => '"x"')).toBe("x");
    let read = false;
    expect(await parseJsonBody("GET", JSON_HEADERS, async () => ((read = true), "{}"))).toBeUndefined();
    expect(read).toBe(false);
    expect([hasNoBody("GET"), hasNoBody("HEAD"), hasNoBody("POST")]).toEqual([true, true, false]);
  });

  it("takes an empty body as no body, with or without a JSON content type", async () => {
    expect(await parseJsonBody("POST", {}, undefined)).toBeUndefined();
    expect(await parseJsonBody("POST", JSON_HEADERS, "  ")).toBeUndefined();
  });

  it("refuses a wrong content type, bad JSON, deep nesting and an oversize body with a 400", async () => {
    expect(await refusal(parseJsonBody("POST", { "content-type": "text/plain" }, "{}"))).toBe(
      "400 Content-Type must be application/json",
    );
    expect(await refusal(parseJsonBody("POST", JSON_HEADERS, "{"))).toMatch(/^400 /);
    expect(await refusal(parseJsonBody("POST", JSON_HEADERS, "[".repeat(5000) + "]".repeat(5000)))).toMatch(/^400 /);
    const over = `request body exceeds ${BODY_LIMIT} bytes`;
    expect(await refusal(parseJsonBody("POST", JSON_HEADERS, "x".repeat(BODY_LIMIT + 1)))).toBe(`400 ${over}`);
    expect(await refusal(parseJsonBody("POST", JSON_HEADERS, async () => null))).toBe(`400 ${over}`);
    // Multi-byte text over the limit in bytes, under it in characters.
    expect(await refusal(parseJsonBody("POST", JSON_HEADERS, "é".repeat(BODY_LIMIT / 2 + 1)))).toBe(`400 ${over}`);
  });
});
